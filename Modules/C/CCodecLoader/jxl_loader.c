#include <jxl/decode.h>
#include <jxl/encode.h>

#include "CCodecLoader.h"
#include "loader.h"

// libjxl's soname follows its minor version before 1.0 (libjxl.so.0.7, .0.8 …); then the
// -dev package's link, which always matches the installed headers.
#include <jxl/version.h>
#define OSP_STR(x) #x
#define OSP_SONAME(major, minor) "libjxl.so." OSP_STR(major) "." OSP_STR(minor)
static const char *const names[] = {OSP_SONAME(JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION), "libjxl.so", NULL};

// Every libjxl function Osprey calls: return type, name, parameters, arguments.
#define OSP_JXL_FUNCTIONS(F, V)                                                                           \
    F(JxlDecoder *, JxlDecoderCreate, (const JxlMemoryManager *m), (m))                                  \
    V(JxlDecoderDestroy, (JxlDecoder * d), (d))                                                          \
    F(JxlDecoderStatus, JxlDecoderSubscribeEvents, (JxlDecoder * d, int e), (d, e))                      \
    F(JxlDecoderStatus, JxlDecoderSetParallelRunner, (JxlDecoder * d, JxlParallelRunner r, void *o), (d, r, o)) \
    F(JxlDecoderStatus, JxlDecoderSetUnpremultiplyAlpha, (JxlDecoder * d, JXL_BOOL u), (d, u))           \
    F(JxlDecoderStatus, JxlDecoderSetInput, (JxlDecoder * d, const uint8_t *p, size_t n), (d, p, n))     \
    V(JxlDecoderCloseInput, (JxlDecoder * d), (d))                                                       \
    F(JxlDecoderStatus, JxlDecoderProcessInput, (JxlDecoder * d), (d))                                   \
    F(JxlDecoderStatus, JxlDecoderGetBasicInfo, (const JxlDecoder *d, JxlBasicInfo *i), (d, i))          \
    F(JxlDecoderStatus, JxlDecoderGetColorAsEncodedProfile,                                              \
      (const JxlDecoder *d, const JxlPixelFormat *f, JxlColorProfileTarget t, JxlColorEncoding *c), (d, f, t, c)) \
    F(JxlDecoderStatus, JxlDecoderGetICCProfileSize,                                                     \
      (const JxlDecoder *d, const JxlPixelFormat *f, JxlColorProfileTarget t, size_t *n), (d, f, t, n))  \
    F(JxlDecoderStatus, JxlDecoderGetColorAsICCProfile,                                                  \
      (const JxlDecoder *d, const JxlPixelFormat *f, JxlColorProfileTarget t, uint8_t *p, size_t n), (d, f, t, p, n)) \
    F(JxlDecoderStatus, JxlDecoderSetPreferredColorProfile, (JxlDecoder * d, const JxlColorEncoding *c), (d, c)) \
    F(JxlDecoderStatus, JxlDecoderGetFrameHeader, (const JxlDecoder *d, JxlFrameHeader *h), (d, h))      \
    F(JxlDecoderStatus, JxlDecoderImageOutBufferSize, (const JxlDecoder *d, const JxlPixelFormat *f, size_t *n), (d, f, n)) \
    F(JxlDecoderStatus, JxlDecoderSetImageOutBuffer, (JxlDecoder * d, const JxlPixelFormat *f, void *p, size_t n), (d, f, p, n)) \
    F(JxlEncoder *, JxlEncoderCreate, (const JxlMemoryManager *m), (m))                                  \
    V(JxlEncoderDestroy, (JxlEncoder * e), (e))                                                          \
    F(JxlEncoderStatus, JxlEncoderSetParallelRunner, (JxlEncoder * e, JxlParallelRunner r, void *o), (e, r, o)) \
    F(JxlEncoderError, JxlEncoderGetError, (JxlEncoder * e), (e))                                        \
    F(JxlEncoderStatus, JxlEncoderProcessOutput, (JxlEncoder * e, uint8_t **p, size_t *n), (e, p, n))    \
    F(JxlEncoderStatus, JxlEncoderAddJPEGFrame, (const JxlEncoderFrameSettings *s, const uint8_t *p, size_t n), (s, p, n)) \
    F(JxlEncoderStatus, JxlEncoderAddImageFrame,                                                         \
      (const JxlEncoderFrameSettings *s, const JxlPixelFormat *f, const void *p, size_t n), (s, f, p, n)) \
    V(JxlEncoderCloseInput, (JxlEncoder * e), (e))                                                       \
    F(JxlEncoderStatus, JxlEncoderSetColorEncoding, (JxlEncoder * e, const JxlColorEncoding *c), (e, c)) \
    F(JxlEncoderStatus, JxlEncoderSetICCProfile, (JxlEncoder * e, const uint8_t *p, size_t n), (e, p, n)) \
    V(JxlEncoderInitBasicInfo, (JxlBasicInfo * i), (i))                                                  \
    F(JxlEncoderStatus, JxlEncoderSetBasicInfo, (JxlEncoder * e, const JxlBasicInfo *i), (e, i))         \
    F(JxlEncoderStatus, JxlEncoderFrameSettingsSetOption,                                                \
      (JxlEncoderFrameSettings * s, JxlEncoderFrameSettingId o, int64_t v), (s, o, v))                   \
    F(JxlEncoderStatus, JxlEncoderSetFrameDistance, (JxlEncoderFrameSettings * s, float d), (s, d))      \
    F(JxlEncoderStatus, JxlEncoderSetFrameLossless, (JxlEncoderFrameSettings * s, JXL_BOOL l), (s, l))   \
    F(JxlEncoderFrameSettings *, JxlEncoderFrameSettingsCreate, (JxlEncoder * e, const JxlEncoderFrameSettings *s), (e, s)) \
    V(JxlColorEncodingSetToSRGB, (JxlColorEncoding * c, JXL_BOOL g), (c, g))                             \
    F(JxlEncoderStatus, JxlEncoderStoreJPEGMetadata, (JxlEncoder * e, JXL_BOOL s), (e, s))               \
    F(JxlEncoderStatus, JxlEncoderUseContainer, (JxlEncoder * e, JXL_BOOL u), (e, u))                    \
    V(JxlEncoderInitFrameHeader, (JxlFrameHeader * h), (h))                                              \
    F(JxlEncoderStatus, JxlEncoderSetFrameHeader, (JxlEncoderFrameSettings * s, const JxlFrameHeader *h), (s, h))

OSP_DEFINE_LIBRARY(jxl, OSP_JXL_FUNCTIONS)
