#ifndef OSP_GIF_DECODER_H
#define OSP_GIF_DECODER_H

#include <stdint.h>
#include <stddef.h>
#include <gif_lib.h>

#include "CCodecShims.h"

// The GIF reader's state, shared by gif_shim.c (opening, the block structure, extensions)
// and gif_frames.c (drawing frames onto the canvas).
struct osp_gif_decoder {
    GifFileType *gif;
    const uint8_t *data;
    size_t size;
    size_t offset;
    char message[128];
    uint32_t width, height;
    // The previous frame's disposal and rectangle (clipped to the canvas), applied before
    // the next frame is drawn; `saved` holds the canvas for DISPOSE_PREVIOUS.
    int previous_disposal;
    uint32_t px, py, pw, ph;
    uint8_t *saved;
    GifByteType *line;
    int frames_seen;  // image descriptors read, for growing the screen to the first one
    int ended;        // a frame ended early: nothing follows it
    uint8_t *repaired;  // a copy of a file cut inside a data sub-block, closed where it ends
};

void osp_gif_grow_screen(osp_gif_decoder *self);
int osp_gif_skip_pixels(osp_gif_decoder *self);
int osp_gif_skip_rest(osp_gif_decoder *self);
void osp_gif_fail(osp_gif_decoder *self, int code);
int osp_gif_extension(osp_gif_decoder *self, int *delay, int *disposal, int *transparent, int *loop);

#endif
