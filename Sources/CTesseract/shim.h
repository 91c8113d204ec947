#ifndef CTESSERACT_SHIM_H
#define CTESSERACT_SHIM_H

// Tesseract's C API and the Leptonica image library it reads and prepares images with.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
#include <dlfcn.h>
#include <stddef.h>

/// Makes the calling thread's OpenMP parallel regions run on that thread alone; returns 0 when
/// the process has no OpenMP runtime.
///
/// Debian's libtesseract is built with OpenMP (libgomp) and asks for four threads in its
/// neural network's loops; their spin-waiting cost four times the CPU of a single thread on
/// this project's two cores (docs/Scan.md). OMP_THREAD_LIMIT would stop it but is read only
/// when libgomp loads, before any of our code runs; these settings are per thread, so every
/// thread that recognises calls this first. Looked up at run time so that building needs no
/// libgomp development link (Debian keeps it in gcc's private folder).
static inline int ctess_run_openmp_inline(void) {
    // Looked up on every call (microseconds) rather than cached in a static that several
    // threads would race on.
    void *process = dlopen(NULL, RTLD_NOW);
    if (process == NULL) {
        return 0;
    }
    void (*set_threads)(int) = (void (*)(int))dlsym(process, "omp_set_num_threads");
    void (*set_dynamic)(int) = (void (*)(int))dlsym(process, "omp_set_dynamic");
    dlclose(process);
    if (set_threads == NULL || set_dynamic == NULL) {
        return 0;
    }
    // The loops name their thread count, which overrides omp_set_num_threads alone; with
    // dynamic adjustment on, libgomp caps it at the thread's nthreads-var, here 1.
    set_threads(1);
    set_dynamic(1);
    return 1;
}

#endif
