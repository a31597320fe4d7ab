// GIF encoding: each frame quantised by libimagequant, written by cgif (as libvips does).
#include "CCodecShims.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cgif.h>
#include <libimagequant.h>

// 255 colours leave one index free for pixels that do not change from the frame before.
enum { osp_gif_colours = 255 };
// A palette is used again while its colours are this close to the frame's own (RMS, 0…255).
static const double osp_gif_palette_drift = 3.0;

struct osp_gif_output {
    uint8_t *data;
    size_t length, capacity;
};

static int osp_gif_write(void *context, const uint8_t *bytes, const size_t count) {
    struct osp_gif_output *out = context;
    if (out->capacity - out->length < count) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (capacity - out->length < count) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) return -1;
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->length, bytes, count);
    out->length += count;
    return 0;
}

// A palette libimagequant keeps as it is while remapping: the palette's colours quantised as
// an image of their own, as many colours as it has.
static liq_result *osp_gif_fixed(liq_attr *attr, const liq_palette *palette) {
    liq_color colours[256];
    memcpy(colours, palette->entries, palette->count * sizeof(liq_color));
    liq_image *image = liq_image_create_rgba(attr, colours, (int)palette->count, 1, 0);
    if (!image) return NULL;
    liq_result *result = NULL;
    if (liq_image_quantize(image, attr, &result) != LIQ_OK) result = NULL;
    liq_image_destroy(image);
    return result;
}

// How far `palette`'s colours are from the nearest of `other`'s (RMS per channel); a
// transparent entry is nearest to a transparent one.
static double osp_gif_distance(const liq_palette *palette, const liq_palette *other) {
    double total = 0;
    for (unsigned i = 0; i < palette->count; i++) {
        liq_color a = palette->entries[i];
        double best = 255.0 * 255.0 * 3;
        for (unsigned j = 0; j < other->count && best > 0; j++) {
            liq_color b = other->entries[j];
            if (!a.a || !b.a) {
                if (!a.a && !b.a) best = 0;
                continue;
            }
            double r = a.r - b.r, g = a.g - b.g, bl = a.b - b.b;
            double d = r * r + g * g + bl * bl;
            if (d < best) best = d;
        }
        total += best;
    }
    return palette->count ? sqrt(total / (3.0 * palette->count)) : 0;
}

static void osp_gif_rgb(const liq_palette *palette, uint8_t *rgb) {
    for (unsigned i = 0; i < palette->count; i++) {
        rgb[3 * i] = palette->entries[i].r;
        rgb[3 * i + 1] = palette->entries[i].g;
        rgb[3 * i + 2] = palette->entries[i].b;
    }
}

