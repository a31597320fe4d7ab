// An image's palette by libimagequant, as /info's `palette` and `dominant_colors` need it:
// at most `max_colors` RGBA colours, each with how many pixels it stands for.
#include "CCodecShims.h"

#include <libimagequant.h>
#include <stdlib.h>
#include <string.h>

int osp_palette(const uint8_t *rgba, uint32_t width, uint32_t height, int max_colors, uint8_t *colors, uint32_t *counts) {
    if (max_colors < 2 || max_colors > 256 || width == 0 || height == 0) return -1;
    liq_attr *attr = liq_attr_create();
    if (!attr) return -1;
    liq_set_max_colors(attr, max_colors);
    liq_set_speed(attr, 10);
    liq_image *image = liq_image_create_rgba(attr, rgba, (int)width, (int)height, 0);
    liq_result *result = NULL;
    int found = -1;
    uint8_t *indices = malloc((size_t)width * height);
    if (image && indices && liq_image_quantize(image, attr, &result) == LIQ_OK) {
        liq_set_dithering_level(result, 0);
        if (liq_write_remapped_image(result, image, indices, (size_t)width * height) == LIQ_OK) {
            const liq_palette *palette = liq_get_palette(result);
            found = (int)palette->count;
            memset(counts, 0, sizeof(uint32_t) * (size_t)found);
            for (size_t i = 0; i < (size_t)width * height; i++) counts[indices[i]]++;
            for (int i = 0; i < found; i++) {
                colors[i * 4] = palette->entries[i].r;
                colors[i * 4 + 1] = palette->entries[i].g;
                colors[i * 4 + 2] = palette->entries[i].b;
                colors[i * 4 + 3] = palette->entries[i].a;
            }
        }
    }
    free(indices);
    if (result) liq_result_destroy(result);
    if (image) liq_image_destroy(image);
    liq_attr_destroy(attr);
    return found;
}
