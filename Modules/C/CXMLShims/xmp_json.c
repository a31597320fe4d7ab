// An XMP packet's properties as JSON, for /info's `xmp`: one [prefix, name, value] triple per
// property of every rdf:Description, the value a string, a list (rdf:Seq, rdf:Bag), the
// x-default (else first) item of an rdf:Alt, or an object of a structure's fields.
#include "CXMLShims.h"
#include "xmp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

static const char *const RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
// Structures nest no deeper than this; a hostile packet's deeper ones answer null.
#define MAX_DEPTH 16

typedef struct {
    char *data;
    size_t length, capacity;
    int failed;
} json_buffer;

static void put(json_buffer *j, const char *bytes, size_t count) {
    if (j->failed) return;
    if (j->length + count > j->capacity) {
        size_t capacity = j->capacity ? j->capacity : 1024;
        while (capacity < j->length + count) capacity *= 2;
        char *grown = realloc(j->data, capacity);
        if (grown == NULL) {
            j->failed = 1;
            return;
        }
        j->data = grown;
        j->capacity = capacity;
    }
    memcpy(j->data + j->length, bytes, count);
    j->length += count;
}

static void put_literal(json_buffer *j, const char *text) { put(j, text, strlen(text)); }

// A JSON string; libxml2 hands out UTF-8, so only quotes, backslashes and controls are escaped.
static void put_string(json_buffer *j, const xmlChar *text) {
    put_literal(j, "\"");
    for (const xmlChar *c = text; c != NULL && *c != 0; c++) {
        char escaped[8];
        if (*c == '"' || *c == '\\') {
            escaped[0] = '\\';
            escaped[1] = (char)*c;
            put(j, escaped, 2);
        } else if (*c < 0x20) {
            snprintf(escaped, sizeof escaped, "\\u%04x", *c);
            put(j, escaped, 6);
        } else {
            put(j, (const char *)c, 1);
        }
    }
    put_literal(j, "\"");
}

static void put_text(json_buffer *j, xmlNodePtr node) {
    xmlChar *text = xmlNodeGetContent(node);
    put_string(j, text);
    xmlFree(text);
}

static int in_namespace(const xmlNs *ns, const char *href) {
    return ns != NULL && ns->href != NULL && strcmp((const char *)ns->href, href) == 0;
}

static int is_rdf(const xmlNode *node, const char *name) {
    return node != NULL && node->type == XML_ELEMENT_NODE && in_namespace(node->ns, RDF) && strcmp((const char *)node->name, name) == 0;
}

static xmlNodePtr first_element(xmlNodePtr node) {
    while (node != NULL && node->type != XML_ELEMENT_NODE) node = node->next;
    return node;
}

// Whether an attribute is a property: qualified, and neither rdf:* nor xml:lang.
static int is_property(const xmlAttr *attribute) {
    return attribute->ns != NULL && !in_namespace(attribute->ns, RDF) && !in_namespace(attribute->ns, (const char *)XML_XML_NAMESPACE);
}

static void put_value(json_buffer *j, xmlNodePtr property, int depth);

// A structure's fields by local name: its property attributes, then its property elements.
static void put_structure(json_buffer *j, xmlNodePtr node, int depth) {
    if (depth > MAX_DEPTH) {
        put_literal(j, "null");
        return;
    }
    put_literal(j, "{");
    int first = 1;
    for (xmlAttrPtr attribute = node->properties; attribute != NULL; attribute = attribute->next) {
        if (!is_property(attribute)) continue;
        if (!first) put_literal(j, ",");
        first = 0;
        put_string(j, attribute->name);
        put_literal(j, ":");
        xmlChar *value = xmlNodeListGetString(node->doc, attribute->children, 1);
        put_string(j, value);
        xmlFree(value);
    }
    for (xmlNodePtr child = first_element(node->children); child != NULL; child = first_element(child->next)) {
        if (in_namespace(child->ns, RDF)) continue;
        if (!first) put_literal(j, ",");
        first = 0;
        put_string(j, child->name);
        put_literal(j, ":");
        put_value(j, child, depth + 1);
    }
    put_literal(j, "}");
}

