#ifndef CTESSERACT_SHIM_H
#define CTESSERACT_SHIM_H

// Tesseract's C API and the Leptonica image library it reads and prepares images with: the
// declarations only. Nothing links the libraries; CTesseractLoader defines these functions and
// loads libtesseract with dlopen at the first scan (docs/Scan.md, "Loading Tesseract on demand").
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>

#endif
