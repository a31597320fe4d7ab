#include "CCodecShims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gif_lib.h>

#include "gif_decoder.h"

// giflib reports errors by return codes (no longjmp), so these wrappers only add the
// memory reader, the canvas with its disposal methods, and de-interlacing. Damage is drawn
// as browsers draw it (Docs/CODEC.md): a frame that ends early keeps the rows that arrived,
// a frame without a colour table uses the global one or else a grey ramp, a frame of zero
// width or height is skipped, and a logical screen smaller than the first frame grows to it.


// Walks the block structure; for a file that ends inside a sub-block (or before a block's
// terminator), returns the length of a closed copy's data and where to cut: the last
// sub-block shortened to the bytes that arrived, then a terminator and the trailer. giflib
// only reads whole sub-blocks, so without this a frame cut anywhere in its first 255 bytes
// of pixel data would draw nothing, where browsers draw the rows that arrived.
static size_t osp_gif_open_end(const uint8_t *d, size_t n, size_t *cut_block) {
    *cut_block = SIZE_MAX;
    if (n < 13) return 0;
    size_t pos = 13;
    if (d[10] & 0x80) pos += 3 * ((size_t)2 << (d[10] & 7));
    while (pos < n) {
        uint8_t type = d[pos];
        if (type == 0x3B) return 0;
        if (type == 0x21) {
            pos += 2;
        } else if (type == 0x2C) {
            if (pos + 10 > n) return 0;
            uint8_t flags = d[pos + 9];
            pos += 10;
            if (flags & 0x80) pos += 3 * ((size_t)2 << (flags & 7));
            pos += 1;  // the LZW minimum code size
        } else {
            return 0;  // not a block giflib reads either: it stops there
        }
        for (;;) {
            if (pos >= n) return pos == n ? n : 0;  // cut between sub-blocks: close it
            size_t length = d[pos];
            if (length == 0) { pos++; break; }
            if (pos + 1 + length > n) { *cut_block = pos; return n; }
            pos += 1 + length;
        }
    }
    return 0;
}

// As Chromium reads GIF: a logical screen smaller than the first frame takes the frame's size.
void osp_gif_grow_screen(osp_gif_decoder *self) {
    if (self->frames_seen++ > 0) return;
    const GifImageDesc *desc = &self->gif->Image;
    if (desc->Width > 0 && (uint32_t)desc->Width > self->width) self->width = (uint32_t)desc->Width;
    if (desc->Height > 0 && (uint32_t)desc->Height > self->height) self->height = (uint32_t)desc->Height;
}

// Reads past a frame's pixel data; 0 when it ends early.
int osp_gif_skip_pixels(osp_gif_decoder *self) {
    int size = 0;
    GifByteType *block = NULL;
    if (DGifGetCode(self->gif, &size, &block) == GIF_ERROR) return 0;
    while (block) {
        if (DGifGetCodeNext(self->gif, &block) == GIF_ERROR) return 0;
    }
    return 1;
}

// Reads past the rest of a frame's pixel data once some of it was decompressed; 0 when it
// ends early. giflib itself does this when a frame's last line is read.
int osp_gif_skip_rest(osp_gif_decoder *self) {
    GifByteType *block = NULL;
    do {
        if (DGifGetCodeNext(self->gif, &block) == GIF_ERROR) return 0;
    } while (block);
    return 1;
}

static int osp_gif_read(GifFileType *gif, GifByteType *out, int length) {
    osp_gif_decoder *self = (osp_gif_decoder *)gif->UserData;
    size_t available = self->size - self->offset;
    size_t count = (size_t)length < available ? (size_t)length : available;
    memcpy(out, self->data + self->offset, count);
    self->offset += count;
    return (int)count;
}

void osp_gif_fail(osp_gif_decoder *self, int code) {
    const char *text = GifErrorString(code);
    snprintf(self->message, sizeof self->message, "%s", text ? text : "unreadable data");
}