int osp_gif_encode(const uint8_t *const *frames, size_t frame_count, uint32_t width, uint32_t height,
                   const uint16_t *delays, int loop_count, double dither, int speed,
                   uint8_t **out, size_t *out_length, char *error, size_t error_capacity) {
    *out = NULL;
    *out_length = 0;
    if (frame_count == 0 || width == 0 || height == 0 || width > 65535 || height > 65535
        || (uint64_t)width * height > INT32_MAX / 4) {
        snprintf(error, error_capacity, "a GIF frame is at most 65535 pixels a side");
        return -1;
    }
    size_t pixels = (size_t)width * height;
    uint8_t *frame = malloc(pixels * 4), *previous = malloc(pixels * 4), *index = malloc(pixels);
    liq_attr *attr = liq_attr_create();
    struct osp_gif_output output = {0};
    CGIF *gif = NULL;
    liq_result *global = NULL, *local = NULL;
    const char *failure = NULL;
    if (!frame || !previous || !index || !attr) { failure = "out of memory"; goto done; }
    liq_set_max_colors(attr, osp_gif_colours);
    liq_set_quality(attr, 0, 100);
    liq_set_speed(attr, speed);

    for (size_t n = 0; n < frame_count && !failure; n++) {
        // GIF has no partial transparency: alpha is cut at half, transparent pixels made one colour.
        memcpy(frame, frames[n], pixels * 4);
        int alpha_appears = 0;
        for (size_t i = 0; i < pixels; i++) {
            uint8_t *p = frame + 4 * i;
            if (p[3] >= 128) { p[3] = 255; continue; }
            memset(p, 0, 4);
            if (n > 0 && previous[4 * i + 3]) alpha_appears = 1;
        }
        liq_image *image = liq_image_create_rgba(attr, frame, (int)width, (int)height, 0);
        liq_result *own = NULL;
        if (!image || liq_image_quantize(image, attr, &own) != LIQ_OK) {
            if (image) liq_image_destroy(image);
            failure = "libimagequant could not quantise a frame";
            break;
        }
        liq_result *fixed = osp_gif_fixed(attr, liq_get_palette(own));
        liq_result_destroy(own);
        if (!fixed) { liq_image_destroy(image); failure = "libimagequant could not fix a palette"; break; }
        // The first frame's palette is the global one; later frames take it, or the last
        // local one, while their own colours stay close to it, and otherwise their own.
        liq_result *chosen;
        int uses_local;
        if (!global) {
            global = fixed;
            chosen = global;
            uses_local = 0;
        } else {
            const liq_palette *mine = liq_get_palette(fixed);
            double to_global = osp_gif_distance(mine, liq_get_palette(global));
            double to_local = local ? osp_gif_distance(mine, liq_get_palette(local)) : INFINITY;
            if (to_global <= to_local && to_global < osp_gif_palette_drift) {
                liq_result_destroy(fixed);
                chosen = global;
                uses_local = 0;
            } else if (to_local < osp_gif_palette_drift) {
                liq_result_destroy(fixed);
                chosen = local;
                uses_local = 1;
            } else {
                if (local) liq_result_destroy(local);
                local = fixed;
                chosen = local;
                uses_local = 1;
            }
        }
        liq_set_dithering_level(chosen, (float)dither);
        liq_error remapped = liq_write_remapped_image(chosen, image, index, pixels);
        liq_image_destroy(image);
        if (remapped != LIQ_OK) { failure = "libimagequant could not remap a frame"; break; }
        const liq_palette *palette = liq_get_palette(chosen);
        uint8_t rgb[256 * 3];
        osp_gif_rgb(palette, rgb);
        // Transparent pixels were made one colour: at most one entry is transparent.
        int transparent = -1;
        for (unsigned i = 0; i < palette->count && transparent < 0; i++) {
            if (palette->entries[i].a == 0) transparent = (int)i;
        }

        if (!gif) {
            CGIF_Config config = {0};
            // cgif writes a frame's transparency only in an animated GIF (as libvips, a still is one frame).
            config.attrFlags = CGIF_ATTR_IS_ANIMATED;
            if (frame_count > 1 && loop_count == 1) config.attrFlags |= CGIF_ATTR_NO_LOOP;
            config.numLoops = (uint16_t)(loop_count > 1 ? (loop_count - 1 > 65535 ? 65535 : loop_count - 1) : 0);
            config.width = (uint16_t)width;
            config.height = (uint16_t)height;
            config.pGlobalPalette = rgb;
            config.numGlobalPaletteEntries = (uint16_t)palette->count;
            config.pWriteFn = osp_gif_write;
            config.pContext = &output;
            if (!(gif = cgif_newgif(&config))) { failure = "cgif could not start the GIF"; break; }
        }
        CGIF_FrameConfig frame_config = {0};
        frame_config.genFlags = CGIF_FRAME_GEN_USE_TRANSPARENCY | CGIF_FRAME_GEN_USE_DIFF_WINDOW;
        if (transparent >= 0) {
            frame_config.attrFlags |= CGIF_FRAME_ATTR_HAS_ALPHA;
            frame_config.transIndex = (uint8_t)transparent;
        }
        if (n > 0 && !alpha_appears) {
            // Pixels as they were in the frame before are left to show through: a free index
            // (or the transparent colour) is this frame's transparency.
            uint8_t keep = (uint8_t)(transparent >= 0 ? transparent : (int)palette->count);
            for (size_t i = 0; i < pixels; i++) {
                if (memcmp(previous + 4 * i, frame + 4 * i, 4) == 0) index[i] = keep;
                else memcpy(previous + 4 * i, frame + 4 * i, 4);
            }
            frame_config.attrFlags &= ~(uint32_t)CGIF_FRAME_ATTR_HAS_ALPHA;
            frame_config.attrFlags |= CGIF_FRAME_ATTR_HAS_SET_TRANS;
            frame_config.transIndex = keep;
        } else {
            memcpy(previous, frame, pixels * 4);
        }
        frame_config.delay = delays ? delays[n] : 0;
        if (uses_local) {
            frame_config.attrFlags |= CGIF_FRAME_ATTR_USE_LOCAL_TABLE;
            frame_config.pLocalPalette = rgb;
            frame_config.numLocalPaletteEntries = (uint16_t)palette->count;
        }
        frame_config.pImageData = index;
        if (cgif_addframe(gif, &frame_config) != CGIF_OK) failure = "cgif could not add a frame";
    }

done:
    if (gif && cgif_close(gif) != CGIF_OK && !failure) failure = "cgif could not finish the GIF";
    if (local) liq_result_destroy(local);
    if (global) liq_result_destroy(global);
    if (attr) liq_attr_destroy(attr);
    free(frame);
    free(previous);
    free(index);
    if (failure) {
        snprintf(error, error_capacity, "%s", failure);
        free(output.data);
        return -1;
    }
    *out = output.data;
    *out_length = output.length;
    return 0;
}
