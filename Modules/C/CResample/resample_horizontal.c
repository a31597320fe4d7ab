// The horizontal pass: an int16 row (value x 64) back to bytes. Two neighbouring taps' pixels
// are loaded together and their channels paired (r0 r1 g0 g1 ...), so pmaddwd multiplies each
// pair by the pair of weights: every path adds the same products as the scalar loop. AVX2 does
// two destination pixels at once, one in each 128-bit half, with their weight pairs laid out
// once per plan. Gray rows take eight taps a step.
#include "CResample.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

struct osp_horizontal_plan {
    int path, channels, stride, width;
    int32_t *starts, *counts;
    int16_t *weights;
    // AVX2: for each pair of destination pixels, where each one's window starts in the row
    // (in int16), the taps both read (even) and where its weight pairs start in `pairs` (8
    // int32 per two taps: four copies for each pixel).
    struct osp_pixel_pair { int32_t first, second, taps, weights; } *pixel_pairs;
    int32_t *pairs;
};

static inline uint8_t osp_clamp8(int32_t value) {
    return value > 255 ? 255 : value < 0 ? 0 : (uint8_t)value;
}

static inline int16_t osp_clamp16(int32_t value) {
    return value > INT16_MAX ? INT16_MAX : value < INT16_MIN ? INT16_MIN : (int16_t)value;
}

// Each path writes bytes to `out`, or with `out16` the sums at the row's own scale (value x 64).
static void osp_horizontal_scalar(const osp_horizontal_plan *plan, const int16_t *row, uint8_t *out, int16_t *out16, int from) {
    int channels = plan->channels;
    for (int x = from; x < plan->width; x++) {
        const int16_t *w = plan->weights + (size_t)x * (size_t)plan->stride;
        const int16_t *first = row + (size_t)plan->starts[x] * (size_t)channels;
        for (int c = 0; c < channels; c++) {
            int32_t sum = 0;
            for (int k = 0; k < plan->counts[x]; k++) sum += (int32_t)w[k] * first[k * channels + c];
            size_t at = (size_t)x * (size_t)channels + (size_t)c;
            if (out16) out16[at] = osp_clamp16((sum + (1 << 13)) >> 14);
            else out[at] = osp_clamp8((sum + (1 << 19)) >> 20);
        }
    }
}

#if defined(__x86_64__)
// The weights of taps k and k + 1 as the int32 pmaddwd takes (tap k in the low half).
static inline int32_t osp_pair(const int16_t *w, int k) {
    int32_t pair;
    memcpy(&pair, w + k, sizeof pair);
    return pair;
}

// Channels of two neighbouring pixels (8 int16 from `pixel`) side by side: r0 r1 g0 g1 b0 b1 (a0 a1).
static inline __m128i osp_pair_sse2(const int16_t *pixel, int channels) {
    __m128i both = _mm_loadu_si128((const __m128i *)pixel);
    return channels == 4 ? _mm_unpacklo_epi16(both, _mm_srli_si128(both, 8)) : _mm_unpacklo_epi16(both, _mm_srli_si128(both, 6));
}

// Four int32 sums rounded to `channels` bytes (or to four int16 in `out16`).
static inline void osp_store_pixel(__m128i sums, int channels, uint8_t *out, int16_t *out16) {
    if (out16) {
        __m128i scaled = _mm_srai_epi32(_mm_add_epi32(sums, _mm_set1_epi32(1 << 13)), 14);
        _mm_storel_epi64((__m128i *)out16, _mm_packs_epi32(scaled, scaled));
        return;
    }
    __m128i scaled = _mm_srai_epi32(_mm_add_epi32(sums, _mm_set1_epi32(1 << 19)), 20);
    __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(scaled, scaled), _mm_setzero_si128());
    uint32_t pixel = (uint32_t)_mm_cvtsi128_si32(bytes);
    if (channels == 4) memcpy(out, &pixel, 4);
    else if (channels == 3) memcpy(out, &pixel, 3);
    else *out = (uint8_t)pixel;
}

