// BMP's rows to and from Osprey's pixels, a row at a time: BMP stores blue first. The loops are
// plain for the compiler to vectorise; each swap is its own inverse.
#include "CCodecShims.h"

void osp_bmp_swap3(const uint8_t *source, uint8_t *out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint8_t b = source[i * 3], g = source[i * 3 + 1], r = source[i * 3 + 2];
        out[i * 3] = r, out[i * 3 + 1] = g, out[i * 3 + 2] = b;
    }
}

void osp_bmp_swap4(const uint8_t *source, uint8_t *out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint32_t pixel;
        __builtin_memcpy(&pixel, source + i * 4, 4);
        // Little-endian BGRA as one word: red and blue trade places, green and alpha stay.
        pixel = (pixel & 0xFF00FF00u) | (pixel & 0x00FF0000u) >> 16 | (pixel & 0x000000FFu) << 16;
        __builtin_memcpy(out + i * 4, &pixel, 4);
    }
}

void osp_bmp_bgrx_to_rgb(const uint8_t *source, uint8_t *out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        out[i * 3] = source[i * 4 + 2], out[i * 3 + 1] = source[i * 4 + 1], out[i * 3 + 2] = source[i * 4];
    }
}

void osp_bmp_palette8(const uint8_t *indices, const uint8_t *palette, uint8_t *out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const uint8_t *entry = palette + (size_t)indices[i] * 3;
        out[i * 3] = entry[0], out[i * 3 + 1] = entry[1], out[i * 3 + 2] = entry[2];
    }
}
