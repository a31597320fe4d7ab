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

// The horizontal pass of one plan: for each destination x < width and channel c < channels
// (1, 3 or 4), the bytes of
// round(sum over k < counts[x] of weights[x * stride + k] * row[(starts[x] + k) * channels + c] / 2^20),
// clamped to 0...255. Faster paths read whole groups of taps: `stride` is a multiple of 8, the
// weights past each count are 0, and `row` is readable (zeros) for osp_resample_row_padding(stride)
// pixels past its last. The plan copies what it is given and lays the weights out for `path`
// (a path the CPU lacks is taken as scalar); NULL when memory runs out.
typedef struct osp_horizontal_plan osp_horizontal_plan;
osp_horizontal_plan *osp_horizontal_plan_make(int path, int channels, const int32_t *starts, const int32_t *counts,
                                              const int16_t *weights, int stride, int width);
void osp_horizontal_plan_free(osp_horizontal_plan *plan);
void osp_resample_horizontal(const osp_horizontal_plan *plan, const int16_t *row, uint8_t *out);
static inline int osp_resample_row_padding(int stride) { return stride + 8; }

// The box pre-shrink, a block row at a time: its `count` rows (at most 256) summed into
// `sums` (`length` bytes each), then each `factor` pixels across (fewer at the right edge) of
// `rows` rows averaged and rounded into `out`. `sums` is readable for 8 past its last.
void osp_box_sum_rows(const uint8_t *const *rows, int count, uint16_t *sums, size_t length);
void osp_box_emit(const uint16_t *sums, int channels, int width, int factor, int rows, uint8_t *out);
// The same for straight RGBA (`count` and `width` in pixels): colour weighted by alpha.
void osp_box_accumulate_alpha(const uint8_t *row, uint32_t *sums, size_t count);
void osp_box_emit_alpha(uint32_t *sums, int width, int factor, int rows, uint8_t *out);

// Straight RGBA at a finer scale: each pixel to int16 colour x alpha / 255 and alpha, all x 64;
// the passes over such rows (both keep value x 64; the horizontal one with a plan of 4
// channels); and back to straight bytes.
void osp_premultiply16(const uint8_t *pixels, int16_t *out, size_t count);
void osp_resample_vertical16(int path, const int16_t *const *rows, const int16_t *weights, int taps, int16_t *out, size_t count);
void osp_resample_horizontal16(const osp_horizontal_plan *plan, const int16_t *row, int16_t *out);
void osp_unpremultiply16(const int16_t *pixels, uint8_t *out, size_t count);

#endif
