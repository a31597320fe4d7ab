// JPEG out through libjpeg-turbo, its fatal errors kept on the C side as the decoder's are.
#include "CCodecShims.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

struct osp_jpeg_encoder {
    struct jpeg_error_mgr jerr;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static void osp_jpeg_encode_error_exit(j_common_ptr cinfo) {
    struct osp_jpeg_encoder *self = (struct osp_jpeg_encoder *)cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, self->message);
    longjmp(self->jump, 1);
}

int osp_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int components,
                    int quality, int progressive, const uint8_t *icc, size_t icc_length,
                    uint8_t **out, size_t *out_length, char *error, size_t error_capacity) {
    struct jpeg_compress_struct cinfo;
    struct osp_jpeg_encoder self;
    unsigned char *buffer = NULL;
    unsigned long length = 0;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&self.jerr);
    self.jerr.error_exit = osp_jpeg_encode_error_exit;
    cinfo.client_data = &self;
    if (setjmp(self.jump)) {
        snprintf(error, error_capacity, "%s", self.message);
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer, &length);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 3 ? JCS_RGB : JCS_EXT_RGBX;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (icc && icc_length > 0) jpeg_write_icc_profile(&cinfo, icc, (unsigned int)icc_length);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *out_length = length;
    return 0;
}
