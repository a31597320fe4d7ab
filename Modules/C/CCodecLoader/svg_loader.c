// librsvg, with cairo and GLib beneath it, opened on first use. Unlike the other loaders this
// one defines no forwarders under the libraries' own names: librsvg's own calls into cairo and
// GLib must never resolve to functions of ours. The few declarations it needs are its own,
// from librsvg 2.54's and cairo's stable C API, so no GLib headers are needed to build.
#include <stdint.h>
#include <string.h>

#include "CCodecLoader.h"
#include "loader.h"

static const char *const names[] = {"librsvg-2.so.2", "librsvg-2.so", NULL};

typedef struct { uint32_t domain; int code; char *message; } osp_gerror;
typedef struct { double x, y, width, height; } osp_rsvg_rectangle;
typedef struct { int width, height; double em, ex; } osp_rsvg_dimensions;
enum { osp_cairo_argb32 = 0 };

static struct {
    void *(*new_from_data)(const uint8_t *data, size_t size, osp_gerror **error);
    void (*set_dpi)(void *handle, double dpi);
    int (*intrinsic_size_in_pixels)(void *handle, double *width, double *height);
    void (*dimensions)(void *handle, osp_rsvg_dimensions *dimensions);
    int (*render_document)(void *handle, void *cairo, const osp_rsvg_rectangle *viewport, osp_gerror **error);
    void (*object_unref)(void *object);
    void (*error_free)(osp_gerror *error);
    void *(*surface_create_for_data)(unsigned char *data, int format, int width, int height, int stride);
    void (*surface_flush)(void *surface);
    void (*surface_destroy)(void *surface);
    int (*surface_status)(void *surface);
    void *(*create)(void *surface);
    void (*destroy)(void *cairo);
} rsvg;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *load_error;

// dlsym on librsvg's handle finds cairo's and GLib's functions too: they are its dependencies.
#define OSP_SVG_RESOLVE(field, symbol) \
    if (!(*(void **)&rsvg.field = dlsym(handle, symbol))) { load_error = dlerror(); return; }

static void load(void) {
    void *handle = osp_open_first(names, &load_error);
    if (!handle) return;
    OSP_SVG_RESOLVE(new_from_data, "rsvg_handle_new_from_data")
    OSP_SVG_RESOLVE(set_dpi, "rsvg_handle_set_dpi")
    OSP_SVG_RESOLVE(intrinsic_size_in_pixels, "rsvg_handle_get_intrinsic_size_in_pixels")
    OSP_SVG_RESOLVE(dimensions, "rsvg_handle_get_dimensions")
    OSP_SVG_RESOLVE(render_document, "rsvg_handle_render_document")
    OSP_SVG_RESOLVE(object_unref, "g_object_unref")
    OSP_SVG_RESOLVE(error_free, "g_error_free")
    OSP_SVG_RESOLVE(surface_create_for_data, "cairo_image_surface_create_for_data")
    OSP_SVG_RESOLVE(surface_flush, "cairo_surface_flush")
    OSP_SVG_RESOLVE(surface_destroy, "cairo_surface_destroy")
    OSP_SVG_RESOLVE(surface_status, "cairo_surface_status")
    OSP_SVG_RESOLVE(create, "cairo_create")
    OSP_SVG_RESOLVE(destroy, "cairo_destroy")
    loaded = 1;
}

int osp_svg_available(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *osp_svg_load_error(void) { return osp_svg_available() ? NULL : load_error; }

static void osp_svg_fail(osp_gerror *failure, const char *what, char *error, size_t capacity) {
    snprintf(error, capacity, "%s%s%s", what, failure && failure->message ? ": " : "", failure && failure->message ? failure->message : "");
    if (failure) rsvg.error_free(failure);
}

osp_svg *osp_svg_open(const uint8_t *data, size_t size, double *width, double *height, char *error, size_t capacity) {
    if (!osp_svg_available()) {
        snprintf(error, capacity, "librsvg cannot be loaded: %s", load_error ? load_error : "unknown error");
        return NULL;
    }
    osp_gerror *failure = NULL;
    // From data, with no base file: librsvg then loads no external resource at all.
    void *handle = rsvg.new_from_data(data, size, &failure);
    if (!handle) {
        osp_svg_fail(failure, "librsvg cannot parse the SVG", error, capacity);
        return NULL;
    }
    // libvips' (and so imgproxy's) 72 DPI for sizes in physical units.
    rsvg.set_dpi(handle, 72);
    if (!rsvg.intrinsic_size_in_pixels(handle, width, height)) {
        // No width and height in absolute units: the viewBox's size, as libvips takes it.
        osp_rsvg_dimensions dimensions = {0};
        rsvg.dimensions(handle, &dimensions);
        *width = dimensions.width;
        *height = dimensions.height;
    }
    return (osp_svg *)handle;
}

int osp_svg_render(osp_svg *svg, uint32_t width, uint32_t height, uint8_t *rgba, char *error, size_t capacity) {
    // cairo draws premultiplied ARGB in native words straight into the caller's buffer.
    void *surface = rsvg.surface_create_for_data(rgba, osp_cairo_argb32, (int)width, (int)height, (int)width * 4);
    if (rsvg.surface_status(surface) != 0) {
        rsvg.surface_destroy(surface);
        snprintf(error, capacity, "cairo cannot draw a %ux%u surface", width, height);
        return -1;
    }
    void *cairo = rsvg.create(surface);
    osp_rsvg_rectangle viewport = {0, 0, width, height};
    osp_gerror *failure = NULL;
    int drawn = rsvg.render_document(svg, cairo, &viewport, &failure);
    rsvg.destroy(cairo);
    rsvg.surface_flush(surface);
    rsvg.surface_destroy(surface);
    if (!drawn) {
        osp_svg_fail(failure, "librsvg cannot draw the SVG", error, capacity);
        return -1;
    }
    for (size_t i = 0; i < (size_t)width * height; i++) {
        uint8_t *p = rgba + 4 * i;
        uint32_t argb;
        memcpy(&argb, p, 4);
        p[0] = (uint8_t)(argb >> 16);
        p[1] = (uint8_t)(argb >> 8);
        p[2] = (uint8_t)argb;
        p[3] = (uint8_t)(argb >> 24);
    }
    return 0;
}

void osp_svg_close(osp_svg *svg) {
    if (svg) rsvg.object_unref(svg);
}
