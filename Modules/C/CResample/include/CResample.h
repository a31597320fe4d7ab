#ifndef OSP_RESAMPLE_H
#define OSP_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

// The fixed-point resampling kernels: weights are int16 with 14 fractional bits; the vertical
// pass turns rows of bytes into one row of int16 holding value x 64; the horizontal pass turns
// such a row back into bytes. Every path gives the same bytes as the scalar one: the sums are
// exact in 32 bits, rounded and clamped the same way.

// The paths, by speed. A path the CPU lacks is never taken.
enum { OSP_RESAMPLE_SCALAR = 0, OSP_RESAMPLE_SSE2 = 1, OSP_RESAMPLE_AVX2 = 2 };

// The path the kernels take: the fastest the CPU has, unless OSPREY_RESAMPLE_PATH names another
// (scalar, sse2 or avx2); chosen once.
int osp_resample_path(void);

// Whether the CPU can take `path`.
int osp_resample_path_available(int path);

// out[x] = round(sum over k of weights[k] * rows[k][x] / 256) for x < count: byte x 64 in
// int16, saturated; `taps` rows, each at least `count` bytes.
void osp_resample_vertical(int path, const uint8_t *const *rows, const int16_t *weights, int taps, int16_t *out, size_t count);

// For each destination x < width and channel c < channels: the bytes of
// round(sum over k < counts[x] of weights[x * stride + k] * row[(starts[x] + k) * channels + c] / 2^20),
// clamped to 0...255.
void osp_resample_horizontal(int path, const int16_t *row, int channels, const int32_t *starts, const int32_t *counts,
                             const int16_t *weights, int stride, uint8_t *out, int width);

#endif
