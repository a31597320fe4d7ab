// The horizontal pass: an int16 row (value x 64) back to bytes, a destination pixel at a time.
// In SSE2 a pixel's channels are summed side by side: two taps' pixels interleaved as int16
// pairs and multiplied with the pair of weights by pmaddwd, so every path adds the same
// products as the scalar loop. AVX2 takes the SSE2 form here; pairing neighbours across
// pixels with pshufb is what would make both faster.
#include "CResample.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

static inline uint8_t osp_clamp8(int32_t value) {
    return value > 255 ? 255 : value < 0 ? 0 : (uint8_t)value;
}

static void osp_horizontal_scalar(const int16_t *row, int channels, const int32_t *starts, const int32_t *counts,
                                  const int16_t *weights, int stride, uint8_t *out, int width) {
    for (int x = 0; x < width; x++) {
        const int16_t *w = weights + (size_t)x * (size_t)stride;
        const int16_t *first = row + (size_t)starts[x] * (size_t)channels;
        for (int c = 0; c < channels; c++) {
            int32_t sum = 0;
            for (int k = 0; k < counts[x]; k++) sum += (int32_t)w[k] * first[k * channels + c];
            out[(size_t)x * (size_t)channels + (size_t)c] = osp_clamp8((sum + (1 << 19)) >> 20);
        }
    }
}

#if defined(__x86_64__)
// One pixel's channels (1 to 4) as int16 in the low lanes, read without going past them.
static inline __m128i osp_load_pixel(const int16_t *pixel, int channels) {
    int64_t lanes = 0;
    memcpy(&lanes, pixel, (size_t)channels * sizeof(int16_t));
    return _mm_cvtsi64_si128(lanes);
}

static void osp_horizontal_sse2(const int16_t *row, int channels, const int32_t *starts, const int32_t *counts,
                                const int16_t *weights, int stride, uint8_t *out, int width) {
    const __m128i half = _mm_set1_epi32(1 << 19);
    for (int x = 0; x < width; x++) {
        const int16_t *w = weights + (size_t)x * (size_t)stride;
        const int16_t *first = row + (size_t)starts[x] * (size_t)channels;
        __m128i acc = _mm_setzero_si128();
        for (int k = 0; k < counts[x]; k += 2) {
            __m128i a = osp_load_pixel(first + k * channels, channels);
            __m128i b = k + 1 < counts[x] ? osp_load_pixel(first + (k + 1) * channels, channels) : _mm_setzero_si128();
            uint16_t wa = (uint16_t)w[k], wb = k + 1 < counts[x] ? (uint16_t)w[k + 1] : 0;
            __m128i pair = _mm_set1_epi32((int32_t)((uint32_t)wb << 16 | wa));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_unpacklo_epi16(a, b), pair));
        }
        int32_t sums[4];
        _mm_storeu_si128((__m128i *)sums, _mm_srai_epi32(_mm_add_epi32(acc, half), 20));
        for (int c = 0; c < channels; c++) out[(size_t)x * (size_t)channels + (size_t)c] = osp_clamp8(sums[c]);
    }
}
#endif

void osp_resample_horizontal(int path, const int16_t *row, int channels, const int32_t *starts, const int32_t *counts,
                             const int16_t *weights, int stride, uint8_t *out, int width) {
#if defined(__x86_64__)
    if (path != OSP_RESAMPLE_SCALAR && channels >= 1 && channels <= 4) {
        osp_horizontal_sse2(row, channels, starts, counts, weights, stride, out, width);
        return;
    }
#else
    (void)path;
#endif
    osp_horizontal_scalar(row, channels, starts, counts, weights, stride, out, width);
}
