#include "CCodecShims.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

struct osp_png_decoder {
    png_structp png;
    png_infop info;
    char message[256];
    // Input: bytes in memory, or a file read as libpng asks.
    const uint8_t *data;
    size_t size;
    size_t offset;
    FILE *file;
    uint32_t height;
};

// libpng calls the error function on a fatal error; it must not return. Keep the message,
// then jump back to the setjmp of the shim function that called into libpng.
static void osp_png_error(png_structp png, png_const_charp message) {
    osp_png_decoder *self = (osp_png_decoder *)png_get_error_ptr(png);
    snprintf(self->message, sizeof self->message, "%s", message);
    png_longjmp(png, 1);
}

// Warnings (a bad ancillary chunk, say) do not stop decoding.
static void osp_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void osp_png_read_memory(png_structp png, png_bytep out, size_t length) {
    osp_png_decoder *self = (osp_png_decoder *)png_get_io_ptr(png);
    if (self->size - self->offset < length) png_error(png, "unexpected end of data");
    memcpy(out, self->data + self->offset, length);
    self->offset += length;
}

static void osp_png_read_file(png_structp png, png_bytep out, size_t length) {
    osp_png_decoder *self = (osp_png_decoder *)png_get_io_ptr(png);
    if (fread(out, 1, length, self->file) != length) png_error(png, "unexpected end of file");
}

static osp_png_decoder *osp_png_create(void) {
    osp_png_decoder *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, self, osp_png_error, osp_png_warning);
    if (!self->png) {
        free(self);
        return NULL;
    }
    self->info = png_create_info_struct(self->png);
    if (!self->info) {
        png_destroy_read_struct(&self->png, NULL, NULL);
        free(self);
        return NULL;
    }
    // Osprey checks its own pixel limit from the header; lift libpng's lower default so the
    // check (and its message) is Osprey's. Chunk sizes keep libpng's defaults.
    png_set_user_limits(self->png, 0x7fffffff, 0x7fffffff);
    return self;
}

osp_png_decoder *osp_png_open_memory(const uint8_t *data, size_t size) {
    osp_png_decoder *self = osp_png_create();
    if (!self) return NULL;
    self->data = data;
    self->size = size;
    png_set_read_fn(self->png, self, osp_png_read_memory);
    return self;
}

osp_png_decoder *osp_png_open_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    osp_png_decoder *self = osp_png_create();
    if (!self) {
        fclose(file);
        return NULL;
    }
    self->file = file;
    png_set_read_fn(self->png, self, osp_png_read_file);
    return self;
}

int osp_png_read_info(osp_png_decoder *self, osp_png_info *out) {
    if (setjmp(png_jmpbuf(self->png))) return -1;
    png_read_info(self->png, self->info);
    out->width = png_get_image_width(self->png, self->info);
    out->height = png_get_image_height(self->png, self->info);
    out->bit_depth = png_get_bit_depth(self->png, self->info);
    out->color_type = png_get_color_type(self->png, self->info);
    out->interlaced = png_get_interlace_type(self->png, self->info) != PNG_INTERLACE_NONE;
    out->has_alpha = (out->color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(self->png, self->info, PNG_INFO_tRNS) != 0;
    self->height = out->height;
    return 0;
}

// To 8-bit samples, with no gamma correction: raw sample values, as PngSuite expects. Gray
// with alpha becomes RGBA (Osprey has no gray-with-alpha format); with `rgba`, every image
// does. Returns whether the output has alpha.
static int osp_png_set_transforms(png_structp png, png_infop info, int rgba, int keeps_16) {
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16 && !keeps_16) png_set_scale_16(png);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (bit_depth == 16 && keeps_16) png_set_swap(png);  // PNG stores samples big-endian
#endif
    int gray = (color_type & PNG_COLOR_MASK_COLOR) == 0;
    int alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
    if (gray && (alpha || rgba)) png_set_gray_to_rgb(png);
    if (rgba && !alpha) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    return alpha;
}

int osp_png_prepare(osp_png_decoder *self, osp_png_info *out) {
    if (setjmp(png_jmpbuf(self->png))) return -1;
    png_structp png = self->png;
    png_infop info = self->info;
    int alpha = osp_png_set_transforms(png, info, 0, out->keeps_16);
    png_read_update_info(png, info);
    out->channels = png_get_channels(png, info);
    out->has_alpha = alpha;
    out->bytes_per_sample = png_get_bit_depth(png, info) == 16 ? 2 : 1;
    if (png_get_rowbytes(png, info) != (size_t)out->width * (size_t)out->channels * (size_t)out->bytes_per_sample) {
        snprintf(self->message, sizeof self->message, "unexpected row layout");
        return -1;
    }
    return 0;
}

