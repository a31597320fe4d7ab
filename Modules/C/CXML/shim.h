// libxml2: the SVG sanitizer's parser and writer (CXMLShims).
#include <libxml/parser.h>
#include <libxml/tree.h>
