#include <avif/avif.h>

#include "CCodecLoader.h"
#include "loader.h"

// The names of the library the headers describe: the runtime package's, then the -dev
// package's link, which always matches the installed headers.
#if AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
#define OSP_AVIF_SONAME "libavif.so.15"
#elif AVIF_VERSION_MAJOR == 1
#define OSP_AVIF_SONAME "libavif.so.16"
#else
#define OSP_AVIF_SONAME "libavif.so"
#endif
static const char *const names[] = {OSP_AVIF_SONAME, "libavif.so", NULL};

// Every libavif function Osprey calls: return type, name, parameters, arguments.
#define OSP_AVIF_FUNCTIONS(F, V)                                                                          \
    F(avifBool, avifCropRectConvertCleanApertureBox,                                                     \
      (avifCropRect * r, const avifCleanApertureBox *c, uint32_t w, uint32_t h, avifPixelFormat f, avifDiagnostics *d), \
      (r, c, w, h, f, d))                                                                                \
    F(avifDecoder *, avifDecoderCreate, (void), ())                                                      \
    V(avifDecoderDestroy, (avifDecoder * d), (d))                                                        \
    F(avifResult, avifDecoderNextImage, (avifDecoder * d), (d))                                          \
    F(avifResult, avifDecoderParse, (avifDecoder * d), (d))                                              \
    F(avifResult, avifDecoderSetIOMemory, (avifDecoder * d, const uint8_t *p, size_t n), (d, p, n))      \
    F(avifEncoder *, avifEncoderCreate, (void), ())                                                      \
    V(avifEncoderDestroy, (avifEncoder * e), (e))                                                        \
    F(avifResult, avifEncoderAddImage, (avifEncoder * e, const avifImage *i, uint64_t d, avifAddImageFlags f), (e, i, d, f)) \
    F(avifResult, avifEncoderFinish, (avifEncoder * e, avifRWData *o), (e, o))                           \
    F(avifResult, avifEncoderWrite, (avifEncoder * e, const avifImage *i, avifRWData *o), (e, i, o))     \
    F(avifImage *, avifImageCreate, (uint32_t w, uint32_t h, uint32_t d, avifPixelFormat f), (w, h, d, f)) \
    V(avifImageDestroy, (avifImage * i), (i))                                                            \
    F(avifResult, avifImageRGBToYUV, (avifImage * i, const avifRGBImage *r), (i, r))                     \
    V(avifImageSetProfileICC, (avifImage * i, const uint8_t *p, size_t n), (i, p, n))                    \
    V(avifImageSetMetadataExif, (avifImage * i, const uint8_t *p, size_t n), (i, p, n))                  \
    V(avifImageSetMetadataXMP, (avifImage * i, const uint8_t *p, size_t n), (i, p, n))                   \
    F(avifResult, avifImageSetViewRect, (avifImage * d, const avifImage *s, const avifCropRect *r), (d, s, r)) \
    F(avifResult, avifImageYUVToRGB, (const avifImage *i, avifRGBImage *r), (i, r))                      \
    V(avifRGBImageSetDefaults, (avifRGBImage * r, const avifImage *i), (r, i))                           \
    V(avifRWDataFree, (avifRWData * d), (d))                                                             \
    F(const char *, avifResultToString, (avifResult r), (r))

OSP_DEFINE_LIBRARY(avif, OSP_AVIF_FUNCTIONS)
