// The horizontal pass: an int16 row (value x 64) back to bytes, a destination pixel at a time.
// Scalar on every path for now: the paired-neighbour SIMD form is the next step.
#include "CResample.h"

static inline uint8_t osp_clamp8(int32_t value) {
    return value > 255 ? 255 : value < 0 ? 0 : (uint8_t)value;
}

void osp_resample_horizontal(int path, const int16_t *row, int channels, const int32_t *starts, const int32_t *counts,
                             const int16_t *weights, int stride, uint8_t *out, int width) {
    (void)path;
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
