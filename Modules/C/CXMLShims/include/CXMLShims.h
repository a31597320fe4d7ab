#ifndef CXMLSHIMS_H
#define CXMLSHIMS_H

#include <stddef.h>
#include <stdint.h>

/// Parses `size` bytes as XML (no network, no external entities or DTD, no entity
/// substitution) and, when the root element is `svg`, writes the document without scripts,
/// event handlers, `foreignObject`/`iframe`/`embed`/`object`, processing instructions,
/// comments outside the root, the doctype, entity references, and references outside the
/// document (`href` other than `#…` or an embedded raster image; CSS `url()` other than
/// `url(#…)`, `@import`). Returns 0 and a buffer for `osp_svg_free` in `*out`, or -1.
int osp_svg_sanitize(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size);
void osp_svg_free(uint8_t *buffer);

#endif
