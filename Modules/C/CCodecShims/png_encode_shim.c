// PNG encoding through libpng, into a growing buffer in memory.
#include "CCodecShims.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

struct osp_png_output {
    uint8_t *data;
    size_t length;
    size_t capacity;
    char message[256];
};

static void osp_png_write_error(png_structp png, png_const_charp message) {
    struct osp_png_output *out = (struct osp_png_output *)png_get_error_ptr(png);
    snprintf(out->message, sizeof out->message, "%s", message);
    png_longjmp(png, 1);
}

static void osp_png_write(png_structp png, png_bytep data, size_t length) {
    struct osp_png_output *out = (struct osp_png_output *)png_get_io_ptr(png);
    if (out->capacity - out->length < length) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        while (capacity - out->length < length) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) png_error(png, "out of memory");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->length, data, length);
    out->length += length;
}

static void osp_png_flush(png_structp png) { (void)png; }

// Nothing the encoder warns about changes its output.
static void osp_png_write_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

int osp_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int components, int bit_depth,
                   int compression_level, const uint8_t *icc, size_t icc_length,
                   uint8_t **out, size_t *out_length, char *error, size_t error_capacity) {
    struct osp_png_output output;
    memset(&output, 0, sizeof output);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &output, osp_png_write_error, osp_png_write_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(error, error_capacity, "out of memory");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(error, error_capacity, "%s", output.message);
        png_destroy_write_struct(&png, &info);
        free(output.data);
        return -1;
    }
    int color_type = components == 1 ? PNG_COLOR_TYPE_GRAY : components == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA;
    png_set_write_fn(png, &output, osp_png_write, osp_png_flush);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, width, height, bit_depth, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (icc && icc_length > 0) png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_length);
    png_write_info(png, info);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (bit_depth == 16) png_set_swap(png);  // native 16-bit samples, written big-endian
#endif
    for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *out = output.data;
    *out_length = output.length;
    return 0;
}
