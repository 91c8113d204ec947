#ifndef CTESSERACT_LOADER_H
#define CTESSERACT_LOADER_H

#include <stddef.h>

/// Loads libtesseract (and through it Leptonica) into the process, once: every Tesseract and
/// Leptonica function the scanner calls is defined in this target and forwards to the library
/// found here, so `cardwallet` starts without mapping the 48 libraries they bring
/// (docs/Scan.md, "Loading Tesseract on demand"). Thread-safe; after a success it costs one
/// pthread_once check.
///
/// Returns 1 when the library is loaded and every function resolved; else 0, with the
/// loader's reason (dlerror's text, or the function missing) in `error`.
int ctess_load(char *error, size_t errorSize);

/// Tries to load Tesseract from `names` (in order) into a table of its own and unloads it
/// again: the same checks as ctess_load without changing the process's state. For tests.
/// Returns 1 when one of them loaded with every function; else 0 with the reason in `error`.
int ctess_try_load(const char *const *names, size_t count, char *error, size_t errorSize);

/// Makes the calling thread's OpenMP parallel regions run on that thread alone; returns 0 when
/// Tesseract is not loaded or has no OpenMP runtime.
///
/// Debian's libtesseract is built with OpenMP (libgomp) and asks for four threads in its
/// neural network's loops; their spin-waiting cost four times the CPU of a single thread on
/// this project's two cores (docs/Scan.md). OMP_THREAD_LIMIT would stop it but is read only
/// when libgomp loads; these settings are per thread, so every thread that recognises calls
/// this first. The functions are looked up through Tesseract's handle (libgomp is one of its
/// dependencies, loaded RTLD_LOCAL with it), so building needs no libgomp link.
int ctess_run_openmp_inline(void);

#endif