int osp_png_read_rows(osp_png_decoder *self, uint8_t *buffer, size_t stride, uint32_t rows) {
    if (setjmp(png_jmpbuf(self->png))) return -1;
    for (uint32_t i = 0; i < rows; i++) png_read_row(self->png, buffer + (size_t)i * stride, NULL);
    return 0;
}

int osp_png_read_image(osp_png_decoder *self, uint8_t *buffer, size_t stride) {
    png_bytep *rows = malloc(sizeof(png_bytep) * (self->height ? self->height : 1));
    if (!rows) {
        snprintf(self->message, sizeof self->message, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < self->height; i++) rows[i] = buffer + (size_t)i * stride;
    if (setjmp(png_jmpbuf(self->png))) {
        free(rows);
        return -1;
    }
    png_read_image(self->png, rows);
    free(rows);
    return 0;
}

int osp_png_read_end(osp_png_decoder *self) {
    if (setjmp(png_jmpbuf(self->png))) return -1;
    png_read_end(self->png, NULL);
    return 0;
}

const uint8_t *osp_png_exif(osp_png_decoder *self, size_t *length) {
    png_uint_32 count = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(self->png, self->info, &count, &exif) && exif && count > 0) {
        *length = count;
        return exif;
    }
    *length = 0;
    return NULL;
}

const uint8_t *osp_png_icc(osp_png_decoder *self, size_t *length) {
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 count = 0;
    if (png_get_iCCP(self->png, self->info, &name, &compression, &profile, &count) && profile && count > 0) {
        *length = count;
        return profile;
    }
    *length = 0;
    return NULL;
}

int osp_png_decode_rgba(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                        char *error, size_t error_capacity) {
    osp_png_decoder *self = osp_png_open_memory(data, size);
    if (!self) {
        snprintf(error, error_capacity, "out of memory");
        return -1;
    }
    png_set_crc_action(self->png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
    osp_png_info info;
    if (osp_png_read_info(self, &info) != 0 || info.width != width || info.height != height) {
        snprintf(error, error_capacity, "%s", self->message[0] ? self->message : "frame size differs from its fcTL");
        osp_png_close(self);
        return -1;
    }
    int status = -1;
    if (setjmp(png_jmpbuf(self->png)) == 0) {
        png_structp png = self->png;
        osp_png_set_transforms(png, self->info, 1, 0);
        png_read_update_info(png, self->info);
        status = png_get_rowbytes(png, self->info) == (size_t)width * 4 ? 0 : -1;
        if (status != 0) snprintf(self->message, sizeof self->message, "unexpected row layout");
    }
    if (status == 0) status = osp_png_read_image(self, rgba, (size_t)width * 4);
    if (status != 0) snprintf(error, error_capacity, "%s", self->message);
    osp_png_close(self);
    return status;
}

void osp_rgba_blend(uint8_t *canvas, uint32_t canvas_width, const uint8_t *frame, uint32_t width, uint32_t height,
                    uint32_t x, uint32_t y, int blend_over) {
    for (uint32_t row = 0; row < height; row++) {
        uint8_t *dst = canvas + ((size_t)(y + row) * canvas_width + x) * 4;
        const uint8_t *src = frame + (size_t)row * width * 4;
        if (!blend_over) {
            memcpy(dst, src, (size_t)width * 4);
            continue;
        }
        for (uint32_t col = 0; col < width; col++, dst += 4, src += 4) {
            unsigned sa = src[3];
            if (sa == 255) { memcpy(dst, src, 4); continue; }
            if (sa == 0) continue;
            // Straight alpha "over": out_a = sa + da(1 - sa); out_c = (sc·sa + dc·da(1 - sa)) / out_a.
            unsigned da = dst[3] * (255 - sa);  // scaled by 255
            unsigned oa = sa * 255 + da;        // scaled by 255
            for (int c = 0; c < 3; c++) dst[c] = (uint8_t)((src[c] * sa * 255 + dst[c] * da + oa / 2) / oa);
            dst[3] = (uint8_t)((oa + 127) / 255);
        }
    }
}

const char *osp_png_error_message(const osp_png_decoder *self) { return self->message; }

void osp_png_close(osp_png_decoder *self) {
    if (!self) return;
    png_destroy_read_struct(&self->png, &self->info, NULL);
    if (self->file) fclose(self->file);
    free(self);
}
