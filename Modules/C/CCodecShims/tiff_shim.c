// TIFF through libtiff, read from memory: each handle keeps its own error message (libtiff
// 4.5's per-handle handlers) and bounds libtiff's own allocations.
#include "CCodecShims.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <unistd.h>

// What a strip or tile may take beyond its page's samples: tiles are multiples of 16 a side
// and may overhang the page (a 100x100 page in 512x512 RGBA tiles takes 1 MiB a tile).
static const uint64_t osp_tiff_chunk_slack = 8u << 20;

struct osp_tiff {
    TIFF *tiff;
    const uint8_t *data;
    size_t size;
    uint64_t offset;
    char message[256];
};

static tmsize_t osp_tiff_read(thandle_t handle, void *buffer, tmsize_t count) {
    struct osp_tiff *self = handle;
    if (self->offset >= self->size) return 0;
    size_t left = self->size - (size_t)self->offset;
    size_t n = (size_t)count < left ? (size_t)count : left;
    memcpy(buffer, self->data + self->offset, n);
    self->offset += n;
    return (tmsize_t)n;
}

static tmsize_t osp_tiff_write(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle; (void)buffer; (void)count;
    return -1;
}

static toff_t osp_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    struct osp_tiff *self = handle;
    uint64_t base = whence == SEEK_CUR ? self->offset : whence == SEEK_END ? self->size : 0;
    self->offset = base + offset;
    return self->offset;
}

static int osp_tiff_close_proc(thandle_t handle) { (void)handle; return 0; }
static toff_t osp_tiff_size(thandle_t handle) { return ((struct osp_tiff *)handle)->size; }
static int osp_tiff_map(thandle_t handle, void **base, toff_t *size) {
    struct osp_tiff *self = handle;
    *base = (void *)self->data;
    *size = self->size;
    return 1;
}
static void osp_tiff_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int osp_tiff_error(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
    (void)tiff; (void)module;
    struct osp_tiff *self = user;
    if (!self->message[0]) vsnprintf(self->message, sizeof self->message, format, args);
    return 1;
}

static int osp_tiff_warning(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
    (void)tiff; (void)user; (void)module; (void)format; (void)args;
    return 1;
}

osp_tiff *osp_tiff_open(const uint8_t *data, size_t size, char *error, size_t error_capacity) {
    if (!osp_tiff_available()) { snprintf(error, error_capacity, "libtiff cannot be loaded: %s", osp_tiff_load_error()); return NULL; }
    struct osp_tiff *self = calloc(1, sizeof *self);
    if (!self) { snprintf(error, error_capacity, "out of memory"); return NULL; }
    self->data = data;
    self->size = size;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) { free(self); snprintf(error, error_capacity, "out of memory"); return NULL; }
    // libtiff's own buffers (strips, tiles, tables) stay under 256 MB each; pixels are ours.
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, 256 << 20);
    TIFFOpenOptionsSetErrorHandlerExtR(options, osp_tiff_error, self);
    TIFFOpenOptionsSetWarningHandlerExtR(options, osp_tiff_warning, self);
    self->tiff = TIFFClientOpenExt("memory", "rm", self, osp_tiff_read, osp_tiff_write, osp_tiff_seek, osp_tiff_close_proc,
                                   osp_tiff_size, osp_tiff_map, osp_tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    if (!self->tiff) {
        snprintf(error, error_capacity, "%s", self->message[0] ? self->message : "libtiff cannot read the header");
        free(self);
        return NULL;
    }
    return self;
}

// Makes `page` the current directory; -1 with `error` set when there is none such.
static int osp_tiff_select(osp_tiff *self, int page, char *error, size_t error_capacity) {
    if (TIFFSetDirectory(self->tiff, (tdir_t)page)) return 0;
    snprintf(error, error_capacity, "%s", self->message[0] ? self->message : "no such page");
    return -1;
}

int osp_tiff_page_count(osp_tiff *self) { return (int)TIFFNumberOfDirectories(self->tiff); }

