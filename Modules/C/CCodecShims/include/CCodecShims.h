// Small C wrappers that keep libjpeg's and libpng's setjmp/longjmp error handling on the C
// side. Both libraries report fatal errors by calling a handler that must not return; the
// only safe way out is longjmp back to a setjmp in C. Swift cannot call setjmp (a jump
// across Swift frames skips their cleanup and is undefined), so every call that may fail
// goes through one of these functions, which set the jump point, call the library, and
// turn a failure into a return code plus a message.
#ifndef OSPREY_CCODECSHIMS_H
#define OSPREY_CCODECSHIMS_H

#include <stddef.h>
#include <stdint.h>

// MARK: - JPEG decoding

typedef struct osp_jpeg_decoder osp_jpeg_decoder;

typedef struct {
    uint32_t width;
    uint32_t height;
    int components;        // in the file: 1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK
    int color_space;       // J_COLOR_SPACE of the file
    int is_cmyk;           // 1 when the output will be CMYK (CMYK or YCCK input)
    int adobe_inverted;    // 1 when an Adobe marker says CMYK values are stored inverted
    int progressive;
    int precision;         // bits per sample
    size_t coefficient_bytes;  // the whole image's DCT coefficients, held while a progressive file decodes (else 0)
} osp_jpeg_header;

/// Opens a decoder on bytes in memory; the bytes must outlive the decoder.
osp_jpeg_decoder *osp_jpeg_open_memory(const uint8_t *data, size_t size);
/// Opens a decoder on a file, read incrementally. NULL when the file cannot be opened (errno set).
osp_jpeg_decoder *osp_jpeg_open_file(const char *path);
/// Reads the header and the APP1 (EXIF) marker. 0 on success, -1 on error.
int osp_jpeg_read_header(osp_jpeg_decoder *decoder, osp_jpeg_header *header);
/// Starts decompression at 1/scale_denom (1, 2, 4 or 8). Output is gray (1), RGB (3) or
/// CMYK (4) samples. 0 on success, -1 on error.
int osp_jpeg_start(osp_jpeg_decoder *decoder, unsigned scale_denom,
                   uint32_t *out_width, uint32_t *out_height, int *out_components);
/// As osp_jpeg_start at 1/8, for a progressive file only: rows come from the first scans that
/// give every component its DC coefficients, the rest of the file unread (a preview, close to
/// the full 1/8 decode). 1 when the file is not progressive (nothing started), 0, or -1.
int osp_jpeg_start_first_scans(osp_jpeg_decoder *decoder,
                               uint32_t *out_width, uint32_t *out_height, int *out_components);
/// Reads up to max_rows scanlines into buffer (rows stride bytes apart). Returns the number
/// read, or -1 on error. A file that ends early is an error, not a grey image.
int osp_jpeg_read_rows(osp_jpeg_decoder *decoder, uint8_t *buffer, size_t stride, int max_rows);
/// With accept != 0, a file that ends early decodes with its missing rows grey (libjpeg's
/// own behaviour) instead of failing.
void osp_jpeg_accept_truncation(osp_jpeg_decoder *decoder, int accept);
/// The EXIF payload of the first APP1 "Exif" marker, or NULL.
const uint8_t *osp_jpeg_exif(osp_jpeg_decoder *decoder, size_t *length);
/// The ICC profile from the APP2 "ICC_PROFILE" markers, reassembled in their order, or NULL
/// (none, or markers missing or inconsistent). Free with osp_free.
uint8_t *osp_jpeg_icc(osp_jpeg_decoder *decoder, size_t *length);
/// The last error's message.
const char *osp_jpeg_error_message(const osp_jpeg_decoder *decoder);
void osp_jpeg_close(osp_jpeg_decoder *decoder);

// MARK: - PNG decoding

typedef struct osp_png_decoder osp_png_decoder;

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
    int channels;          // of the output rows after the transforms: 1, 3 or 4
    int has_alpha;         // the output carries alpha (an alpha channel or tRNS)
    int keeps_16;          // set before osp_png_prepare: 16-bit samples kept (native byte order)
    int bytes_per_sample;  // of the output rows: 1, or 2 when 16-bit samples are kept
} osp_png_info;

