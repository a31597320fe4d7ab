// Straight alpha filtered premultiplied at a finer scale than bytes: colour x alpha / 255 and
// alpha are kept as value x 64 in int16 through both passes, so dividing the alpha back out
// loses no level (a half-transparent solid colour stays exact).
#include "CResample.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

static inline int16_t osp_saturate16(int32_t value) {
    return value > INT16_MAX ? INT16_MAX : value < INT16_MIN ? INT16_MIN : (int16_t)value;
}

void osp_premultiply16(const uint8_t *pixels, int16_t *out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const uint8_t *p = pixels + i * 4;
        uint32_t a = p[3];
        for (int c = 0; c < 3; c++) out[i * 4 + (size_t)c] = (int16_t)((p[c] * a * 64 + 127) / 255);
        out[i * 4 + 3] = (int16_t)(a * 64);
    }
}

void osp_unpremultiply16(const int16_t *pixels, uint8_t *out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const int16_t *p = pixels + i * 4;
        int32_t a = p[3];
        int32_t alpha = (a + 32) >> 6;
        for (int c = 0; c < 3; c++) {
            int32_t value = alpha <= 0 || p[c] <= 0 ? 0 : (p[c] * 255 + a / 2) / a;
            out[i * 4 + (size_t)c] = (uint8_t)(value > 255 ? 255 : value);
        }
        out[i * 4 + 3] = (uint8_t)(alpha > 255 ? 255 : alpha < 0 ? 0 : alpha);
    }
}

static void osp_vertical16_scalar(const int16_t *const *rows, const int16_t *weights, int taps, int16_t *out, size_t from, size_t count) {
    for (size_t x = from; x < count; x++) {
        int32_t sum = 0;
        for (int k = 0; k < taps; k++) sum += (int32_t)weights[k] * rows[k][x];
        out[x] = osp_saturate16((sum + (1 << 13)) >> 14);
    }
}

#if defined(__x86_64__)
// Eight samples a step, two taps at a time: both rows' samples interleaved, then pmaddwd.
static size_t osp_vertical16_sse2(const int16_t *const *rows, const int16_t *weights, int taps, int16_t *out, size_t count) {
    const __m128i half = _mm_set1_epi32(1 << 13);
    size_t x = 0;
    for (; x + 8 <= count; x += 8) {
        __m128i low = _mm_setzero_si128(), high = _mm_setzero_si128();
        for (int k = 0; k < taps; k += 2) {
            __m128i a = _mm_loadu_si128((const __m128i *)(rows[k] + x));
            __m128i b = k + 1 < taps ? _mm_loadu_si128((const __m128i *)(rows[k + 1] + x)) : _mm_setzero_si128();
            uint16_t first = (uint16_t)weights[k], second = k + 1 < taps ? (uint16_t)weights[k + 1] : 0;
            __m128i pair = _mm_set1_epi32((int32_t)((uint32_t)second << 16 | first));
            low = _mm_add_epi32(low, _mm_madd_epi16(_mm_unpacklo_epi16(a, b), pair));
            high = _mm_add_epi32(high, _mm_madd_epi16(_mm_unpackhi_epi16(a, b), pair));
        }
        low = _mm_srai_epi32(_mm_add_epi32(low, half), 14);
        high = _mm_srai_epi32(_mm_add_epi32(high, half), 14);
        _mm_storeu_si128((__m128i *)(out + x), _mm_packs_epi32(low, high));
    }
    return x;
}
#endif

void osp_resample_vertical16(int path, const int16_t *const *rows, const int16_t *weights, int taps, int16_t *out, size_t count) {
    size_t done = 0;
#if defined(__x86_64__)
    if (path != OSP_RESAMPLE_SCALAR) done = osp_vertical16_sse2(rows, weights, taps, out, count);
#else
    (void)path;
#endif
    osp_vertical16_scalar(rows, weights, taps, out, done, count);
}
