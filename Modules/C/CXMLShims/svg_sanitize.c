// The SVG sanitiser: libxml2's reader streams the document node by node and its writer writes
// what the allow-lists keep, so memory holds the output and one node at a time — never the
// document's whole tree, which takes some thirty times its bytes.
#include "CXMLShims.h"
#include "svg_sanitize_internal.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>

static pthread_once_t parser_once = PTHREAD_ONCE_INIT;
static void init_parser(void) { xmlInitParser(); }

// The caller is asked whether to stop every this many nodes.
enum { nodes_between_checks = 4096 };

typedef struct {
    xmlTextReaderPtr reader;
    xmlTextWriterPtr writer;
    const osp_svg_checks *checks;
    int status;              // OSP_SVG_OK, or why the walk stopped
    int root_has_namespace;  // the root is in SVG's namespace (else in none)
} walk;

static const char *const raster_types[] = {"data:image/png", "data:image/jpeg", "data:image/jpg", "data:image/gif", "data:image/webp"};

static const char *text(const xmlChar *value) { return value ? (const char *)value : ""; }

// An element's namespace is SVG's, or none when the root has none (librsvg draws both).
static int in_svg_namespace(walk *state) {
    const xmlChar *ns = xmlTextReaderConstNamespaceUri(state->reader);
    return ns ? strcmp((const char *)ns, OSP_SVG_NS) == 0 : !state->root_has_namespace;
}

// Whether an `href` stays: `#fragment` anywhere; on `image` and `feImage` also a raster image
// embedded as base64, which the caller's check reads and bounds (it may refuse the whole document).
static int href_kept(const char *element, const char *value, walk *state) {
    while (*value && isspace((unsigned char)*value)) value++;
    if (*value == '#') return 1;
    if (strcasecmp(element, "image") != 0 && strcasecmp(element, "feimage") != 0) return 0;
    for (size_t i = 0; i < sizeof raster_types / sizeof *raster_types; i++) {
        size_t prefix = strlen(raster_types[i]);
        if (strncasecmp(value, raster_types[i], prefix) != 0 || (value[prefix] != ';' && value[prefix] != ',')) continue;
        const char *comma = strchr(value, ',');
        if (!comma || comma - value < 7 || strncasecmp(comma - 7, ";base64", 7) != 0 || !state->checks || !state->checks->image) return 0;
        int verdict = state->checks->image((const uint8_t *)comma + 1, strlen(comma + 1), state->checks->context);
        if (verdict < 0) state->status = OSP_SVG_REFUSED;
        return verdict > 0;
    }
    return 0;
}

// Writes the attributes of the current element that stay: namespace declarations of SVG and
// XLink, and allow-listed attributes whose value is a reference inside the document or CSS
// (anything that may hold a function) that stays inside too.
static void write_attributes(const char *element, walk *state) {
    while (state->status == OSP_SVG_OK && xmlTextReaderMoveToNextAttribute(state->reader) == 1) {
        const char *name = text(xmlTextReaderConstName(state->reader));
        const char *value = text(xmlTextReaderConstValue(state->reader));
        int kept;
        if (xmlTextReaderIsNamespaceDecl(state->reader)) {
            kept = strcmp(value, OSP_SVG_NS) == 0 || strcmp(value, OSP_XLINK_NS) == 0;
        } else {
            const char *local = text(xmlTextReaderConstLocalName(state->reader));
            const xmlChar *ns = xmlTextReaderConstNamespaceUri(state->reader);
            kept = osp_svg_attribute_allowed(local, ns ? (const char *)ns : NULL)
                   && (strcasecmp(local, "href") == 0 ? href_kept(element, value, state) : osp_svg_css_safe(value));
        }
        if (kept && state->status == OSP_SVG_OK) xmlTextWriterWriteAttribute(state->writer, BAD_CAST name, BAD_CAST value);
    }
    xmlTextReaderMoveToElement(state->reader);
}

// A `<style>` element: kept, with its text, when all of it is text that is safe CSS.
static void write_style(walk *state) {
    xmlNodePtr style = xmlTextReaderExpand(state->reader);
    if (!style) { state->status = OSP_SVG_MALFORMED; return; }
    for (xmlNodePtr child = style->children; child; child = child->next) {
        if (child->type != XML_TEXT_NODE && child->type != XML_CDATA_SECTION_NODE) return;
    }
    xmlChar *css = xmlNodeGetContent(style);
    if (!css || osp_svg_css_safe((const char *)css)) {
        xmlTextWriterStartElement(state->writer, xmlTextReaderConstName(state->reader));
        write_attributes("style", state);
        if (css) xmlTextWriterWriteString(state->writer, css);
        xmlTextWriterEndElement(state->writer);
    }
    xmlFree(css);
}

