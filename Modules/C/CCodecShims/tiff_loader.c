#include <stdarg.h>
#include <tiffio.h>

#include "CCodecShims.h"
#include "../CCodecLoader/loader.h"

// libtiff and what it brings (Lerc with the C++ runtime, JBIG, zstd, LZMA, libdeflate) are
// opened on the first TIFF, so a process that meets none does not map them at start. libtiff.so.6
// is 4.5's, the first with the TIFFOpenOptions functions called here; then the -dev package's link.
static const char *const names[] = {"libtiff.so.6", "libtiff.so", NULL};

// Every libtiff function Osprey calls: return type, name, parameters, arguments. The three
// variadic ones are defined below through libtiff's va_list forms.
#define OSP_TIFF_FUNCTIONS(F, V)                                                                          \
    F(TIFF *, TIFFClientOpenExt,                                                                          \
      (const char *n, const char *m, thandle_t h, TIFFReadWriteProc r, TIFFReadWriteProc w, TIFFSeekProc s, \
       TIFFCloseProc c, TIFFSizeProc z, TIFFMapFileProc p, TIFFUnmapFileProc u, TIFFOpenOptions *o),      \
      (n, m, h, r, w, s, c, z, p, u, o))                                                                  \
    V(TIFFClose, (TIFF * t), (t))                                                                         \
    F(uint32_t, TIFFDefaultStripSize, (TIFF * t, uint32_t r), (t, r))                                     \
    F(TIFF *, TIFFFdOpen, (int f, const char *n, const char *m), (f, n, m))                               \
    F(int, TIFFIsTiled, (TIFF * t), (t))                                                                  \
    F(tdir_t, TIFFNumberOfDirectories, (TIFF * t), (t))                                                   \
    F(TIFFOpenOptions *, TIFFOpenOptionsAlloc, (void), ())                                                \
    V(TIFFOpenOptionsFree, (TIFFOpenOptions * o), (o))                                                    \
    V(TIFFOpenOptionsSetErrorHandlerExtR, (TIFFOpenOptions * o, TIFFErrorHandlerExtR h, void *d), (o, h, d)) \
    V(TIFFOpenOptionsSetMaxSingleMemAlloc, (TIFFOpenOptions * o, tmsize_t m), (o, m))                     \
    V(TIFFOpenOptionsSetWarningHandlerExtR, (TIFFOpenOptions * o, TIFFErrorHandlerExtR h, void *d), (o, h, d)) \
    F(int, TIFFRGBAImageBegin, (TIFFRGBAImage * i, TIFF *t, int s, char e[1024]), (i, t, s, e))           \
    V(TIFFRGBAImageEnd, (TIFFRGBAImage * i), (i))                                                         \
    F(int, TIFFRGBAImageGet, (TIFFRGBAImage * i, uint32_t *r, uint32_t w, uint32_t h), (i, r, w, h))      \
    F(int, TIFFRGBAImageOK, (TIFF * t, char e[1024]), (t, e))                                             \
    F(int, TIFFReadScanline, (TIFF * t, void *b, uint32_t r, uint16_t s), (t, b, r, s))                   \
    F(tmsize_t, TIFFReadTile, (TIFF * t, void *b, uint32_t x, uint32_t y, uint32_t z, uint16_t s), (t, b, x, y, z, s)) \
    F(tmsize_t, TIFFScanlineSize, (TIFF * t), (t))                                                        \
    F(uint64_t, TIFFScanlineSize64, (TIFF * t), (t))                                                      \
    F(int, TIFFSetDirectory, (TIFF * t, tdir_t d), (t, d))                                                \
    F(uint64_t, TIFFStripSize64, (TIFF * t), (t))                                                         \
    F(tmsize_t, TIFFTileSize, (TIFF * t), (t))                                                            \
    F(uint64_t, TIFFTileSize64, (TIFF * t), (t))                                                          \
    F(int, TIFFWriteScanline, (TIFF * t, void *b, uint32_t r, uint16_t s), (t, b, r, s))                  \
    F(int, TIFFVGetField, (TIFF * t, uint32_t g, va_list a), (t, g, a))                                   \
    F(int, TIFFVGetFieldDefaulted, (TIFF * t, uint32_t g, va_list a), (t, g, a))                          \
    F(int, TIFFVSetField, (TIFF * t, uint32_t g, va_list a), (t, g, a))

OSP_DEFINE_LIBRARY(tiff, OSP_TIFF_FUNCTIONS)

// Each variadic function hands its arguments on to its va_list form.
#define OSP_TIFF_VARIADIC(name, va_name)                 \
    int name(TIFF *tiff, uint32_t tag, ...) {            \
        va_list arguments;                               \
        va_start(arguments, tag);                        \
        int result = va_name(tiff, tag, arguments);      \
        va_end(arguments);                               \
        return result;                                   \
    }

OSP_TIFF_VARIADIC(TIFFGetField, TIFFVGetField)
OSP_TIFF_VARIADIC(TIFFGetFieldDefaulted, TIFFVGetFieldDefaulted)
OSP_TIFF_VARIADIC(TIFFSetField, TIFFVSetField)