osp_png_decoder *osp_png_open_memory(const uint8_t *data, size_t size);
osp_png_decoder *osp_png_open_file(const char *path);
/// Reads the chunks before the image data: size, depth, colour type, interlacing, alpha.
/// Allocates nothing that depends on the image's size, so limits can be checked after it.
int osp_png_read_info(osp_png_decoder *decoder, osp_png_info *info);
/// Sets the transforms to 8-bit gray, RGB or RGBA (palette and tRNS expanded, 16-bit
/// scaled with rounding unless `keeps_16`, no gamma correction) and fills `channels` and
/// `bytes_per_sample`. libpng allocates its
/// row buffers here: call it only once the size is known to be within limits.
int osp_png_prepare(osp_png_decoder *decoder, osp_png_info *info);
/// Reads the next `rows` rows of a non-interlaced image. 0 on success, -1 on error.
int osp_png_read_rows(osp_png_decoder *decoder, uint8_t *buffer, size_t stride, uint32_t rows);
/// Reads a whole interlaced image (every pass) into buffer. 0 on success, -1 on error.
int osp_png_read_image(osp_png_decoder *decoder, uint8_t *buffer, size_t stride);
/// Reads the chunks after the image data, checking their order and CRCs. 0 or -1.
int osp_png_read_end(osp_png_decoder *decoder);
/// The eXIf chunk's payload, or NULL (valid after read_info).
const uint8_t *osp_png_exif(osp_png_decoder *decoder, size_t *length);
/// The iCCP chunk's profile, decompressed, or NULL (valid after read_info; owned by the decoder).
const uint8_t *osp_png_icc(osp_png_decoder *decoder, size_t *length);
/// Decodes a whole PNG stream (one APNG frame made into a PNG of its own) to 8-bit RGBA
/// into rgba (width × height × 4 bytes, the size its IHDR declares). CRCs are not checked:
/// the frame's chunks were rebuilt from fdAT. 0 on success, -1 (message in error).
int osp_png_decode_rgba(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                        char *error, size_t error_capacity);
/// Draws a straight-alpha RGBA frame at (x, y) on a canvas: replacing the region
/// (blend_over 0, APNG's BLEND_OP_SOURCE) or compositing over it (blend_over 1).
void osp_rgba_blend(uint8_t *canvas, uint32_t canvas_width, const uint8_t *frame, uint32_t width, uint32_t height,
                    uint32_t x, uint32_t y, int blend_over);

// MARK: - GIF decoding (giflib)

typedef struct osp_gif_decoder osp_gif_decoder;

typedef struct {
    uint32_t width;         // the logical screen: every frame is drawn on a canvas this size
    uint32_t height;
    int frame_count;        // drawable frames in the file
    int loop_count;         // NETSCAPE2.0 repeat count, or -1 when the extension is absent
    int first_delay;        // centiseconds
    int has_transparency;   // some frame has a transparent index
    uint32_t widest_frame_width;   // the frame whose descriptor covers the most pixels
    uint32_t widest_frame_height;
    uint64_t frame_pixels;  // every drawable frame's descriptor area, added up
} osp_gif_info;

/// Opens giflib on bytes in memory (they must outlive the decoder). Never NULL unless out
/// of memory; when the header is unreadable the scan and frame calls fail with its message.
osp_gif_decoder *osp_gif_open_memory(const uint8_t *data, size_t size);
/// Walks the blocks without decompressing any frame: counts drawable frames (a cut one is
/// the last; stops past max_frames), measures each frame's descriptor, reads the loop count.
/// Allocates only colour tables. 0 on success, -1 when no frame is drawable.
int osp_gif_scan(osp_gif_decoder *decoder, osp_gif_info *info, int max_frames);
/// Draws the next frame on canvas (width × height × 4 bytes of straight RGBA, cleared to
/// transparent by the caller before the first frame), after the previous frame's disposal.
/// Rows below the canvas are not decompressed. `cancelled` is asked every 64 rows; when it
/// answers non-zero the frame is abandoned. Returns 1 with a frame (one whose data ends early
/// keeps the rows that arrived and is the last), 0 at the end (or a damaged tail), -1 on
/// error, -2 when the frame's data holds a code that cannot be there, -3 when cancelled.
int osp_gif_next_frame(osp_gif_decoder *decoder, uint8_t *canvas, int *delay_centiseconds, int (*cancelled)(void));
const char *osp_gif_error_message(const osp_gif_decoder *decoder);
void osp_gif_close(osp_gif_decoder *decoder);
const char *osp_png_error_message(const osp_png_decoder *decoder);
void osp_png_close(osp_png_decoder *decoder);

// MARK: - Encoding

/// Encodes 8-bit samples (1 gray, 3 RGB, or 4 RGBA whose alpha is ignored) as JPEG at
/// quality 1...100, progressive when progressive is non-zero. On success *out is malloc'ed
/// (free with osp_free). 0 or -1 (message in error). With icc non-NULL, the profile is
/// written in APP2 markers.
int osp_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                    int components, int quality, int progressive, const uint8_t *icc, size_t icc_length,
                    uint8_t **out, size_t *out_length, char *error, size_t error_capacity);