static void osp_horizontal_sse2(const osp_horizontal_plan *plan, const int16_t *row, uint8_t *out, int16_t *out16, int from) {
    int channels = plan->channels;
    for (int x = from; x < plan->width; x++) {
        const int16_t *w = plan->weights + (size_t)x * (size_t)plan->stride;
        const int16_t *first = row + (size_t)plan->starts[x] * (size_t)channels;
        __m128i acc = _mm_setzero_si128();
        if (channels == 1) {
            for (int k = 0; k < plan->counts[x]; k += 8)
                acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(first + k)), _mm_loadu_si128((const __m128i *)(w + k))));
            acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, _MM_SHUFFLE(1, 0, 3, 2)));
            acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, _MM_SHUFFLE(2, 3, 0, 1)));
        } else {
            for (int k = 0; k < plan->counts[x]; k += 2)
                acc = _mm_add_epi32(acc, _mm_madd_epi16(osp_pair_sse2(first + k * channels, channels), _mm_set1_epi32(osp_pair(w, k))));
        }
        if (out16) osp_store_pixel(acc, channels, NULL, out16 + (size_t)x * 4);
        else osp_store_pixel(acc, channels, out + (size_t)x * (size_t)channels, NULL);
    }
}

// Inlined with `channels` a constant (3 or 4). Pixels are stored four bytes wide, the next
// pixel's store covering an RGB pixel's fourth byte: the last pixel is left to the SSE2 loop.
__attribute__((target("avx2"))) __attribute__((always_inline))
static inline int osp_horizontal_avx2_channels(const osp_horizontal_plan *plan, int channels, const int16_t *row,
                                               uint8_t *out, int16_t *out16) {
    // Within each half, the bytes of r0 r1 g0 g1 b0 b1 a0 a1 from r0 g0 b0 a0 r1 g1 b1 a1 (RGBA)
    // or from r0 g0 b0 r1 g1 b1 (RGB, the last pair zero).
    const __m256i order = channels == 4 ? _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15))
                                        : _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, -1, -1, -1, -1));
    const __m256i half = _mm256_set1_epi32(1 << 19), half16 = _mm256_set1_epi32(1 << 13);
    const struct osp_pixel_pair *pairs = plan->pixel_pairs;
    const __m256i *weights = (const __m256i *)plan->pairs;
    const int width = plan->width;
    int x = 0;
    for (; x + 2 < width; x += 2) {
        const struct osp_pixel_pair pair = pairs[x / 2];
        const int16_t *p0 = row + pair.first, *p1 = row + pair.second;
        const __m256i *w = weights + pair.weights;
        __m256i acc = _mm256_setzero_si256(), other = _mm256_setzero_si256();
        int k = 0;
        for (; k + 4 <= pair.taps; k += 4, w += 2) {
            __m256i a = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(p0 + k * channels))),
                                                _mm_loadu_si128((const __m128i *)(p1 + k * channels)), 1);
            __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(p0 + (k + 2) * channels))),
                                                _mm_loadu_si128((const __m128i *)(p1 + (k + 2) * channels)), 1);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(a, order), _mm256_loadu_si256(w)));
            other = _mm256_add_epi32(other, _mm256_madd_epi16(_mm256_shuffle_epi8(b, order), _mm256_loadu_si256(w + 1)));
        }
        if (k < pair.taps) {
            __m256i a = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(p0 + k * channels))),
                                                _mm_loadu_si128((const __m128i *)(p1 + k * channels)), 1);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(a, order), _mm256_loadu_si256(w)));
        }
        acc = _mm256_add_epi32(acc, other);
        if (out16) {
            __m256i scaled = _mm256_srai_epi32(_mm256_add_epi32(acc, half16), 14);
            __m256i packed = _mm256_packs_epi32(scaled, scaled);
            _mm_storel_epi64((__m128i *)(out16 + (size_t)x * 4), _mm256_castsi256_si128(packed));
            _mm_storel_epi64((__m128i *)(out16 + (size_t)(x + 1) * 4), _mm256_extracti128_si256(packed, 1));
            continue;
        }
        __m256i scaled = _mm256_srai_epi32(_mm256_add_epi32(acc, half), 20);
        __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(scaled, scaled), scaled);
        uint32_t first = (uint32_t)_mm256_extract_epi32(bytes, 0), second = (uint32_t)_mm256_extract_epi32(bytes, 4);
        memcpy(out + (size_t)x * (size_t)channels, &first, 4);
        memcpy(out + (size_t)(x + 1) * (size_t)channels, &second, 4);
    }
    return x;
}

