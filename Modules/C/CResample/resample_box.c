// The box pre-shrink: plain loops the compiler vectorises, one path for every CPU. Straight alpha is averaged weighted by alpha (colour x alpha summed,
// divided by the alpha's sum), so its result is straight again and loses no precision.
#include "CResample.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

void osp_box_sum_rows(const uint8_t *const *rows, int count, uint16_t *sums, size_t length) {
    size_t x = 0;
#if defined(__x86_64__)
    // A block's rows summed in registers, 16 bytes at a time: each sum written once.
    const __m128i zero = _mm_setzero_si128();
    for (; x + 16 <= length; x += 16) {
        __m128i low = zero, high = zero;
        for (int k = 0; k < count; k++) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)(rows[k] + x));
            low = _mm_add_epi16(low, _mm_unpacklo_epi8(bytes, zero));
            high = _mm_add_epi16(high, _mm_unpackhi_epi8(bytes, zero));
        }
        _mm_storeu_si128((__m128i *)(sums + x), low);
        _mm_storeu_si128((__m128i *)(sums + x + 8), high);
    }
#endif
    for (; x < length; x++) {
        uint16_t sum = 0;
        for (int k = 0; k < count; k++) sum = (uint16_t)(sum + rows[k][x]);
        sums[x] = sum;
    }
}

// round(sum / n) for sums of up to 255 x n. While n is at most 256 the rounded sum fits in 16
// bits and is multiplied by ceil(2^16 / n), exact up to n = 16 and within a level beyond; larger
// blocks divide. The SSE2 loop below computes the same.
static inline uint32_t osp_multiplier(uint32_t n) {
    return n <= 256 ? (65536u + n - 1) / n : 0;
}

static inline uint8_t osp_average(uint32_t sum, uint32_t n, uint32_t multiplier) {
    return n <= 256 ? (uint8_t)(((sum + n / 2) * multiplier) >> 16) : (uint8_t)((sum + n / 2) / n);
}

// The blocks from `block` on, `channels` and `factor` known to the compiler where they are constants.
static inline void osp_box_emit_blocks(const uint16_t *sums, int channels, int width, int factor, int rows, uint8_t *out, int block) {
    int full = width / factor;
    uint32_t n = (uint32_t)(factor * rows), multiplier = osp_multiplier(n);
    for (; block < full; block++) {
        const uint16_t *cell = sums + (size_t)block * (size_t)factor * (size_t)channels;
        for (int c = 0; c < channels; c++) {
            uint32_t sum = 0;
            for (int i = 0; i < factor; i++) sum += cell[i * channels + c];
            out[(size_t)block * (size_t)channels + (size_t)c] = osp_average(sum, n, multiplier);
        }
    }
    int columns = width - full * factor;
    if (columns == 0) return;
    n = (uint32_t)(columns * rows);
    multiplier = osp_multiplier(n);
    const uint16_t *cell = sums + (size_t)full * (size_t)factor * (size_t)channels;
    for (int c = 0; c < channels; c++) {
        uint32_t sum = 0;
        for (int i = 0; i < columns; i++) sum += cell[i * channels + c];
        out[(size_t)full * (size_t)channels + (size_t)c] = osp_average(sum, n, multiplier);
    }
}

#if defined(__x86_64__)
// Pairs of pixels (the most common block across): both pixels' sums in one load, added to
// their shifted copy, rounded by the same multiplier, stored four bytes wide (the next block's
// store covers an RGB block's fourth byte; the last full block is left to the loop above).
// Sums are readable for 8 past the row's last.
static int osp_box_emit_pairs(const uint16_t *sums, int channels, int width, int rows, uint8_t *out) {
    int full = width / 2, block = 0;
    uint32_t n = (uint32_t)(2 * rows);
    if (n > 256) return 0;
    const __m128i half = _mm_set1_epi16((short)(n / 2)), multiplier = _mm_set1_epi16((short)osp_multiplier(n));
    for (; block + 1 < full; block++) {
        __m128i both = _mm_loadu_si128((const __m128i *)(sums + (size_t)block * 2 * (size_t)channels));
        __m128i sum = _mm_add_epi16(both, channels == 4 ? _mm_srli_si128(both, 8) : _mm_srli_si128(both, 6));
        __m128i average = _mm_mulhi_epu16(_mm_add_epi16(sum, half), multiplier);
        uint32_t pixel = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(average, average));
        memcpy(out + (size_t)block * (size_t)channels, &pixel, 4);
    }
    return block;
}
#endif

void osp_box_emit(const uint16_t *sums, int channels, int width, int factor, int rows, uint8_t *out) {
    int block = 0;
#if defined(__x86_64__)
    if (factor == 2 && (channels == 3 || channels == 4)) block = osp_box_emit_pairs(sums, channels, width, rows, out);
#endif
    switch (channels * 100 + (factor <= 4 ? factor : 0)) {
    case 302: osp_box_emit_blocks(sums, 3, width, 2, rows, out, block); break;
    case 303: osp_box_emit_blocks(sums, 3, width, 3, rows, out, block); break;
    case 304: osp_box_emit_blocks(sums, 3, width, 4, rows, out, block); break;
    case 402: osp_box_emit_blocks(sums, 4, width, 2, rows, out, block); break;
    case 404: osp_box_emit_blocks(sums, 4, width, 4, rows, out, block); break;
    default: osp_box_emit_blocks(sums, channels, width, factor, rows, out, block); break;
    }
}

void osp_box_accumulate_alpha(const uint8_t *row, uint32_t *sums, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const uint8_t *p = row + i * 4;
        uint32_t a = p[3], *s = sums + i * 4;
        s[0] += p[0] * a, s[1] += p[1] * a, s[2] += p[2] * a, s[3] += a;
    }
}

void osp_box_emit_alpha(uint32_t *sums, int width, int factor, int rows, uint8_t *out) {
    int blocks = (width + factor - 1) / factor;
    for (int block = 0; block < blocks; block++) {
        int first = block * factor, columns = width - first < factor ? width - first : factor;
        uint64_t n = (uint64_t)columns * (uint64_t)rows, total[4] = {0, 0, 0, 0};
        for (int i = 0; i < columns; i++) {
            uint32_t *cell = sums + (size_t)(first + i) * 4;
            for (int c = 0; c < 4; c++) total[c] += cell[c], cell[c] = 0;
        }
        uint8_t *o = out + (size_t)block * 4;
        for (int c = 0; c < 3; c++) o[c] = total[3] == 0 ? 0 : (uint8_t)((total[c] + total[3] / 2) / total[3]);
        o[3] = (uint8_t)((total[3] + n / 2) / n);
    }
}
