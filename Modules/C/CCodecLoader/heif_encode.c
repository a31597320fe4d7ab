// HEIC out through libheif's HEVC encoder (x265 in Debian's libheif), called through the
// forwarders heif_loader.c defines, so libheif is opened only when a HEIC is written.
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CCodecLoader.h"

typedef struct {
    uint8_t *bytes;
    size_t size;
    int failed;
} buffer;

static struct heif_error append(struct heif_context *context, const void *data, size_t size, void *userdata) {
    (void)context;
    buffer *out = userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    uint8_t *grown = realloc(out->bytes, out->size + size);
    if (!grown) {
        out->failed = 1;
        struct heif_error failed = {heif_error_Encoding_error, heif_suberror_Cannot_write_output_data, "out of memory"};
        return failed;
    }
    memcpy(grown + out->size, data, size);
    out->bytes = grown;
    out->size += size;
    return ok;
}

static int fail(struct heif_error status, const char *what, char *error, size_t capacity) {
    snprintf(error, capacity, "%s: %s", what, status.message ? status.message : "unknown error");
    return -1;
}

int osp_heif_encode(const uint8_t *pixels, int width, int height, size_t stride, int channels, int bits, int quality,
                    const uint8_t *icc, size_t icc_size, int primaries, int transfer, const uint8_t *exif, size_t exif_size, const uint8_t *xmp, size_t xmp_size,
                    uint8_t **out, size_t *out_size, char *error, size_t error_capacity) {
    *out = NULL;
    *out_size = 0;
    if (!osp_heif_available()) {
        snprintf(error, error_capacity, "libheif cannot be loaded: %s", osp_heif_load_error());
        return -1;
    }
    int status = -1;
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_color_profile_nclx *nclx = NULL;
    struct heif_encoding_options *options = NULL;
    struct heif_error result = heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder);
    if (result.code != heif_error_Ok) { fail(result, "no HEVC encoder", error, error_capacity); goto done; }
    heif_encoder_set_lossy_quality(encoder, quality);
    // 16-bit samples are written in 10 bits (HEVC Main 10), little-endian in libheif's planes.
    int deep = bits == 16;
    enum heif_chroma chroma = channels == 4 ? (deep ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA)
                                            : (deep ? heif_chroma_interleaved_RRGGBB_LE : heif_chroma_interleaved_RGB);
    result = heif_image_create(width, height, heif_colorspace_RGB, chroma, &image);
    if (result.code != heif_error_Ok) { fail(result, "cannot make the image", error, error_capacity); goto done; }
    result = heif_image_add_plane(image, heif_channel_interleaved, width, height, deep ? 10 : 8);
    if (result.code != heif_error_Ok) { fail(result, "cannot make the plane", error, error_capacity); goto done; }
    int plane_stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &plane_stride);
    for (int row = 0; row < height; row++) {
        const uint8_t *source = pixels + (size_t)row * stride;
        uint8_t *target = plane + (size_t)row * plane_stride;
        if (!deep) {
            memcpy(target, source, (size_t)width * channels);
            continue;
        }
        for (int i = 0; i < width * channels; i++) {
            uint16_t sample;
            memcpy(&sample, source + (size_t)i * 2, 2);
            uint32_t ten = ((uint32_t)sample * 1023 + 32767) / 65535;
            target[i * 2] = (uint8_t)(ten & 0xFF);
            target[i * 2 + 1] = (uint8_t)(ten >> 8);
        }
    }
    if (icc && icc_size) heif_image_set_raw_color_profile(image, "prof", icc, icc_size);
    if (transfer > 0) {
        // An HDR signal's code points, with BT.2020's matrix beside its primaries (the encoder
        // converts to YUV by them), on the image and in the options as libheif 1.15 reads both.
        nclx = heif_nclx_color_profile_alloc();
        options = heif_encoding_options_alloc();
        if (!nclx || !options) { snprintf(error, error_capacity, "out of memory"); goto done; }
        nclx->color_primaries = (enum heif_color_primaries)primaries;
        nclx->transfer_characteristics = (enum heif_transfer_characteristics)transfer;
        nclx->matrix_coefficients = primaries == 9 ? heif_matrix_coefficients_ITU_R_BT_2020_2_non_constant_luminance
                                                   : heif_matrix_coefficients_ITU_R_BT_601_6;
        nclx->full_range_flag = 1;
        options->output_nclx_profile = nclx;
        options->macOS_compatibility_workaround_no_nclx_profile = 0;
        result = heif_image_set_nclx_color_profile(image, nclx);
        if (result.code != heif_error_Ok) { fail(result, "cannot state the colour", error, error_capacity); goto done; }
    }
    result = heif_context_encode_image(context, image, encoder, options, &handle);
    if (result.code != heif_error_Ok) { fail(result, "cannot encode", error, error_capacity); goto done; }
    if (exif && exif_size) heif_context_add_exif_metadata(context, handle, exif, (int)exif_size);
    if (xmp && xmp_size) heif_context_add_XMP_metadata(context, handle, xmp, (int)xmp_size);
    buffer written = {NULL, 0, 0};
    struct heif_writer writer = {1, append};
    result = heif_context_write(context, &writer, &written);
    if (result.code != heif_error_Ok || written.failed) {
        free(written.bytes);
        fail(result, "cannot write", error, error_capacity);
        goto done;
    }
    *out = written.bytes;
    *out_size = written.size;
    status = 0;
done:
    if (options) heif_encoding_options_free(options);
    if (nclx) heif_nclx_color_profile_free(nclx);
    if (handle) heif_image_handle_release(handle);
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(context);
    return status;
}
