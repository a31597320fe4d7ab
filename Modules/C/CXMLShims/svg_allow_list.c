// The SVG sanitiser's allow-lists: DOMPurify's "svg" and "svgFilters" profiles
// (github.com/cure53/DOMPurify, src/tags.ts and src/attrs.ts: tags svg and svgFilters,
// attributes svg and xml), without SMIL animation (animateColor, animateMotion,
// animateTransform and their timing attributes: DOMPurify keeps them, and an animation can
// set what a sanitiser checked) and with `use` (DOMPurify drops it; here its reference, as
// every reference, must stay inside the document). Names are compared in lower case.
#include "svg_sanitize_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const elements[] = {
    "a", "altglyph", "altglyphdef", "altglyphitem", "circle", "clippath", "defs", "desc", "ellipse", "feblend",
    "fecolormatrix", "fecomponenttransfer", "fecomposite", "feconvolvematrix", "fediffuselighting", "fedisplacementmap",
    "fedistantlight", "fedropshadow", "feflood", "fefunca", "fefuncb", "fefuncg", "fefuncr", "fegaussianblur", "feimage",
    "femerge", "femergenode", "femorphology", "feoffset", "fepointlight", "fespecularlighting", "fespotlight", "fetile",
    "feturbulence", "filter", "font", "g", "glyph", "glyphref", "hkern", "image", "line", "lineargradient", "marker", "mask",
    "metadata", "mpath", "path", "pattern", "polygon", "polyline", "radialgradient", "rect", "stop", "style", "svg", "switch",
    "symbol", "text", "textpath", "title", "tref", "tspan", "use", "view", "vkern",
};

static const char *const attributes[] = {
    "accent-height", "alignment-baseline", "amplitude", "ascent", "azimuth", "basefrequency", "baseline-shift", "bias",
    "class", "clip", "clip-path", "clip-rule", "clippathunits", "color", "color-interpolation", "color-interpolation-filters",
    "color-profile", "color-rendering", "cx", "cy", "d", "diffuseconstant", "direction", "display", "divisor",
    "dominant-baseline", "dx", "dy", "edgemode", "elevation", "exponent", "fill", "fill-opacity", "fill-rule", "filter",
    "filterunits", "flood-color", "flood-opacity", "font-family", "font-size", "font-size-adjust", "font-stretch",
    "font-style", "font-variant", "font-weight", "fx", "fy", "g1", "g2", "glyph-name", "glyphref", "gradienttransform",
    "gradientunits", "height", "href", "id", "image-rendering", "in", "in2", "intercept", "k", "k1", "k2", "k3", "k4",
    "kernelmatrix", "kernelunitlength", "kerning", "lang", "lengthadjust", "letter-spacing", "lighting-color", "local",
    "marker-end", "marker-mid", "marker-start", "markerheight", "markerunits", "markerwidth", "mask", "mask-type",
    "maskcontentunits", "maskunits", "media", "method", "mode", "name", "numoctaves", "offset", "opacity", "operator",
    "order", "orient", "orientation", "origin", "overflow", "paint-order", "path", "pathlength", "patterncontentunits",
    "patterntransform", "patternunits", "pointer-events", "points", "preservealpha", "preserveaspectratio",
    "primitiveunits", "r", "radius", "refx", "refy", "result", "rotate", "rx", "ry", "scale", "seed", "shape-rendering",
    "slope", "specularconstant", "specularexponent", "spreadmethod", "startoffset", "stddeviation", "stitchtiles",
    "stop-color", "stop-opacity", "stroke", "stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin",
    "stroke-miterlimit", "stroke-opacity", "stroke-width", "style", "surfacescale", "systemlanguage", "tablevalues",
    "targetx", "targety", "text-anchor", "text-decoration", "text-orientation", "text-rendering", "textlength",
    "transform", "transform-origin", "type", "u1", "u2", "unicode", "values", "vector-effect", "version", "vert-adv-y",
    "vert-origin-x", "vert-origin-y", "viewbox", "visibility", "width", "word-spacing", "wrap", "writing-mode",
    "x", "x1", "x2", "xchannelselector", "y", "y1", "y2", "ychannelselector", "z", "zoomandpan",
};

// The xlink and xml namespaces' attributes DOMPurify keeps ("xml" in attrs.ts), by local name.
static const char *const xlink_attributes[] = {"href", "title"};
static const char *const xml_attributes[] = {"id", "lang", "space"};

static int compare(const void *key, const void *entry) { return strcmp(key, *(const char *const *)entry); }

// Whether `name`, in lower case, is in the sorted `list`.
static int listed(const char *name, const char *const *list, size_t count) {
    char lower[64];
    size_t length = strlen(name);
    if (length >= sizeof lower) return 0;
    for (size_t i = 0; i <= length; i++) lower[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
    return bsearch(lower, list, count, sizeof *list, compare) != NULL;
}

#define COUNT(list) (sizeof list / sizeof *list)

int osp_svg_element_allowed(const char *name) { return listed(name, elements, COUNT(elements)); }

int osp_svg_attribute_allowed(const char *name, const char *ns) {
    if (!ns) return listed(name, attributes, COUNT(attributes));
    if (strcmp(ns, OSP_XLINK_NS) == 0) return listed(name, xlink_attributes, COUNT(xlink_attributes));
    if (strcmp(ns, OSP_XML_NS) == 0) return listed(name, xml_attributes, COUNT(xml_attributes));
    return 0;
}
