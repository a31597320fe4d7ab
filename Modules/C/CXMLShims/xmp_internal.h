// What the XMP shims share (not part of the module's header).
#ifndef OSP_XMP_INTERNAL_H
#define OSP_XMP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <libxml/tree.h>

/// `data` parsed as an XMP packet (no network, no external entities, no entity substitution),
/// with `*out` and `*out_size` cleared; NULL when it is empty, over OSP_XMP_MAX_BYTES or not
/// well-formed. The caller frees the document.
xmlDocPtr osp_xmp_read(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size);

#endif