__attribute__((target("avx2")))
static int osp_horizontal_avx2(const osp_horizontal_plan *plan, const int16_t *row, uint8_t *out, int16_t *out16) {
    return plan->channels == 4 ? osp_horizontal_avx2_channels(plan, 4, row, out, out16) : osp_horizontal_avx2_channels(plan, 3, row, out, out16);
}
#endif

static void osp_horizontal(const osp_horizontal_plan *plan, const int16_t *row, uint8_t *out, int16_t *out16) {
    int done = 0;
#if defined(__x86_64__)
    if (plan->path != OSP_RESAMPLE_SCALAR) {
        if (plan->pairs) done = osp_horizontal_avx2(plan, row, out, out16);
        osp_horizontal_sse2(plan, row, out, out16, done);
        return;
    }
#endif
    osp_horizontal_scalar(plan, row, out, out16, done);
}

void osp_resample_horizontal(const osp_horizontal_plan *plan, const int16_t *row, uint8_t *out) {
    osp_horizontal(plan, row, out, NULL);
}

void osp_resample_horizontal16(const osp_horizontal_plan *plan, const int16_t *row, int16_t *out) {
    osp_horizontal(plan, row, NULL, out);
}

static void *osp_copy(const void *source, size_t bytes) {
    void *copy = malloc(bytes ? bytes : 1);
    if (copy && bytes) memcpy(copy, source, bytes);
    return copy;
}

osp_horizontal_plan *osp_horizontal_plan_make(int path, int channels, const int32_t *starts, const int32_t *counts,
                                              const int16_t *weights, int stride, int width) {
    osp_horizontal_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return NULL;
    if (!osp_resample_path_available(path) || !(channels == 1 || channels == 3 || channels == 4)) path = OSP_RESAMPLE_SCALAR;
    *plan = (osp_horizontal_plan){.path = path, .channels = channels, .stride = stride, .width = width};
    plan->starts = osp_copy(starts, (size_t)width * sizeof *starts);
    plan->counts = osp_copy(counts, (size_t)width * sizeof *counts);
    plan->weights = osp_copy(weights, (size_t)width * (size_t)stride * sizeof *weights);
    if (!plan->starts || !plan->counts || !plan->weights) {
        osp_horizontal_plan_free(plan);
        return NULL;
    }
#if defined(__x86_64__)
    if (path == OSP_RESAMPLE_AVX2 && channels != 1 && width >= 2) {
        int count = width / 2;
        size_t total = 0;
        plan->pixel_pairs = malloc((size_t)count * sizeof *plan->pixel_pairs);
        if (!plan->pixel_pairs) {
            osp_horizontal_plan_free(plan);
            return NULL;
        }
        for (int j = 0; j < count; j++) {
            int taps = counts[2 * j] > counts[2 * j + 1] ? counts[2 * j] : counts[2 * j + 1];
            plan->pixel_pairs[j] = (struct osp_pixel_pair){.first = starts[2 * j] * channels, .second = starts[2 * j + 1] * channels,
                                                           .taps = (taps + 1) & ~1, .weights = (int32_t)total};
            total += (size_t)plan->pixel_pairs[j].taps / 2;
        }
        plan->pairs = malloc((total ? total : 1) * 8 * sizeof *plan->pairs);
        if (!plan->pairs) {
            osp_horizontal_plan_free(plan);
            return NULL;
        }
        for (int j = 0; j < count; j++) {
            int32_t *entry = plan->pairs + (size_t)plan->pixel_pairs[j].weights * 8;
            const int16_t *w0 = weights + (size_t)(2 * j) * (size_t)stride, *w1 = w0 + stride;
            for (int k = 0; k < plan->pixel_pairs[j].taps; k += 2, entry += 8)
                for (int lane = 0; lane < 4; lane++) entry[lane] = osp_pair(w0, k), entry[lane + 4] = osp_pair(w1, k);
        }
    }
#endif
    return plan;
}

void osp_horizontal_plan_free(osp_horizontal_plan *plan) {
    if (!plan) return;
    free(plan->starts);
    free(plan->counts);
    free(plan->weights);
    free(plan->pixel_pairs);
    free(plan->pairs);
    free(plan);
}
