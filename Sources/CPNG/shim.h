#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

#include <png.h>

// libpng's simplified API (png_image_*) catches its own errors with setjmp inside libpng and
// reports them in png_image.message, so no longjmp ever crosses a Swift frame. The format
// macros are ORs of other macros, which Swift does not import; these give them one spelling.

static inline png_uint_32 cpng_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline png_uint_32 cpng_format_gray(void) { return PNG_FORMAT_GRAY; }
static inline png_uint_32 cpng_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 cpng_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }

#endif
