// libavif, libheif and libjxl, with their codecs and thread pools, are about 25 shared libraries: linked
// normally they load into every process that links Osprey, whether it meets an AVIF or not.
// This target defines the functions Osprey calls from them as forwarders that load the
// library with dlopen the first time one is asked for, as libvips loads its HEIF module.
#ifndef OSPREY_CCODECLOADER_H
#define OSPREY_CCODECLOADER_H

/// 1 when libavif is loaded (loading it on the first call), 0 when it cannot be.
int osp_avif_available(void);
/// 1 when libheif is loaded (loading it on the first call), 0 when it cannot be.
int osp_heif_available(void);
/// 1 when libjxl is loaded (loading it on the first call), 0 when it cannot be.
int osp_jxl_available(void);
/// 1 when libjxl's thread pool (libjxl_threads) is loaded, 0 when it cannot be.
int osp_jxl_threads_available(void);
/// Why the library could not be loaded (dlerror's message), or NULL when it was.
const char *osp_avif_load_error(void);
const char *osp_heif_load_error(void);
const char *osp_jxl_load_error(void);
const char *osp_jxl_threads_load_error(void);

#include <stddef.h>
#include <stdint.h>

/// Encodes RGB or RGBA (`channels` 3 or 4, rows `stride` bytes apart) of `bits` 8, or 16 (native
/// samples, written in 10 bits) as HEIC with libheif's HEVC encoder at `quality` 0…100, with an
/// ICC profile, H.273 code points (`transfer` 0 for none), EXIF (a TIFF structure) and XMP when
/// given (NULL or size 0 for none). 0 with a
/// buffer for free() in `*out`; -1 with `error` set (libheif missing, no HEVC encoder, a failed encode).
int osp_heif_encode(const uint8_t *pixels, int width, int height, size_t stride, int channels, int bits, int quality,
                    const uint8_t *icc, size_t icc_size, int primaries, int transfer, const uint8_t *exif, size_t exif_size,
                    const uint8_t *xmp, size_t xmp_size, uint8_t **out, size_t *out_size, char *error, size_t error_capacity);

/// librsvg (with cairo and GLib) for SVG sources, opened on first use as the others.
int osp_svg_available(void);
const char *osp_svg_load_error(void);
/// A parsed SVG document (librsvg's handle).
typedef struct osp_svg osp_svg;
/// Parses `data` with no base location, so no external resource is ever loaded, and gives its
/// size in pixels at 72 DPI (its viewBox's when it has no absolute width and height). NULL
/// with `error` set when librsvg cannot be loaded or cannot parse it.
osp_svg *osp_svg_open(const uint8_t *data, size_t size, double *width, double *height, char *error, size_t error_capacity);
/// Draws the document scaled to `width` × `height` into `rgba` (premultiplied, 4 × width ×
/// height bytes, the caller's). 0 on success, -1 with `error` set.
int osp_svg_render(osp_svg *svg, uint32_t width, uint32_t height, uint8_t *rgba, char *error, size_t error_capacity);
void osp_svg_close(osp_svg *svg);

#endif