// The element the reader is on: its start (and end, when empty) written when it stays; skipped
// whole, with everything in it, when it does not.
static int element(walk *state, int *depth) {
    const char *local = text(xmlTextReaderConstLocalName(state->reader));
    int allowed = in_svg_namespace(state) && osp_svg_element_allowed(local);
    if (*depth == 0 && (!allowed || strcmp(local, "svg") != 0)) {
        state->status = OSP_SVG_MALFORMED;  // the root must be svg
        return -1;
    }
    if (*depth == 0 && state->checks && state->checks->root) {
        xmlChar *width = xmlTextReaderGetAttribute(state->reader, BAD_CAST "width");
        xmlChar *height = xmlTextReaderGetAttribute(state->reader, BAD_CAST "height");
        xmlChar *view_box = xmlTextReaderGetAttribute(state->reader, BAD_CAST "viewBox");
        state->checks->root((const char *)width, (const char *)height, (const char *)view_box, state->checks->context);
        xmlFree(width);
        xmlFree(height);
        xmlFree(view_box);
    }
    if (!allowed || strcasecmp(local, "style") == 0) {
        if (allowed) write_style(state);
        return xmlTextReaderNext(state->reader);
    }
    xmlTextWriterStartElement(state->writer, xmlTextReaderConstName(state->reader));
    write_attributes(local, state);
    if (xmlTextReaderIsEmptyElement(state->reader)) xmlTextWriterEndElement(state->writer);
    else (*depth)++;
    return xmlTextReaderRead(state->reader);
}

static void stream(walk *state) {
    int depth = 0, seen_root = 0;
    size_t nodes = 0;
    int read = xmlTextReaderRead(state->reader);
    while (read == 1 && state->status == OSP_SVG_OK) {
        if (++nodes % nodes_between_checks == 0 && state->checks && state->checks->cancelled
            && state->checks->cancelled(state->checks->context)) {
            state->status = OSP_SVG_CANCELLED;
            return;
        }
        switch (xmlTextReaderNodeType(state->reader)) {
        case XML_READER_TYPE_ELEMENT:
            if (depth == 0) {
                if (seen_root) { state->status = OSP_SVG_MALFORMED; return; }
                seen_root = 1;
                const xmlChar *ns = xmlTextReaderConstNamespaceUri(state->reader);
                state->root_has_namespace = ns != NULL;
            }
            read = element(state, &depth);
            continue;
        case XML_READER_TYPE_END_ELEMENT:
            xmlTextWriterEndElement(state->writer);
            depth--;
            break;
        case XML_READER_TYPE_TEXT:
        case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
        case XML_READER_TYPE_WHITESPACE:
            if (depth > 0) xmlTextWriterWriteString(state->writer, xmlTextReaderConstValue(state->reader));
            break;
        case XML_READER_TYPE_CDATA:
            if (depth > 0) xmlTextWriterWriteCDATA(state->writer, xmlTextReaderConstValue(state->reader));
            break;
        default:  // the doctype, comments, processing instructions, entity references
            break;
        }
        read = xmlTextReaderRead(state->reader);
    }
    if (read < 0 || !seen_root) state->status = state->status == OSP_SVG_OK ? OSP_SVG_MALFORMED : state->status;
}

int osp_svg_sanitize(const uint8_t *data, size_t size, const osp_svg_checks *checks, uint8_t **out, size_t *out_size) {
    pthread_once(&parser_once, init_parser);
    *out = NULL;
    *out_size = 0;
    if (size == 0 || size > INT32_MAX) return OSP_SVG_MALFORMED;
    xmlBufferPtr buffer = xmlBufferCreate();
    xmlTextReaderPtr reader = xmlReaderForMemory((const char *)data, (int)size, NULL, NULL,
                                                 XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlTextWriterPtr writer = buffer ? xmlNewTextWriterMemory(buffer, 0) : NULL;
    walk state = {reader, writer, checks, reader && writer ? OSP_SVG_OK : OSP_SVG_MALFORMED, 0};
    if (state.status == OSP_SVG_OK) {
        xmlTextWriterStartDocument(writer, "1.0", NULL, NULL);
        stream(&state);
        xmlTextWriterEndDocument(writer);
    }
    if (writer) xmlFreeTextWriter(writer);  // flushes into the buffer
    if (reader) xmlFreeTextReader(reader);
    if (state.status == OSP_SVG_OK && buffer && xmlBufferLength(buffer) > 0) {
        *out_size = (size_t)xmlBufferLength(buffer);
        *out = xmlBufferDetach(buffer);  // the written bytes, not copied
        if (!*out) state.status = OSP_SVG_MALFORMED;
    }
    if (buffer) xmlBufferFree(buffer);
    return state.status;
}

void osp_svg_free(uint8_t *buffer) { xmlFree(buffer); }
