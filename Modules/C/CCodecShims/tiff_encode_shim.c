// TIFF written through libtiff into a temporary file's descriptor, then read back whole.
#include "CCodecShims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <unistd.h>

int osp_tiff_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int components, int bits,
                    uint8_t **out, size_t *out_length, char *error, size_t error_capacity) {
    // Written to a temporary file libtiff seeks in, then read back: libtiff writes by seeking.
    *out = NULL;
    *out_length = 0;
    if (!osp_tiff_available()) { snprintf(error, error_capacity, "libtiff cannot be loaded: %s", osp_tiff_load_error()); return -1; }
    FILE *file = tmpfile();
    if (!file) { snprintf(error, error_capacity, "no temporary file for libtiff"); return -1; }
    // libtiff closes the descriptor it is given: it gets a duplicate, the file is read after.
    int descriptor = dup(fileno(file));
    TIFF *t = descriptor < 0 ? NULL : TIFFFdOpen(descriptor, "osprey.tif", "w");
    if (!t) {
        if (descriptor >= 0) close(descriptor);
        fclose(file);
        snprintf(error, error_capacity, "libtiff cannot start a file");
        return -1;
    }
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, components);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, bits);  // 16-bit samples native-endian, as libtiff writes them
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, components >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(t, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    // Deflate with the horizontal predictor: lossless, and libvips' choice for smaller files.
    TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
    TIFFSetField(t, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    if (components == 4 || components == 2) {
        uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(t, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(t, 0));
    size_t row = (size_t)width * components * (size_t)(bits / 8);
    uint8_t *line = malloc(row);
    int failed = line == NULL;
    for (uint32_t y = 0; y < height && !failed; y++) {
        memcpy(line, pixels + (size_t)y * row, row);
        failed = TIFFWriteScanline(t, line, y, 0) < 0;
    }
    free(line);
    TIFFClose(t);
    long length = failed || fseek(file, 0, SEEK_END) != 0 ? -1 : ftell(file);
    uint8_t *bytes = length > 0 ? malloc((size_t)length) : NULL;
    if (bytes && (fseek(file, 0, SEEK_SET) != 0 || fread(bytes, 1, (size_t)length, file) != (size_t)length)) {
        free(bytes);
        bytes = NULL;
    }
    fclose(file);
    if (!bytes) { snprintf(error, error_capacity, "libtiff could not write the image"); return -1; }
    *out = bytes;
    *out_length = (size_t)length;
    return 0;
}
