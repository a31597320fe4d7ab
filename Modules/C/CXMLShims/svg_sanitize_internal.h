// What the SVG sanitiser's files share.
#ifndef OSP_SVG_SANITIZE_INTERNAL_H
#define OSP_SVG_SANITIZE_INTERNAL_H

#define OSP_SVG_NS "http://www.w3.org/2000/svg"
#define OSP_XLINK_NS "http://www.w3.org/1999/xlink"
#define OSP_XML_NS "http://www.w3.org/XML/1998/namespace"

/// Whether an SVG element of this local name is kept.
int osp_svg_element_allowed(const char *name);
/// Whether an attribute of this local name, in namespace `ns` (NULL for none), is kept.
int osp_svg_attribute_allowed(const char *name, const char *ns);
/// Whether CSS text, decoded as a browser decodes it, stays inside the document.
int osp_svg_css_safe(const char *css);

#endif
