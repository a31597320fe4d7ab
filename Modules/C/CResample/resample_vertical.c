// The vertical pass: rows of bytes to one int16 row (value x 64), 16 or 32 bytes at a time.
// Two taps a step: a pair of rows' bytes interleaved as int16 and multiplied with the pair of
// weights by pmaddwd, summed in int32, so every path adds the same products.
#include "CResample.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

static inline int16_t osp_saturate16(int32_t value) {
    return value > INT16_MAX ? INT16_MAX : value < INT16_MIN ? INT16_MIN : (int16_t)value;
}

static void osp_vertical_scalar(const uint8_t *const *rows, const int16_t *weights, int taps, int16_t *out, size_t from, size_t count) {
    for (size_t x = from; x < count; x++) {
        int32_t sum = 0;
        for (int k = 0; k < taps; k++) sum += (int32_t)weights[k] * rows[k][x];
        out[x] = osp_saturate16((sum + 128) >> 8);
    }
}

#if defined(__x86_64__)
// The weights of taps k and k + 1 as the int16 pair pmaddwd multiplies (k + 1 past the last: 0).
static inline int32_t osp_weight_pair(const int16_t *weights, int taps, int k) {
    uint16_t first = (uint16_t)weights[k], second = k + 1 < taps ? (uint16_t)weights[k + 1] : 0;
    return (int32_t)((uint32_t)second << 16 | first);
}

// Windows this wide or less have their weight pairs made once per row, not once per block.
enum { OSP_VERTICAL_PAIRS = 64 };

static size_t osp_vertical_sse2(const uint8_t *const *rows, const int16_t *weights, int taps, int16_t *out, size_t count) {
    const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi32(128);
    if (taps > 2 * OSP_VERTICAL_PAIRS) return 0;
    __m128i pairs[OSP_VERTICAL_PAIRS];
    for (int k = 0; k < taps; k += 2) pairs[k / 2] = _mm_set1_epi32(osp_weight_pair(weights, taps, k));
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        __m128i acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
        for (int k = 0; k < taps; k += 2) {
            __m128i a = _mm_loadu_si128((const __m128i *)(rows[k] + x));
            __m128i b = k + 1 < taps ? _mm_loadu_si128((const __m128i *)(rows[k + 1] + x)) : zero;
            __m128i w = pairs[k / 2];
            __m128i alo = _mm_unpacklo_epi8(a, zero), ahi = _mm_unpackhi_epi8(a, zero);
            __m128i blo = _mm_unpacklo_epi8(b, zero), bhi = _mm_unpackhi_epi8(b, zero);
            acc0 = _mm_add_epi32(acc0, _mm_madd_epi16(_mm_unpacklo_epi16(alo, blo), w));
            acc1 = _mm_add_epi32(acc1, _mm_madd_epi16(_mm_unpackhi_epi16(alo, blo), w));
            acc2 = _mm_add_epi32(acc2, _mm_madd_epi16(_mm_unpacklo_epi16(ahi, bhi), w));
            acc3 = _mm_add_epi32(acc3, _mm_madd_epi16(_mm_unpackhi_epi16(ahi, bhi), w));
        }
        acc0 = _mm_srai_epi32(_mm_add_epi32(acc0, half), 8);
        acc1 = _mm_srai_epi32(_mm_add_epi32(acc1, half), 8);
        acc2 = _mm_srai_epi32(_mm_add_epi32(acc2, half), 8);
        acc3 = _mm_srai_epi32(_mm_add_epi32(acc3, half), 8);
        _mm_storeu_si128((__m128i *)(out + x), _mm_packs_epi32(acc0, acc1));
        _mm_storeu_si128((__m128i *)(out + x + 8), _mm_packs_epi32(acc2, acc3));
    }
    return x;
}

// 32 bytes a step as two halves of 16, each widened to int16 on loading; the even taps in pairs,
// an odd last tap alone. Unpacking works within each 128-bit half, and packing back undoes it.
__attribute__((target("avx2")))
static size_t osp_vertical_avx2(const uint8_t *const *rows, const int16_t *weights, int taps, int16_t *out, size_t count) {
    const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi32(128);
    if (taps > 2 * OSP_VERTICAL_PAIRS) return 0;
    __m256i pairs[OSP_VERTICAL_PAIRS];
    for (int k = 0; k < taps; k += 2) pairs[k / 2] = _mm256_set1_epi32(osp_weight_pair(weights, taps, k));
    const int even = taps & ~1;
    size_t x = 0;
    for (; x + 32 <= count; x += 32) {
        __m256i acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
        for (int k = 0; k < even; k += 2) {
            const uint8_t *a = rows[k] + x, *b = rows[k + 1] + x;
            __m256i a0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)a)), b0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)b));
            __m256i a1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(a + 16))),
                    b1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(b + 16)));
            __m256i w = pairs[k / 2];
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(_mm256_unpacklo_epi16(a0, b0), w));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(_mm256_unpackhi_epi16(a0, b0), w));
            acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_unpacklo_epi16(a1, b1), w));
            acc3 = _mm256_add_epi32(acc3, _mm256_madd_epi16(_mm256_unpackhi_epi16(a1, b1), w));
        }
        if (even < taps) {
            const uint8_t *a = rows[even] + x;
            __m256i a0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)a)), a1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(a + 16)));
            __m256i w = pairs[even / 2];
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(_mm256_unpacklo_epi16(a0, zero), w));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(_mm256_unpackhi_epi16(a0, zero), w));
            acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_unpacklo_epi16(a1, zero), w));
            acc3 = _mm256_add_epi32(acc3, _mm256_madd_epi16(_mm256_unpackhi_epi16(a1, zero), w));
        }
        acc0 = _mm256_srai_epi32(_mm256_add_epi32(acc0, half), 8);
        acc1 = _mm256_srai_epi32(_mm256_add_epi32(acc1, half), 8);
        acc2 = _mm256_srai_epi32(_mm256_add_epi32(acc2, half), 8);
        acc3 = _mm256_srai_epi32(_mm256_add_epi32(acc3, half), 8);
        _mm256_storeu_si256((__m256i *)(out + x), _mm256_packs_epi32(acc0, acc1));
        _mm256_storeu_si256((__m256i *)(out + x + 16), _mm256_packs_epi32(acc2, acc3));
    }
    return x;
}
#endif

void osp_resample_vertical(int path, const uint8_t *const *rows, const int16_t *weights, int taps, int16_t *out, size_t count) {
    size_t done = 0;
#if defined(__x86_64__)
    if (path == OSP_RESAMPLE_AVX2 && osp_resample_path_available(OSP_RESAMPLE_AVX2)) done = osp_vertical_avx2(rows, weights, taps, out, count);
    else if (path == OSP_RESAMPLE_SSE2) done = osp_vertical_sse2(rows, weights, taps, out, count);
#else
    (void)path;
#endif
    osp_vertical_scalar(rows, weights, taps, out, done, count);
}
