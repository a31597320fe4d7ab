#ifndef CXMLSHIMS_H
#define CXMLSHIMS_H

#include <stddef.h>
#include <stdint.h>

/// Why `osp_svg_sanitize` wrote nothing.
enum {
    OSP_SVG_OK = 0,
    /// Not well-formed XML, or its root is not an `svg` element in SVG's namespace (or none).
    OSP_SVG_MALFORMED = -1,
    /// `cancelled` said to stop.
    OSP_SVG_CANCELLED = -2,
    /// `image` refused an embedded image, and with it the document.
    OSP_SVG_REFUSED = -3,
};

/// What the caller decides while a document is sanitised; any function may be NULL.
typedef struct {
    /// Asked between pieces of the parse and of the walk: nonzero stops with OSP_SVG_CANCELLED.
    int (*cancelled)(void *context);
    /// An embedded raster image's base64 text: 1 keeps its reference, 0 drops it, -1 refuses
    /// the document (an image past the caller's limits).
    int (*image)(const uint8_t *base64, size_t length, void *context);
    /// The root's `width`, `height` and `viewBox` as written (NULL when absent), once.
    void (*root)(const char *width, const char *height, const char *view_box, void *context);
    void *context;
} osp_svg_checks;

/// Streams `size` bytes as XML (no network, no external entities or DTD, no entity
/// substitution, no tree of the whole document; the caller may stop it between nodes) and,
/// when the root element is `svg`, writes the document with only what an allow-list keeps (svg_allow_list.c): SVG
/// elements and attributes that draw, references inside the document (`#…`) and embedded
/// raster images the caller's `image` check keeps, and CSS that refers to nothing outside
/// (svg_css.c). Returns OSP_SVG_OK and a buffer for `osp_svg_free` in `*out`, or why not.
int osp_svg_sanitize(const uint8_t *data, size_t size, const osp_svg_checks *checks, uint8_t **out, size_t *out_size);
void osp_svg_free(uint8_t *buffer);

/// The largest XMP packet `osp_xmp_keep_rights` reads.
#define OSP_XMP_MAX_BYTES (4u << 20)

/// An XMP packet with only its authorship and rights properties (`dc:creator`,
/// `dc:contributor`, `dc:publisher`, `dc:rights`, `xmpRights:*`, `cc:*`), written again in an
/// xpacket wrapper: 0 with a buffer for `osp_xmp_free` in `*out`, or NULL when none is left;
/// -1 when the packet is not well-formed XML (or over OSP_XMP_MAX_BYTES). No network, no
/// external entities, no entity substitution.
int osp_xmp_keep_rights(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size);
void osp_xmp_free(uint8_t *buffer);

/// An XMP packet's properties as a JSON array of `[prefix, name, value]` triples, one per
/// property of every rdf:Description: the value a string, an array (rdf:Seq, rdf:Bag), the
/// x-default or first item of an rdf:Alt, or an object of a structure's fields by local name
/// (16 levels at most). 0 with a buffer for `osp_xmp_free` in `*out`; -1 when the packet is
/// not well-formed XML (or over OSP_XMP_MAX_BYTES). Parsed as `osp_xmp_keep_rights` parses.
int osp_xmp_to_json(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size);

#endif
