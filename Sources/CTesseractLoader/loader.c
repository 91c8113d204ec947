// Tesseract and Leptonica, loaded with dlopen at the first scan instead of linked: linking them
// made every start of `cardwallet` (even `--help`) map them and the 46 libraries they depend
// on (docs/Scan.md, "Loading Tesseract on demand").
//
// Every Tesseract and Leptonica function that CardScan calls is defined here with the
// prototype of its header and forwards to the library's function, resolved by ctess_load.

// The C library's headers first, outside the hidden region below: a hidden *declaration* of
// printf or malloc would make the compiler expect them inside this binary.
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The definitions below are hidden: they satisfy CardScan's calls at link time but are never
// exported, so they cannot interpose on the libraries' own calls among themselves. Including
// the headers makes the compiler check each definition against the library's prototype.
#pragma GCC visibility push(hidden)
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

#include "CTesseractLoader.h"

// Each function as (return type, name, parameters, arguments); CTESS_VOID for those that
// return nothing (C allows no `return f();` in a void function).
#define CTESS_FUNCTIONS(CTESS, CTESS_VOID)                                                            \
    /* Tesseract's C API */                                                                         \
    CTESS(TessBaseAPI *, TessBaseAPICreate, (void), ())                                             \
    CTESS_VOID(TessBaseAPIDelete, (TessBaseAPI * handle), (handle))                                 \
    CTESS_VOID(TessBaseAPIEnd, (TessBaseAPI * handle), (handle))                                    \
    CTESS_VOID(TessBaseAPIClear, (TessBaseAPI * handle), (handle))                                  \
    CTESS(int, TessBaseAPIInit2,                                                                    \
          (TessBaseAPI * handle, const char *datapath, const char *language, TessOcrEngineMode oem), \
          (handle, datapath, language, oem))                                                        \
    CTESS(BOOL, TessBaseAPISetVariable, (TessBaseAPI * handle, const char *name, const char *value), \
          (handle, name, value))                                                                    \
    CTESS_VOID(TessBaseAPISetPageSegMode, (TessBaseAPI * handle, TessPageSegMode mode), (handle, mode)) \
    CTESS_VOID(TessBaseAPISetImage2, (TessBaseAPI * handle, struct Pix * pix), (handle, pix))       \
    CTESS_VOID(TessBaseAPISetSourceResolution, (TessBaseAPI * handle, int ppi), (handle, ppi))      \
    CTESS(int, TessBaseAPIRecognize, (TessBaseAPI * handle, ETEXT_DESC * monitor), (handle, monitor)) \
    CTESS(TessResultIterator *, TessBaseAPIGetIterator, (TessBaseAPI * handle), (handle))           \
    CTESS_VOID(TessDeleteText, (const char *text), (text))                                          \
    CTESS(ETEXT_DESC *, TessMonitorCreate, (void), ())                                              \
    CTESS_VOID(TessMonitorDelete, (ETEXT_DESC * monitor), (monitor))                                \
    CTESS_VOID(TessMonitorSetCancelFunc, (ETEXT_DESC * monitor, TessCancelFunc cancelFunc),         \
               (monitor, cancelFunc))                                                               \
    CTESS_VOID(TessMonitorSetCancelThis, (ETEXT_DESC * monitor, void *cancelThis), (monitor, cancelThis)) \
    CTESS_VOID(TessMonitorSetDeadlineMSecs, (ETEXT_DESC * monitor, int deadline), (monitor, deadline)) \
    CTESS(BOOL, TessPageIteratorBoundingBox,                                                        \
          (const TessPageIterator *handle, TessPageIteratorLevel level, int *left, int *top,        \
           int *right, int *bottom),                                                                \
          (handle, level, left, top, right, bottom))                                                \
    CTESS(BOOL, TessPageIteratorIsAtBeginningOf,                                                    \
          (const TessPageIterator *handle, TessPageIteratorLevel level), (handle, level))           \
    CTESS(float, TessResultIteratorConfidence,                                                      \
          (const TessResultIterator *handle, TessPageIteratorLevel level), (handle, level))         \
    CTESS_VOID(TessResultIteratorDelete, (TessResultIterator * handle), (handle))                   \
    CTESS(TessPageIterator *, TessResultIteratorGetPageIterator, (TessResultIterator * handle),     \
          (handle))                                                                                 \
    CTESS(char *, TessResultIteratorGetUTF8Text,                                                    \
          (const TessResultIterator *handle, TessPageIteratorLevel level), (handle, level))         \
    CTESS(BOOL, TessResultIteratorNext, (TessResultIterator * handle, TessPageIteratorLevel level), \
          (handle, level))                                                                          \
    /* Leptonica: messages and memory */                                                            \
    CTESS(l_int32, setMsgSeverity, (l_int32 newsev), (newsev))                                      \
    CTESS_VOID(leptSetStderrHandler, (void (*handler)(const char *)), (handler))                    \
    CTESS_VOID(lept_free, (void *ptr), (ptr))                                                       \
    /* Leptonica: reading, writing and preparing images */                                          \
    CTESS(l_ok, pixReadHeaderMem,                                                                   \
          (const l_uint8 *data, size_t size, l_int32 *pformat, l_int32 *pw, l_int32 *ph,            \
           l_int32 *pbps, l_int32 *pspp, l_int32 *piscmap),                                         \
          (data, size, pformat, pw, ph, pbps, pspp, piscmap))                                       \
    CTESS(PIX *, pixReadMem, (const l_uint8 *data, size_t size), (data, size))                      \
    CTESS(l_ok, pixWriteMemJpeg,                                                                    \
          (l_uint8 * *pdata, size_t *psize, PIX *pix, l_int32 quality, l_int32 progressive),        \
          (pdata, psize, pix, quality, progressive))                                                \
    CTESS_VOID(pixDestroy, (PIX * *ppix), (ppix))                                                   \
    CTESS(l_int32, pixGetWidth, (const PIX *pix), (pix))                                            \
    CTESS(l_int32, pixGetHeight, (const PIX *pix), (pix))                                           \
    CTESS(l_int32, pixGetDepth, (const PIX *pix), (pix))                                            \
    CTESS(l_int32, pixGetSpp, (const PIX *pix), (pix))                                              \
    CTESS(PIXCMAP *, pixGetColormap, (PIX * pix), (pix))                                            \
    CTESS(PIX *, pixRemoveAlpha, (PIX * pixs), (pixs))                                              \
    CTESS(PIX *, pixConvertTo8, (PIX * pixs, l_int32 cmapflag), (pixs, cmapflag))                   \
    CTESS(PIX *, pixConvertTo32, (PIX * pixs), (pixs))                                              \
    CTESS(PIX *, pixConvertRGBToLuminance, (PIX * pixs), (pixs))                                    \
    CTESS(PIX *, pixRotateOrth, (PIX * pixs, l_int32 quads), (pixs, quads))                         \
    CTESS(PIX *, pixFlipLR, (PIX * pixd, PIX * pixs), (pixd, pixs))                                 \
    CTESS(PIX *, pixFlipTB, (PIX * pixd, PIX * pixs), (pixd, pixs))                                 \
    CTESS(PIX *, pixScaleAreaMap, (PIX * pix, l_float32 scalex, l_float32 scaley), (pix, scalex, scaley)) \
    CTESS(PIX *, pixScaleGrayLI, (PIX * pixs, l_float32 scalex, l_float32 scaley), (pixs, scalex, scaley)) \
    CTESS(PIX *, pixBackgroundNormSimple, (PIX * pixs, PIX * pixim, PIX * pixg), (pixs, pixim, pixg)) \
    CTESS(PIX *, pixFindSkewAndDeskew,                                                              \
          (PIX * pixs, l_int32 redsearch, l_float32 * pangle, l_float32 * pconf),                   \
          (pixs, redsearch, pangle, pconf))