osp_gif_decoder *osp_gif_open_memory(const uint8_t *data, size_t size) {
    osp_gif_decoder *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    size_t cut_block, end = osp_gif_open_end(data, size, &cut_block);
    if (end > 0 && (self->repaired = malloc(end + 2))) {
        memcpy(self->repaired, data, end);
        if (cut_block != SIZE_MAX) self->repaired[cut_block] = (uint8_t)(end - cut_block - 1);
        self->repaired[end] = 0x00;
        self->repaired[end + 1] = 0x3B;
        data = self->repaired;
        size = end + 2;
    }
    self->data = data;
    self->size = size;
    int error = 0;
    self->gif = DGifOpen(self, osp_gif_read, &error);
    if (!self->gif) {
        osp_gif_fail(self, error);
        return self;  // the caller reads the message from a decoder with no file
    }
    self->width = (uint32_t)(self->gif->SWidth > 0 ? self->gif->SWidth : 0);
    self->height = (uint32_t)(self->gif->SHeight > 0 ? self->gif->SHeight : 0);
    return self;
}

const char *osp_gif_error_message(const osp_gif_decoder *self) { return self->message; }

void osp_gif_close(osp_gif_decoder *self) {
    if (!self) return;
    if (self->gif) DGifCloseFile(self->gif, NULL);
    free(self->saved);
    free(self->line);
    free(self->repaired);
    free(self);
}

// Reads an extension's sub-blocks. A Graphic Control Extension sets the next frame's
// delay, disposal and transparent index; NETSCAPE2.0 gives the loop count.
int osp_gif_extension(osp_gif_decoder *self, int *delay, int *disposal, int *transparent, int *loop) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(self->gif, &code, &block) == GIF_ERROR) return -1;
    int netscape = 0;
    if (block && code == GRAPHICS_EXT_FUNC_CODE && block[0] >= 4) {
        *disposal = (block[1] >> 2) & 7;
        *delay = block[2] | block[3] << 8;
        *transparent = (block[1] & 1) ? block[4] : -1;
    } else if (block && code == APPLICATION_EXT_FUNC_CODE && block[0] >= 11 &&
               (memcmp(block + 1, "NETSCAPE2.0", 11) == 0 || memcmp(block + 1, "ANIMEXTS1.0", 11) == 0)) {
        netscape = 1;
    }
    while (block) {
        if (DGifGetExtensionNext(self->gif, &block) == GIF_ERROR) return -1;
        if (netscape && block && block[0] >= 3 && block[1] == 1) {
            *loop = block[2] | block[3] << 8;
            netscape = 0;
        }
    }
    return 0;
}

int osp_gif_scan(osp_gif_decoder *self, osp_gif_info *info, int max_frames) {
    memset(info, 0, sizeof *info);
    info->loop_count = -1;
    if (!self->gif) return -1;
    int delay = 0, disposal = 0, transparent = -1;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(self->gif, &type) == GIF_ERROR) break;  // truncated: count what is whole
        if (type == TERMINATE_RECORD_TYPE) break;
        if (type == EXTENSION_RECORD_TYPE) {
            if (osp_gif_extension(self, &delay, &disposal, &transparent, &info->loop_count) != 0) break;
            if (transparent >= 0) info->has_transparency = 1;
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(self->gif) == GIF_ERROR) break;
            osp_gif_grow_screen(self);
            int drawable = self->gif->Image.Width > 0 && self->gif->Image.Height > 0;
            int whole = osp_gif_skip_pixels(self);
            if (drawable) {
                // A frame whose data ends early is drawn with what arrived, and is the last.
                if (info->frame_count == 0) info->first_delay = delay;
                info->frame_count++;
                uint64_t area = (uint64_t)self->gif->Image.Width * (uint64_t)self->gif->Image.Height;
                if (area > (uint64_t)info->widest_frame_width * info->widest_frame_height) {
                    info->widest_frame_width = (uint32_t)self->gif->Image.Width;
                    info->widest_frame_height = (uint32_t)self->gif->Image.Height;
                }
                info->frame_pixels += area;
                if (info->frame_count > max_frames) break;  // the caller refuses it
            }
            if (!whole) break;
            delay = 0; disposal = 0; transparent = -1;
        } else {
            break;
        }
    }
    info->width = self->width;
    info->height = self->height;
    if (info->frame_count == 0) {
        snprintf(self->message, sizeof self->message, "no drawable frame in the file");
        return -1;
    }
    return 0;
}