int osp_tiff_read_info(osp_tiff *self, int page, osp_tiff_info *info, char *error, size_t error_capacity) {
    memset(info, 0, sizeof *info);
    if (osp_tiff_select(self, page, error, error_capacity) != 0) return -1;
    TIFF *t = self->tiff;
    uint16_t orientation = ORIENTATION_TOPLEFT, photometric = 0, samples = 1, bits = 1, planar = PLANARCONFIG_CONTIG, inkset = INKSET_CMYK;
    uint16_t extra_count = 0, *extra = NULL;
    TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &info->width);
    TIFFGetField(t, TIFFTAG_IMAGELENGTH, &info->height);
    TIFFGetFieldDefaulted(t, TIFFTAG_ORIENTATION, &orientation);
    TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &photometric);
    TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(t, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(t, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(t, TIFFTAG_INKSET, &inkset);
    TIFFGetFieldDefaulted(t, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    uint32_t icc_length = 0;
    void *icc = NULL;
    if (TIFFGetField(t, TIFFTAG_ICCPROFILE, &icc_length, &icc) && icc && icc_length > 0) {
        info->icc = icc;
        info->icc_length = icc_length;
    }
    info->orientation = orientation;
    info->bits = bits;
    info->has_alpha = extra_count > 0 && (extra[0] == EXTRASAMPLE_ASSOCALPHA || extra[0] == EXTRASAMPLE_UNASSALPHA
                                          || (extra[0] == EXTRASAMPLE_UNSPECIFIED && samples > (photometric == PHOTOMETRIC_SEPARATED ? 4 : 3)));
    info->is_cmyk = photometric == PHOTOMETRIC_SEPARATED && inkset == INKSET_CMYK && samples == 4 + extra_count
                    && bits == 8 && planar == PLANARCONFIG_CONTIG && extra_count == 0;
    uint16_t format = SAMPLEFORMAT_UINT;
    TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLEFORMAT, &format);
    int colours = photometric == PHOTOMETRIC_RGB ? 3 : photometric == PHOTOMETRIC_MINISBLACK ? 1 : 0;
    int straight = extra_count == 0 || (extra_count == 1 && extra[0] == EXTRASAMPLE_UNASSALPHA);
    if (bits == 16 && format == SAMPLEFORMAT_UINT && planar == PLANARCONFIG_CONTIG && colours && straight && samples == colours + extra_count) {
        info->deep_samples = samples;
    }
    char message[1024];
    if (!TIFFRGBAImageOK(t, message)) {
        snprintf(error, error_capacity, "%s", message);
        return -1;
    }
    // A strip or tile is decoded whole into one buffer, so its declared size is bounded by the
    // page it belongs to: a 16x16 page cannot ask for a 32768x32768 tile.
    uint64_t chunk = TIFFIsTiled(t) ? (uint64_t)TIFFTileSize64(t) : (uint64_t)TIFFStripSize64(t);
    uint64_t samples_bytes = (uint64_t)TIFFScanlineSize64(t) * info->height * (planar == PLANARCONFIG_SEPARATE ? samples : 1);
    if (chunk == 0 || chunk > samples_bytes + osp_tiff_chunk_slack) {
        snprintf(error, error_capacity, "a %s of %llu bytes for a %ux%u page", TIFFIsTiled(t) ? "tile" : "strip",
                 (unsigned long long)chunk, info->width, info->height);
        return -1;
    }
    info->chunk_bytes = chunk;
    return 0;
}

int osp_tiff_read_rgba(osp_tiff *self, int page, uint8_t *rgba, char *error, size_t error_capacity) {
    TIFF *t = self->tiff;
    if (osp_tiff_select(self, page, error, error_capacity) != 0) return -1;
    char message[1024];
    TIFFRGBAImage image;
    if (!TIFFRGBAImageBegin(&image, t, 0, message)) {
        snprintf(error, error_capacity, "%s", message);
        return -1;
    }
    // Rows as stored: the orientation is applied by the caller, as EXIF's is.
    image.req_orientation = image.orientation;
    int ok = TIFFRGBAImageGet(&image, (uint32_t *)rgba, image.width, image.height);
    TIFFRGBAImageEnd(&image);
    if (!ok) {
        snprintf(error, error_capacity, "%s", self->message[0] ? self->message : "libtiff cannot read the pixels");
        return -1;
    }
    // libtiff packs R in the low byte of each word: little-endian words are R, G, B, A bytes.
    for (size_t i = 0; i < (size_t)image.width * image.height; i++) {
        uint32_t word;
        memcpy(&word, rgba + 4 * i, 4);
        uint8_t pixel[4] = {(uint8_t)TIFFGetR(word), (uint8_t)TIFFGetG(word), (uint8_t)TIFFGetB(word), (uint8_t)TIFFGetA(word)};
        memcpy(rgba + 4 * i, pixel, 4);
    }
    return 0;
}

int osp_tiff_read_samples(osp_tiff *self, int page, uint8_t *out, int pixel_bytes, char *error, size_t error_capacity) {
    TIFF *t = self->tiff;
    if (osp_tiff_select(self, page, error, error_capacity) != 0) return -1;
    uint32_t width = 0, height = 0;
    TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(t, TIFFTAG_IMAGELENGTH, &height);
    size_t row = (size_t)width * (size_t)pixel_bytes;
    if (TIFFIsTiled(t)) {
        uint32_t tw = 0, th = 0;
        TIFFGetField(t, TIFFTAG_TILEWIDTH, &tw);
        TIFFGetField(t, TIFFTAG_TILELENGTH, &th);
        tmsize_t tile_size = TIFFTileSize(t);
        if (tw == 0 || th == 0 || tile_size < (tmsize_t)((size_t)tw * th * pixel_bytes)) {
            snprintf(error, error_capacity, "tiles of %ux%u do not hold the samples", tw, th);
            return -1;
        }
        uint8_t *tile = malloc((size_t)tile_size);
        if (!tile) { snprintf(error, error_capacity, "out of memory"); return -1; }
        for (uint32_t y = 0; y < height; y += th) {
            for (uint32_t x = 0; x < width; x += tw) {
                if (TIFFReadTile(t, tile, x, y, 0, 0) < 0) {
                    free(tile);
                    snprintf(error, error_capacity, "%s", self->message[0] ? self->message : "libtiff cannot read a tile");
                    return -1;
                }
                uint32_t w = x + tw > width ? width - x : tw, h = y + th > height ? height - y : th;
                for (uint32_t r = 0; r < h; r++) {
                    memcpy(out + (size_t)(y + r) * row + (size_t)x * pixel_bytes, tile + (size_t)r * tw * pixel_bytes, (size_t)w * pixel_bytes);
                }
            }
        }
        free(tile);
        return 0;
    }
    if (TIFFScanlineSize(t) < (tmsize_t)row) {
        snprintf(error, error_capacity, "rows do not hold the samples");
        return -1;
    }
    for (uint32_t y = 0; y < height; y++) {
        if (TIFFReadScanline(t, out + (size_t)y * row, y, 0) < 0) {
            snprintf(error, error_capacity, "%s", self->message[0] ? self->message : "libtiff cannot read a row");
            return -1;
        }
    }
    return 0;
}

void osp_tiff_close(osp_tiff *self) {
    if (!self) return;
    TIFFClose(self->tiff);
    free(self);
}
