#include "CCodecShims.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

// Progressive files may hold any number of scans, each re-decoding the whole image: a few
// hundred bytes can cost minutes of CPU. Real encoders emit about ten; refuse past this.
#define OSP_JPEG_MAX_SCANS 1000

struct osp_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr jerr;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    FILE *file;
    int accepts_truncation;
};

// libjpeg calls error_exit on a fatal error and expects it never to return.
static void osp_jpeg_error_exit(j_common_ptr cinfo) {
    osp_jpeg_decoder *self = (osp_jpeg_decoder *)cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, self->message);
    longjmp(self->jump, 1);
}

// Warnings (level -1) are ignored — garbage before a marker still gives a good image — except
// a premature end of file, which libjpeg would otherwise paper over with grey rows.
static void osp_jpeg_emit_message(j_common_ptr cinfo, int level) {
    osp_jpeg_decoder *self = (osp_jpeg_decoder *)cinfo->client_data;
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF && !self->accepts_truncation) {
        osp_jpeg_error_exit(cinfo);
    }
}

static void osp_jpeg_progress(j_common_ptr cinfo) {
    if (cinfo->is_decompressor) {
        j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
        if (dinfo->input_scan_number > OSP_JPEG_MAX_SCANS) {
            osp_jpeg_decoder *self = (osp_jpeg_decoder *)cinfo->client_data;
            snprintf(self->message, sizeof self->message, "more than %d progressive scans", OSP_JPEG_MAX_SCANS);
            longjmp(self->jump, 1);
        }
    }
}

static osp_jpeg_decoder *osp_jpeg_create(void) {
    osp_jpeg_decoder *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->cinfo.err = jpeg_std_error(&self->jerr);
    self->jerr.error_exit = osp_jpeg_error_exit;
    self->jerr.emit_message = osp_jpeg_emit_message;
    self->cinfo.client_data = self;
    if (setjmp(self->jump)) {  // jpeg_create_decompress fails only when out of memory
        jpeg_destroy_decompress(&self->cinfo);
        free(self);
        return NULL;
    }
    jpeg_create_decompress(&self->cinfo);
    self->progress.progress_monitor = osp_jpeg_progress;
    self->cinfo.progress = &self->progress;
    jpeg_save_markers(&self->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&self->cinfo, JPEG_APP0 + 2, 0xFFFF);
    return self;
}

osp_jpeg_decoder *osp_jpeg_open_memory(const uint8_t *data, size_t size) {
    osp_jpeg_decoder *self = osp_jpeg_create();
    if (!self) return NULL;
    if (setjmp(self->jump)) {  // jpeg_mem_src errors on empty input
        osp_jpeg_close(self);
        return NULL;
    }
    jpeg_mem_src(&self->cinfo, data, (unsigned long)size);
    return self;
}

osp_jpeg_decoder *osp_jpeg_open_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    osp_jpeg_decoder *self = osp_jpeg_create();
    if (!self) {
        fclose(file);
        return NULL;
    }
    self->file = file;
    jpeg_stdio_src(&self->cinfo, file);
    return self;
}

int osp_jpeg_read_header(osp_jpeg_decoder *self, osp_jpeg_header *header) {
    if (setjmp(self->jump)) return -1;
    jpeg_read_header(&self->cinfo, TRUE);
    struct jpeg_decompress_struct *c = &self->cinfo;
    header->width = c->image_width;
    header->height = c->image_height;
    header->components = c->num_components;
    header->color_space = c->jpeg_color_space;
    header->is_cmyk = c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK;
    header->adobe_inverted = c->saw_Adobe_marker;
    header->progressive = c->progressive_mode;
    header->precision = c->data_precision;
    size_t blocks = 0;
    for (int i = 0; i < c->num_components; i++) blocks += (size_t)c->comp_info[i].width_in_blocks * c->comp_info[i].height_in_blocks;
    header->coefficient_bytes = c->progressive_mode ? blocks * sizeof(JBLOCK) : 0;
    return 0;
}