/// Encodes 8-bit samples (1 gray, 3 RGB, 4 RGBA) as PNG, with an iCCP chunk when icc is
/// non-NULL. Same conventions as osp_jpeg_encode.
int osp_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                   int components, int bit_depth, int compression_level, const uint8_t *icc, size_t icc_length,
                   uint8_t **out, size_t *out_length, char *error, size_t error_capacity);
/// Encodes `frame_count` RGBA frames (straight alpha, `width` × `height`, rows packed) as a GIF:
/// each quantised to at most 255 colours by libimagequant with `dither` (0…1) at `speed` (1…10),
/// a palette shared while it fits, pixels that do not change left transparent, and each
/// frame cropped to what changed (cgif). `delays` in centiseconds (NULL for none); `loop_count`
/// plays (0 forever). Same conventions as osp_jpeg_encode.
int osp_gif_encode(const uint8_t *const *frames, size_t frame_count, uint32_t width, uint32_t height,
                   const uint16_t *delays, int loop_count, double dither, int speed,
                   uint8_t **out, size_t *out_length, char *error, size_t error_capacity);
/// 1 when libtiff is loaded (opened on the first TIFF), 0 when it cannot be; why in
/// osp_tiff_load_error(). osp_tiff_open and osp_tiff_encode check it and fail with the reason.
int osp_tiff_available(void);
const char *osp_tiff_load_error(void);
/// A TIFF file read from memory (`data` must outlive it), with libtiff's messages kept per handle.
typedef struct osp_tiff osp_tiff;
typedef struct {
    uint32_t width, height;
    uint16_t orientation;   // TIFF's Orientation tag, EXIF's values
    uint16_t bits;          // bits per sample
    int has_alpha;
    int is_cmyk;            // 8-bit CMYK, interleaved: read with osp_tiff_read_samples (4 bytes a pixel)
    int deep_samples;       // 16-bit unsigned gray, gray + straight alpha, RGB or RGBA, interleaved:
                            // its samples a pixel (1…4), read with osp_tiff_read_samples; else 0
    const void *icc;        // the ICC profile, owned by the handle; NULL for none
    uint32_t icc_length;
    uint64_t chunk_bytes;   // the buffer one decoded strip or tile takes, within the page's bound
} osp_tiff_info;
osp_tiff *osp_tiff_open(const uint8_t *data, size_t size, char *error, size_t error_capacity);
/// The number of pages (image file directories).
int osp_tiff_page_count(osp_tiff *tiff);
/// The header of `page`; -1 with `error` set when libtiff cannot read it as RGBA, or when a
/// strip or tile would take more than the page's own samples and 8 MiB (a size bomb).
int osp_tiff_read_info(osp_tiff *tiff, int page, osp_tiff_info *info, char *error, size_t error_capacity);
/// `page`'s pixels, rows as stored, as 8-bit premultiplied RGBA into `rgba` (4 × width × height).
int osp_tiff_read_rgba(osp_tiff *tiff, int page, uint8_t *rgba, char *error, size_t error_capacity);
/// `page`'s interleaved samples as stored (`pixel_bytes` a pixel, rows packed, 16-bit ones in
/// native byte order) into `out` (pixel_bytes × width × height), strips or tiles.
int osp_tiff_read_samples(osp_tiff *tiff, int page, uint8_t *out, int pixel_bytes, char *error, size_t error_capacity);
void osp_tiff_close(osp_tiff *tiff);
/// Encodes 8- or 16-bit samples (`bits`; 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA, rows packed,
/// 16-bit ones native-endian) as a Deflate TIFF. Same conventions as osp_jpeg_encode.
int osp_tiff_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int components, int bits,
                    uint8_t **out, size_t *out_length, char *error, size_t error_capacity);
void osp_free(void *pointer);
/// The palette of `rgba` (`width` × `height`, rows packed) by libimagequant: at most
/// `max_colors` (2…256) colours into `colors` (4 bytes each) and the pixels each stands for
/// into `counts`. Returns how many colours, or -1.
int osp_palette(const uint8_t *rgba, uint32_t width, uint32_t height, int max_colors, uint8_t *colors, uint32_t *counts);

// BMP rows: blue and red trade places (3 or 4 bytes a pixel, `out` may be `source`), BGRX to
// RGB, and 8-bit indices through a palette of RGB entries (256 of them).
void osp_bmp_swap3(const uint8_t *source, uint8_t *out, size_t count);
void osp_bmp_swap4(const uint8_t *source, uint8_t *out, size_t count);
void osp_bmp_bgrx_to_rgb(const uint8_t *source, uint8_t *out, size_t count);
void osp_bmp_palette8(const uint8_t *indices, const uint8_t *palette, uint8_t *out, size_t count);

#endif
