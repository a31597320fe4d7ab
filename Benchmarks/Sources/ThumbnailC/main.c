// A yardstick for the batch comparison: one image file to a 256x256 (fit) thumbnail in the
// same format, with nothing but the codec library around it — libjpeg-turbo's DCT scaling
// for JPEG, libwebp's scaled decoding for WebP — encoded in memory and written to OUT.
// usage: ThumbnailC INPUT OUT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <webp/decode.h>
#include <webp/encode.h>

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc(*size);
    if (fread(data, 1, *size, f) != *size) { free(data); data = NULL; }
    fclose(f);
    return data;
}

static void fit(int w, int h, int *ow, int *oh) {
    double s = 256.0 / (w > h ? w : h);
    if (s > 1) s = 1;
    *ow = (int)(w * s + 0.5);
    *oh = (int)(h * s + 0.5);
}

static int write_file(const char *path, const unsigned char *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    size_t n = fwrite(data, 1, size, f);
    fclose(f);
    return n == size ? 0 : 1;
}

static int jpeg(const unsigned char *data, size_t size, const char *out) {
    struct jpeg_decompress_struct d;
    struct jpeg_error_mgr err;
    d.err = jpeg_std_error(&err);
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, data, size);
    jpeg_read_header(&d, TRUE);
    // The largest DCT scale that still covers 256 px on the long side.
    int side = d.image_width > d.image_height ? d.image_width : d.image_height;
    d.scale_num = 1;
    d.scale_denom = 8;
    while (d.scale_denom > 1 && side / d.scale_denom < 256) d.scale_denom /= 2;
    d.out_color_space = JCS_RGB;
    jpeg_start_decompress(&d);
    int w = d.output_width, h = d.output_height;
    unsigned char *pixels = malloc((size_t)w * h * 3);
    while (d.output_scanline < d.output_height) {
        unsigned char *row = pixels + (size_t)d.output_scanline * w * 3;
        jpeg_read_scanlines(&d, &row, 1);
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    // A box reduction to the thumbnail's size (the decode did the heavy reduction).
    int ow, oh;
    fit(w, h, &ow, &oh);
    unsigned char *thumb = malloc((size_t)ow * oh * 3);
    for (int y = 0; y < oh; y++)
        for (int x = 0; x < ow; x++)
            for (int c = 0; c < 3; c++)
                thumb[((size_t)y * ow + x) * 3 + c] = pixels[((size_t)(y * h / oh) * w + (x * w / ow)) * 3 + c];
    struct jpeg_compress_struct e;
    e.err = jpeg_std_error(&err);
    jpeg_create_compress(&e);
    unsigned char *encoded = NULL;
    unsigned long encoded_size = 0;
    jpeg_mem_dest(&e, &encoded, &encoded_size);
    e.image_width = ow;
    e.image_height = oh;
    e.input_components = 3;
    e.in_color_space = JCS_RGB;
    jpeg_set_defaults(&e);
    jpeg_set_quality(&e, 80, TRUE);
    jpeg_start_compress(&e, TRUE);
    while (e.next_scanline < e.image_height) {
        unsigned char *row = thumb + (size_t)e.next_scanline * ow * 3;
        jpeg_write_scanlines(&e, &row, 1);
    }
    jpeg_finish_compress(&e);
    jpeg_destroy_compress(&e);
    int status = write_file(out, encoded, encoded_size);
    free(encoded);
    free(thumb);
    free(pixels);
    return status;
}

static int webp(const unsigned char *data, size_t size, const char *out) {
    WebPDecoderConfig config;
    WebPInitDecoderConfig(&config);
    if (WebPGetFeatures(data, size, &config.input) != VP8_STATUS_OK) return 1;
    int ow, oh;
    fit(config.input.width, config.input.height, &ow, &oh);
    config.options.use_scaling = 1;
    config.options.scaled_width = ow;
    config.options.scaled_height = oh;
    config.output.colorspace = MODE_RGB;
    if (WebPDecode(data, size, &config) != VP8_STATUS_OK) return 1;
    unsigned char *encoded = NULL;
    size_t encoded_size = WebPEncodeRGB(config.output.u.RGBA.rgba, ow, oh, config.output.u.RGBA.stride, 80, &encoded);
    WebPFreeDecBuffer(&config.output);
    int status = encoded_size ? write_file(out, encoded, encoded_size) : 1;
    WebPFree(encoded);
    return status;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: ThumbnailC INPUT OUT\n"); return 64; }
    size_t size;
    unsigned char *data = read_file(argv[1], &size);
    if (!data) { perror(argv[1]); return 66; }
    const char *dot = strrchr(argv[1], '.');
    int status = dot && strcmp(dot, ".webp") == 0 ? webp(data, size, argv[2]) : jpeg(data, size, argv[2]);
    free(data);
    return status;
}