static void osp_jpeg_set_output(struct jpeg_decompress_struct *c, unsigned scale_denom) {
    c->scale_num = 1;
    c->scale_denom = scale_denom;
    c->dct_method = JDCT_ISLOW;
    c->do_fancy_upsampling = TRUE;
    if (c->jpeg_color_space == JCS_GRAYSCALE) c->out_color_space = JCS_GRAYSCALE;
    else if (c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK) c->out_color_space = JCS_CMYK;
    else c->out_color_space = JCS_RGB;
}

static void osp_jpeg_output_size(const struct jpeg_decompress_struct *c, uint32_t *out_width, uint32_t *out_height,
                                 int *out_components) {
    *out_width = c->output_width;
    *out_height = c->output_height;
    *out_components = c->output_components;
}

int osp_jpeg_start(osp_jpeg_decoder *self, unsigned scale_denom, uint32_t *out_width, uint32_t *out_height, int *out_components) {
    if (setjmp(self->jump)) return -1;
    struct jpeg_decompress_struct *c = &self->cinfo;
    osp_jpeg_set_output(c, scale_denom);
    jpeg_start_decompress(c);
    osp_jpeg_output_size(c, out_width, out_height, out_components);
    return 0;
}

int osp_jpeg_start_first_scans(osp_jpeg_decoder *self, uint32_t *out_width, uint32_t *out_height, int *out_components) {
    if (setjmp(self->jump)) return -1;
    struct jpeg_decompress_struct *c = &self->cinfo;
    if (!c->progressive_mode) return 1;
    osp_jpeg_set_output(c, 8);
    // At 1/8 a block is its DC term (chroma keeps a 2×2 IDCT, so a few AC terms are missed).
    // Buffered-image mode shows the scans read so far; smoothing would guess the AC terms.
    c->buffered_image = TRUE;
    c->do_block_smoothing = FALSE;
    jpeg_start_decompress(c);
    for (;;) {
        int all = 1;
        for (int i = 0; i < c->num_components; i++) all &= c->coef_bits[i][0] >= 0;
        if (all) break;
        int status = jpeg_consume_input(c);
        if (status == JPEG_REACHED_EOI || status == JPEG_SUSPENDED) break;
    }
    jpeg_start_output(c, c->input_scan_number);
    osp_jpeg_output_size(c, out_width, out_height, out_components);
    return 0;
}

int osp_jpeg_read_rows(osp_jpeg_decoder *self, uint8_t *buffer, size_t stride, int max_rows) {
    if (setjmp(self->jump)) return -1;
    struct jpeg_decompress_struct *c = &self->cinfo;
    int read = 0;
    while (read < max_rows && c->output_scanline < c->output_height) {
        JSAMPROW rows[4];
        int want = max_rows - read < 4 ? max_rows - read : 4;
        for (int i = 0; i < want; i++) rows[i] = buffer + (size_t)(read + i) * stride;
        read += (int)jpeg_read_scanlines(c, rows, (JDIMENSION)want);
    }
    return read;
}

void osp_jpeg_accept_truncation(osp_jpeg_decoder *self, int accept) { self->accepts_truncation = accept; }

const uint8_t *osp_jpeg_exif(osp_jpeg_decoder *self, size_t *length) {
    for (jpeg_saved_marker_ptr m = self->cinfo.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length > 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            *length = m->data_length - 6;
            return m->data + 6;
        }
    }
    *length = 0;
    return NULL;
}

uint8_t *osp_jpeg_icc(osp_jpeg_decoder *self, size_t *length) {
    *length = 0;
    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    if (setjmp(self->jump)) return NULL;
    // libjpeg-turbo checks the sequence numbers and counts; a broken set gives FALSE.
    if (!jpeg_read_icc_profile(&self->cinfo, &icc, &icc_length) || !icc) return NULL;
    *length = icc_length;
    return icc;
}

const char *osp_jpeg_error_message(const osp_jpeg_decoder *self) { return self->message; }

void osp_jpeg_close(osp_jpeg_decoder *self) {
    if (!self) return;
    jpeg_destroy_decompress(&self->cinfo);
    if (self->file) fclose(self->file);
    free(self);
}

void osp_free(void *pointer) { free(pointer); }