/// The resolved functions: one pointer per function, named after it.
struct ctess_table {
#define CTESS_FIELD(type, name, parameters, arguments) __typeof__(&name) name;
#define CTESS_VOID_FIELD(name, parameters, arguments) __typeof__(&name) name;
    CTESS_FUNCTIONS(CTESS_FIELD, CTESS_VOID_FIELD)
    /// OpenMP's per-thread settings, from libgomp; NULL when the library has no OpenMP.
    void (*omp_set_num_threads)(int);
    void (*omp_set_dynamic)(int);
};

/// The process's table, written once by load_once (under pthread_once) before any reader
/// can pass ctess_load.
static struct ctess_table loaded;
static pthread_once_t load_started = PTHREAD_ONCE_INIT;
static int load_succeeded;
static char load_error[512];

/// `text` into `error`, cut to fit and always terminated.
static void ctess_copy(char *error, size_t errorSize, const char *text) {
    if (error == NULL || errorSize == 0) {
        return;
    }
    snprintf(error, errorSize, "%s", text);
}

/// Opens the first of `names` that loads (RTLD_LOCAL: its symbols stay out of the process's
/// global scope) and resolves every function into `table`. Returns the handle, or NULL with
/// the reason in `error` (the first name's dlopen error, or the function missing).
static void *ctess_open(const char *const *names, size_t count, struct ctess_table *table, char *error,
                        size_t errorSize) {
    void *handle = NULL;
    const char *opened = NULL;
    ctess_copy(error, errorSize, "no library name was given");
    for (size_t index = 0; index < count && handle == NULL; index++) {
        opened = names[index];
        handle = dlopen(opened, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL && index == 0) {
            const char *reason = dlerror();
            ctess_copy(error, errorSize, reason != NULL ? reason : "dlopen failed");
        }
    }
    if (handle == NULL) {
        return NULL;
    }
    memset(table, 0, sizeof *table);
    // dlsym on the handle searches the library and then its dependencies, Leptonica and
    // libgomp among them.
#define CTESS_RESOLVE(type, function, parameters, arguments)                          \
    table->function = (__typeof__(table->function))dlsym(handle, #function);         \
    if (table->function == NULL) {                                                   \
        snprintf(error, errorSize, "%s has no function %s", opened, #function);      \
        dlclose(handle);                                                             \
        return NULL;                                                                 \
    }
#define CTESS_VOID_RESOLVE(function, parameters, arguments) CTESS_RESOLVE(void, function, parameters, arguments)
    CTESS_FUNCTIONS(CTESS_RESOLVE, CTESS_VOID_RESOLVE)
    table->omp_set_num_threads = (void (*)(int))dlsym(handle, "omp_set_num_threads");
    table->omp_set_dynamic = (void (*)(int))dlsym(handle, "omp_set_dynamic");
    return handle;
}

static void load_once(void) {
    static const char *const names[] = {"libtesseract.so.5", "libtesseract.so"};
    struct ctess_table table;
    // The handle stays open for the rest of the process: the functions are used until exit.
    if (ctess_open(names, sizeof names / sizeof names[0], &table, load_error, sizeof load_error) != NULL) {
        loaded = table;
        load_succeeded = 1;
    }
}

int ctess_load(char *error, size_t errorSize) {
    pthread_once(&load_started, load_once);
    if (load_succeeded) {
        return 1;
    }
    ctess_copy(error, errorSize, load_error);
    return 0;
}

int ctess_try_load(const char *const *names, size_t count, char *error, size_t errorSize) {
    struct ctess_table table;
    void *handle = ctess_open(names, count, &table, error, errorSize);
    if (handle == NULL) {
        return 0;
    }
    dlclose(handle);
    return 1;
}

int ctess_run_openmp_inline(void) {
    if (!load_succeeded || loaded.omp_set_num_threads == NULL || loaded.omp_set_dynamic == NULL) {
        return 0;
    }
    // The loops name their thread count, which overrides omp_set_num_threads alone; with
    // dynamic adjustment on, libgomp caps it at the thread's nthreads-var, here 1.
    loaded.omp_set_num_threads(1);
    loaded.omp_set_dynamic(1);
    return 1;
}

/// A function called before ctess_load succeeded: a programming error (every CardScan entry
/// point loads first), reported rather than a jump through a null pointer.
__attribute__((noreturn)) static void ctess_not_loaded(const char *function) {
    fprintf(stderr, "cardwallet: %s was called before Tesseract was loaded (ctess_load); this is a bug.\n",
            function);
    abort();
}

#define CTESS_DEFINE(type, name, parameters, arguments) \
    type name parameters {                              \
        if (loaded.name == NULL) {                      \
            ctess_not_loaded(#name);                    \
        }                                               \
        return loaded.name arguments;                   \
    }
#define CTESS_VOID_DEFINE(name, parameters, arguments) \
    void name parameters {                             \
        if (loaded.name == NULL) {                     \
            ctess_not_loaded(#name);                   \
        }                                              \
        loaded.name arguments;                         \
    }
CTESS_FUNCTIONS(CTESS_DEFINE, CTESS_VOID_DEFINE)

#pragma GCC visibility pop
