#include "CCodecShims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gif_lib.h>

#include "gif_decoder.h"

// Each frame drawn onto the canvas: the previous frame's disposal first, then the frame's
// rows (de-interlaced), its transparent index left as the canvas was.

static void osp_gif_clear(uint8_t *canvas, uint32_t width, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    for (uint32_t row = y; row < y + h; row++) memset(canvas + ((size_t)row * width + x) * 4, 0, (size_t)w * 4);
}

int osp_gif_next_frame(osp_gif_decoder *self, uint8_t *canvas, int *delay_cs, int (*cancelled)(void)) {
    if (!self->gif) return -1;
    if (self->ended) return 0;
    int delay = 0, disposal = 0, transparent = -1, loop = 0;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(self->gif, &type) == GIF_ERROR) return 0;  // a truncated tail ends the animation
        if (type == TERMINATE_RECORD_TYPE) return 0;
        if (type == EXTENSION_RECORD_TYPE) {
            if (osp_gif_extension(self, &delay, &disposal, &transparent, &loop) != 0) return 0;
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) return 0;
        if (DGifGetImageDesc(self->gif) == GIF_ERROR) return 0;
        osp_gif_grow_screen(self);
        GifImageDesc *desc = &self->gif->Image;
        if (desc->Width <= 0 || desc->Height <= 0) {
            if (!osp_gif_skip_pixels(self)) return 0;
            delay = 0; disposal = 0; transparent = -1;
            continue;
        }
        const size_t canvas_bytes = (size_t)self->width * self->height * 4;
        // NULL: no table in the file, drawn as a grey ramp (index i is grey i).
        ColorMapObject *map = desc->ColorMap ? desc->ColorMap : self->gif->SColorMap;
        // The previous frame's disposal.
        if (self->previous_disposal == DISPOSE_BACKGROUND) {
            osp_gif_clear(canvas, self->width, self->px, self->py, self->pw, self->ph);
        } else if (self->previous_disposal == DISPOSE_PREVIOUS && self->saved) {
            memcpy(canvas, self->saved, canvas_bytes);
        }
        if (disposal == DISPOSE_PREVIOUS) {
            if (!self->saved && !(self->saved = malloc(canvas_bytes))) {
                snprintf(self->message, sizeof self->message, "out of memory");
                return -1;
            }
            memcpy(self->saved, canvas, canvas_bytes);
        }
        int fw = desc->Width, fh = desc->Height, fx = desc->Left, fy = desc->Top;
        GifByteType *line = realloc(self->line, (size_t)fw);
        if (!line) {
            snprintf(self->message, sizeof self->message, "out of memory");
            return -1;
        }
        self->line = line;
        // Rows arrive in file order; interlaced files send every 8th row, then the 4th, 2nd, 1st.
        // A plain frame is clipped at its descriptor: once its last row on the canvas is
        // drawn, the rest of its data is skipped undecompressed (interlaced rows come back).
        static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
        int passes = desc->Interlace ? 4 : 1;
        int visible = fy >= (int)self->height || fx >= (int)self->width ? 0 : (int)self->height - fy;
        int decoded_rows = desc->Interlace ? fh : (visible < fh ? visible : fh);
        int lines = 0;
        for (int pass = 0; pass < passes && !self->ended; pass++) {
            int start = desc->Interlace ? starts[pass] : 0, step = desc->Interlace ? steps[pass] : 1;
            for (int row = start; row < decoded_rows; row += step) {
                if ((lines++ & 63) == 0 && cancelled && cancelled()) return -3;
                if (DGifGetLine(self->gif, line, fw) == GIF_ERROR) {
                    // Data that stops (a cut file, or an end code before the last pixel)
                    // keeps the rows that arrived and ends the animation; a code that
                    // cannot be in the stream makes the frame damaged.
                    int stopped = self->repaired || self->gif->Error == D_GIF_ERR_EOF_TOO_SOON ||
                                  self->gif->Error == D_GIF_ERR_READ_FAILED;
                    if (!stopped) {
                        osp_gif_fail(self, self->gif->Error);
                        return -2;
                    }
                    self->ended = 1;
                    break;
                }
                int cy = fy + row;
                if (cy < 0 || (uint32_t)cy >= self->height) continue;
                for (int col = 0; col < fw; col++) {
                    int cx = fx + col;
                    if (cx < 0 || (uint32_t)cx >= self->width) continue;
                    int index = line[col];
                    if (index == transparent || (map && index >= map->ColorCount)) continue;
                    uint8_t *px = canvas + ((size_t)cy * self->width + cx) * 4;
                    px[0] = map ? map->Colors[index].Red : (uint8_t)index;
                    px[1] = map ? map->Colors[index].Green : (uint8_t)index;
                    px[2] = map ? map->Colors[index].Blue : (uint8_t)index;
                    px[3] = 255;
                }
            }
        }
        if (!self->ended && decoded_rows < fh && !osp_gif_skip_rest(self)) self->ended = 1;
        // The rectangle, clipped to the canvas, for this frame's own disposal later.
        int x0 = fx < 0 ? 0 : fx, y0 = fy < 0 ? 0 : fy;
        int x1 = fx + fw, y1 = fy + fh;
        if (x1 > (int)self->width) x1 = (int)self->width;
        if (y1 > (int)self->height) y1 = (int)self->height;
        if (x1 < x0) x1 = x0;
        if (y1 < y0) y1 = y0;
        self->px = (uint32_t)x0; self->py = (uint32_t)y0; self->pw = (uint32_t)(x1 - x0); self->ph = (uint32_t)(y1 - y0);
        self->previous_disposal = disposal;
        *delay_cs = delay;
        return 1;
    }
}
