#include "CXMLShims.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

static pthread_once_t parser_once = PTHREAD_ONCE_INIT;
static void init_parser(void) { xmlInitParser(); }

static const char *const raster_prefixes[] = {
    "data:image/png", "data:image/jpeg", "data:image/jpg", "data:image/gif", "data:image/webp"
};

/// A reference inside the document (`#id`) or a raster image embedded in it.
static int is_local(const char *reference) {
    while (*reference && isspace((unsigned char)*reference)) reference++;
    if (*reference == '#') return 1;
    for (size_t i = 0; i < sizeof raster_prefixes / sizeof *raster_prefixes; i++) {
        if (strncasecmp(reference, raster_prefixes[i], strlen(raster_prefixes[i])) == 0) return 1;
    }
    return 0;
}

/// Whether CSS text (or an attribute holding some) refers outside the document: `@import`,
/// or a `url(` whose argument, spaces and quotes aside, is not local.
static int contains_external_url(const char *css) {
    size_t length = strlen(css);
    char *squeezed = malloc(length + 1);
    if (!squeezed) return 1;
    size_t n = 0;
    for (size_t i = 0; i < length; i++) {
        if (css[i] != ' ') squeezed[n++] = (char)tolower((unsigned char)css[i]);
    }
    squeezed[n] = 0;
    int external = strstr(squeezed, "@import") != NULL;
    for (const char *at = strstr(squeezed, "url("); !external && at; at = strstr(at, "url(")) {
        at += 4;
        const char *argument = at;
        while (*argument == '\'' || *argument == '"') argument++;
        external = !is_local(argument);
    }
    free(squeezed);
    return external;
}

static int is_removed_element(const xmlChar *name) {
    static const char *const removed[] = { "script", "foreignobject", "iframe", "embed", "object" };
    for (size_t i = 0; i < sizeof removed / sizeof *removed; i++) {
        if (strcasecmp((const char *)name, removed[i]) == 0) return 1;
    }
    return 0;
}

/// Whether an attribute goes: an event handler, an outside `href`, or CSS that refers outside.
static int is_removed_attribute(xmlAttrPtr attribute) {
    const char *name = (const char *)attribute->name;
    if (strncasecmp(name, "on", 2) == 0) return 1;
    xmlChar *value = xmlNodeGetContent((xmlNodePtr)attribute);
    if (!value) return 0;
    int removed = (strcasecmp(name, "href") == 0 && !is_local((const char *)value))
        || contains_external_url((const char *)value);
    xmlFree(value);
    return removed;
}

static void remove_node(xmlNodePtr node) {
    xmlUnlinkNode(node);
    xmlFreeNode(node);
}

static void clean(xmlNodePtr element) {
    for (xmlAttrPtr attribute = element->properties; attribute;) {
        xmlAttrPtr next = attribute->next;
        if (is_removed_attribute(attribute)) xmlRemoveProp(attribute);
        attribute = next;
    }
    for (xmlNodePtr child = element->children; child;) {
        xmlNodePtr next = child->next;
        switch (child->type) {
        case XML_PI_NODE:
        case XML_ENTITY_REF_NODE:
            remove_node(child);
            break;
        case XML_ELEMENT_NODE: {
            int removed = is_removed_element(child->name);
            if (!removed && strcasecmp((const char *)child->name, "style") == 0) {
                xmlChar *css = xmlNodeGetContent(child);
                removed = css && contains_external_url((const char *)css);
                xmlFree(css);
            }
            if (removed) remove_node(child);
            else clean(child);
            break;
        }
        default:
            break;
        }
        child = next;
    }
}

int osp_svg_sanitize(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size) {
    pthread_once(&parser_once, init_parser);
    *out = NULL;
    *out_size = 0;
    if (size > INT32_MAX) return -1;
    xmlDocPtr document = xmlReadMemory((const char *)data, (int)size, NULL, NULL,
                                       XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!document) return -1;
    xmlNodePtr root = xmlDocGetRootElement(document);
    if (!root || strcmp((const char *)root->name, "svg") != 0) {
        xmlFreeDoc(document);
        return -1;
    }
    // Outside the root: only the root stays (the doctype, comments and PIs go); unlinking the
    // doctype also clears the document's pointer to it.
    for (xmlNodePtr child = document->children; child;) {
        xmlNodePtr next = child->next;
        if (child != root) {
            xmlUnlinkNode(child);
            if (child->type == XML_DTD_NODE) xmlFreeDtd((xmlDtdPtr)child);
            else xmlFreeNode(child);
        }
        child = next;
    }
    clean(root);
    xmlChar *written = NULL;
    int length = 0;
    xmlDocDumpMemory(document, &written, &length);
    xmlFreeDoc(document);
    if (!written || length <= 0) {
        xmlFree(written);
        return -1;
    }
    *out = written;
    *out_size = (size_t)length;
    return 0;
}

void osp_svg_free(uint8_t *buffer) { xmlFree(buffer); }
