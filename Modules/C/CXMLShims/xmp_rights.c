// XMP reduced to authorship and rights, as imgproxy's keep_copyright keeps it: a packet is
// small (a JPEG segment holds at most 64 KB), so it is parsed whole, filtered in place and
// written again inside an xpacket wrapper.
#include "CXMLShims.h"
#include "xmp_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

static pthread_once_t parser_once = PTHREAD_ONCE_INIT;
static void init_parser(void) { xmlInitParser(); }

static const char *const RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

static int in_namespace(const xmlNs *ns, const char *href) {
    return ns != NULL && ns->href != NULL && strcmp((const char *)ns->href, href) == 0;
}

// Whether a property (an element or an attribute of rdf:Description) is one of the rights.
static int is_right(const xmlNs *ns, const xmlChar *name) {
    if (in_namespace(ns, "http://ns.adobe.com/xap/1.0/rights/") || in_namespace(ns, "http://creativecommons.org/ns#")) return 1;
    if (!in_namespace(ns, "http://purl.org/dc/elements/1.1/") || name == NULL) return 0;
    const char *local = (const char *)name;
    return strcmp(local, "rights") == 0 || strcmp(local, "creator") == 0 || strcmp(local, "contributor") == 0 ||
           strcmp(local, "publisher") == 0;
}

// Removes every other property of each rdf:Description under `node` and its siblings;
// returns how many properties are kept. `depth` bounds the walk of a hostile packet.
static size_t keep_rights(xmlNodePtr node, int depth) {
    size_t kept = 0;
    if (depth > 64) return 0;
    for (xmlNodePtr child = node; child != NULL; child = child->next) {
        if (child->type != XML_ELEMENT_NODE) continue;
        if (!(in_namespace(child->ns, RDF) && strcmp((const char *)child->name, "Description") == 0)) {
            kept += keep_rights(child->children, depth + 1);
            continue;
        }
        xmlAttrPtr attribute = child->properties;
        while (attribute != NULL) {
            xmlAttrPtr next = attribute->next;
            // rdf:about and unqualified attributes are not properties.
            if (attribute->ns != NULL && !in_namespace(attribute->ns, RDF)) {
                if (is_right(attribute->ns, attribute->name)) kept++; else xmlRemoveProp(attribute);
            }
            attribute = next;
        }
        xmlNodePtr property = child->children;
        while (property != NULL) {
            xmlNodePtr next = property->next;
            if (property->type == XML_ELEMENT_NODE) {
                if (is_right(property->ns, property->name)) {
                    kept++;
                } else {
                    xmlUnlinkNode(property);
                    xmlFreeNode(property);
                }
            }
            property = next;
        }
    }
    return kept;
}

xmlDocPtr osp_xmp_read(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size) {
    pthread_once(&parser_once, init_parser);
    *out = NULL;
    *out_size = 0;
    if (size == 0 || size > OSP_XMP_MAX_BYTES) return NULL;
    return xmlReadMemory((const char *)data, (int)size, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

int osp_xmp_keep_rights(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size) {
    xmlDocPtr document = osp_xmp_read(data, size, out, out_size);
    if (document == NULL) return -1;
    xmlNodePtr root = xmlDocGetRootElement(document);
    int status = 0;
    if (root != NULL && keep_rights(root, 0) > 0) {
        xmlBufferPtr buffer = xmlBufferCreate();
        if (buffer != NULL && xmlNodeDump(buffer, document, root, 0, 0) > 0) {
            static const char head[] = "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>";
            static const char tail[] = "<?xpacket end=\"r\"?>";
            size_t body = (size_t)xmlBufferLength(buffer);
            size_t total = sizeof head - 1 + body + sizeof tail - 1;
            uint8_t *written = malloc(total);
            if (written != NULL) {
                memcpy(written, head, sizeof head - 1);
                memcpy(written + sizeof head - 1, xmlBufferContent(buffer), body);
                memcpy(written + sizeof head - 1 + body, tail, sizeof tail - 1);
                *out = written;
                *out_size = total;
            } else {
                status = -1;
            }
        } else {
            status = -1;
        }
        if (buffer != NULL) xmlBufferFree(buffer);
    }
    xmlFreeDoc(document);
    return status;
}

void osp_xmp_free(uint8_t *buffer) { free(buffer); }