// An array item or a property: a structure when it holds elements, else its text.
static void put_item(json_buffer *j, xmlNodePtr node, int depth) {
    xmlNodePtr inner = first_element(node->children);
    xmlChar *parse_type = xmlGetNsProp(node, (const xmlChar *)"parseType", (const xmlChar *)RDF);
    int resource = parse_type != NULL && strcmp((const char *)parse_type, "Resource") == 0;
    xmlFree(parse_type);
    if (is_rdf(inner, "Description")) put_structure(j, inner, depth);
    else if (inner != NULL || resource) put_structure(j, node, depth);
    else put_text(j, node);
}

static void put_value(json_buffer *j, xmlNodePtr property, int depth) {
    xmlNodePtr inner = first_element(property->children);
    if (is_rdf(inner, "Seq") || is_rdf(inner, "Bag")) {
        put_literal(j, "[");
        int first = 1;
        for (xmlNodePtr item = first_element(inner->children); item != NULL; item = first_element(item->next)) {
            if (!is_rdf(item, "li")) continue;
            if (!first) put_literal(j, ",");
            first = 0;
            put_item(j, item, depth + 1);
        }
        put_literal(j, "]");
    } else if (is_rdf(inner, "Alt")) {
        xmlNodePtr chosen = NULL;
        for (xmlNodePtr item = first_element(inner->children); item != NULL; item = first_element(item->next)) {
            if (!is_rdf(item, "li")) continue;
            xmlChar *language = xmlNodeGetLang(item);
            int is_default = language != NULL && strcmp((const char *)language, "x-default") == 0;
            xmlFree(language);
            if (chosen == NULL || is_default) chosen = item;
            if (is_default) break;
        }
        if (chosen != NULL) put_item(j, chosen, depth + 1);
        else put_literal(j, "\"\"");
    } else {
        put_item(j, property, depth);
    }
}

static void put_triple_head(json_buffer *j, int *first, const xmlNs *ns, const xmlChar *name) {
    if (!*first) put_literal(j, ",");
    *first = 0;
    put_literal(j, "[");
    put_string(j, ns->prefix != NULL ? ns->prefix : (const xmlChar *)"");
    put_literal(j, ",");
    put_string(j, name);
    put_literal(j, ",");
}

// Every rdf:Description under `node` and its siblings, as triples.
static void put_descriptions(json_buffer *j, xmlNodePtr node, int *first, int depth) {
    if (depth > MAX_DEPTH) return;
    for (xmlNodePtr child = first_element(node); child != NULL; child = first_element(child->next)) {
        if (!is_rdf(child, "Description")) {
            put_descriptions(j, child->children, first, depth + 1);
            continue;
        }
        for (xmlAttrPtr attribute = child->properties; attribute != NULL; attribute = attribute->next) {
            if (!is_property(attribute)) continue;
            put_triple_head(j, first, attribute->ns, attribute->name);
            xmlChar *value = xmlNodeListGetString(child->doc, attribute->children, 1);
            put_string(j, value);
            xmlFree(value);
            put_literal(j, "]");
        }
        for (xmlNodePtr property = first_element(child->children); property != NULL; property = first_element(property->next)) {
            if (property->ns == NULL || in_namespace(property->ns, RDF)) continue;
            put_triple_head(j, first, property->ns, property->name);
            put_value(j, property, 0);
            put_literal(j, "]");
        }
    }
}

int osp_xmp_to_json(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size) {
    xmlDocPtr document = osp_xmp_read(data, size, out, out_size);
    if (document == NULL) return -1;
    json_buffer j = {0};
    int first = 1;
    put_literal(&j, "[");
    put_descriptions(&j, xmlDocGetRootElement(document), &first, 0);
    put_literal(&j, "]");
    xmlFreeDoc(document);
    if (j.failed) {
        free(j.data);
        return -1;
    }
    *out = (uint8_t *)j.data;
    *out_size = j.length;
    return 0;
}
