#include <libheif/heif.h>

#include "CCodecLoader.h"
#include "loader.h"

// libheif has kept the soname libheif.so.1 through 1.x; then the -dev package's link.
static const char *const names[] = {"libheif.so.1", "libheif.so", NULL};

// Every libheif function Osprey calls: return type, name, parameters, arguments.
#define OSP_HEIF_FUNCTIONS(F, V)                                                                          \
    F(struct heif_context *, heif_context_alloc, (void), ())                                             \
    V(heif_context_free, (struct heif_context * c), (c))                                                 \
    F(struct heif_error, heif_context_get_primary_image_handle, (struct heif_context * c, struct heif_image_handle **h), (c, h)) \
    F(struct heif_error, heif_context_read_from_memory_without_copy,                                     \
      (struct heif_context * c, const void *m, size_t n, const struct heif_reading_options *o), (c, m, n, o)) \
    V(heif_context_set_maximum_image_size_limit, (struct heif_context * c, int w), (c, w))               \
    F(struct heif_error, heif_decode_image,                                                              \
      (const struct heif_image_handle *h, struct heif_image **i, enum heif_colorspace s, enum heif_chroma c, \
       const struct heif_decoding_options *o), (h, i, s, c, o))                                          \
    F(struct heif_decoding_options *, heif_decoding_options_alloc, (void), ())                           \
    V(heif_decoding_options_free, (struct heif_decoding_options * o), (o))                               \
    F(int, heif_image_get_height, (const struct heif_image *i, enum heif_channel c), (i, c))             \
    F(const uint8_t *, heif_image_get_plane_readonly, (const struct heif_image *i, enum heif_channel c, int *s), (i, c, s)) \
    F(int, heif_image_get_width, (const struct heif_image *i, enum heif_channel c), (i, c))              \
    F(int, heif_image_get_bits_per_pixel_range, (const struct heif_image *i, enum heif_channel c), (i, c)) \
    F(enum heif_color_profile_type, heif_image_handle_get_color_profile_type, (const struct heif_image_handle *h), (h)) \
    F(int, heif_image_handle_get_height, (const struct heif_image_handle *h), (h))                       \
    F(int, heif_image_handle_get_luma_bits_per_pixel, (const struct heif_image_handle *h), (h))          \
    F(struct heif_error, heif_image_handle_get_nclx_color_profile,                                       \
      (const struct heif_image_handle *h, struct heif_color_profile_nclx **p), (h, p))                   \
    F(struct heif_error, heif_image_handle_get_raw_color_profile, (const struct heif_image_handle *h, void *d), (h, d)) \
    F(size_t, heif_image_handle_get_raw_color_profile_size, (const struct heif_image_handle *h), (h))    \
    F(int, heif_image_handle_get_width, (const struct heif_image_handle *h), (h))                        \
    F(int, heif_image_handle_has_alpha_channel, (const struct heif_image_handle *h), (h))                \
    V(heif_image_handle_release, (const struct heif_image_handle *h), (h))                               \
    V(heif_image_release, (const struct heif_image *i), (i))                                             \
    V(heif_nclx_color_profile_free, (struct heif_color_profile_nclx * p), (p))                           \
    F(struct heif_color_profile_nclx *, heif_nclx_color_profile_alloc, (void), ())                       \
    F(struct heif_error, heif_image_set_nclx_color_profile,                                              \
      (struct heif_image * i, const struct heif_color_profile_nclx *p), (i, p))                          \
    F(struct heif_encoding_options *, heif_encoding_options_alloc, (void), ())                           \
    V(heif_encoding_options_free, (struct heif_encoding_options * o), (o))                               \
    F(struct heif_error, heif_context_get_encoder_for_format,                                            \
      (struct heif_context * c, enum heif_compression_format f, struct heif_encoder **e), (c, f, e))     \
    F(struct heif_error, heif_encoder_set_lossy_quality, (struct heif_encoder * e, int q), (e, q))       \
    V(heif_encoder_release, (struct heif_encoder * e), (e))                                              \
    F(struct heif_error, heif_image_create,                                                              \
      (int w, int h, enum heif_colorspace s, enum heif_chroma c, struct heif_image **i), (w, h, s, c, i)) \
    F(struct heif_error, heif_image_add_plane, (struct heif_image * i, enum heif_channel c, int w, int h, int d), (i, c, w, h, d)) \
    F(uint8_t *, heif_image_get_plane, (struct heif_image * i, enum heif_channel c, int *s), (i, c, s))  \
    F(struct heif_error, heif_image_set_raw_color_profile,                                               \
      (struct heif_image * i, const char *t, const void *d, const size_t n), (i, t, d, n))               \
    F(struct heif_error, heif_context_encode_image,                                                      \
      (struct heif_context * c, const struct heif_image *i, struct heif_encoder *e,                      \
       const struct heif_encoding_options *o, struct heif_image_handle **h), (c, i, e, o, h))            \
    F(struct heif_error, heif_context_add_exif_metadata,                                                 \
      (struct heif_context * c, const struct heif_image_handle *h, const void *d, int n), (c, h, d, n))  \
    F(struct heif_error, heif_context_add_XMP_metadata,                                                  \
      (struct heif_context * c, const struct heif_image_handle *h, const void *d, int n), (c, h, d, n))  \
    F(struct heif_error, heif_context_write, (struct heif_context * c, struct heif_writer *w, void *u), (c, w, u))

OSP_DEFINE_LIBRARY(heif, OSP_HEIF_FUNCTIONS)
