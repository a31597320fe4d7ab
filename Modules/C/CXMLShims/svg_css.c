// Whether CSS (a `style` attribute, a `<style>` element, or any attribute that may hold a
// function, such as `fill="url(#g)"`) stays inside the document. The text is decoded first as
// a browser would read it — comments out, escapes (`u\72l(`, `@\69mport`) resolved, lower
// case, blanks squeezed out — then every function must be one that draws (colours, maths,
// transforms, shapes, filters), `url()` may only name `#fragment`, and the only at-rules are
// `@media`, `@supports` and `@keyframes`. So `@import`, `image-set("…")`, `image()`,
// `src()`, `expression()` and any reference outside the document are refused in any spelling.
#include "svg_sanitize_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const functions[] = {
    "blur", "brightness", "calc", "circle", "clamp", "color", "color-mix", "contrast", "cubic-bezier", "drop-shadow",
    "ellipse", "grayscale", "hsl", "hsla", "hue-rotate", "hwb", "inset", "invert", "lab", "lch", "linear-gradient",
    "matrix", "matrix3d", "max", "min", "oklab", "oklch", "opacity", "path", "perspective", "polygon",
    "radial-gradient", "rect", "rgb", "rgba", "rotate", "rotate3d", "rotatex", "rotatey", "rotatez", "saturate", "scale",
    "scale3d", "scalex", "scaley", "sepia", "skew", "skewx", "skewy", "steps", "translate", "translate3d", "translatex",
    "translatey", "url", "var",
};

static const char *const at_rules[] = {"-webkit-keyframes", "keyframes", "media", "supports"};

static int compare(const void *key, const void *entry) { return strcmp(key, *(const char *const *)entry); }

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// `css` as a browser's tokenizer sees it, lower case and without blanks; a character that is
// not ASCII becomes `?`, which is in no name checked. NULL when memory runs out.
static char *decoded(const char *css) {
    size_t length = strlen(css);
    char *out = malloc(length + 1);
    if (!out) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < length;) {
        if (css[i] == '/' && css[i + 1] == '*') {
            const char *end = strstr(css + i + 2, "*/");
            i = end ? (size_t)(end - css) + 2 : length;
            continue;
        }
        unsigned code = (unsigned char)css[i++];
        if (code == '\\') {
            if (i >= length) break;
            if (css[i] == '\n' || css[i] == '\r' || css[i] == '\f') { i++; continue; }  // a line continues
            if (hex_value(css[i]) >= 0) {
                code = 0;
                for (int digits = 0; digits < 6 && i < length && hex_value(css[i]) >= 0; digits++) code = code * 16 + (unsigned)hex_value(css[i++]);
                if (i < length && isspace((unsigned char)css[i])) i++;
            } else {
                code = (unsigned char)css[i++];
            }
        }
        if (code < 0x80 && isspace((int)code)) continue;
        out[n++] = code >= 0x80 || code == 0 ? '?' : (char)tolower((int)code);
    }
    out[n] = 0;
    return out;
}

// The name that ends just before `end` in `text` (letters, digits, `-` and `_`), into `name`;
// returns where it starts.
static const char *name_before(const char *text, const char *end, char *name, size_t capacity) {
    const char *start = end;
    while (start > text && (isalnum((unsigned char)start[-1]) || start[-1] == '-' || start[-1] == '_')) start--;
    size_t length = (size_t)(end - start);
    if (length >= capacity) length = capacity - 1;
    memcpy(name, start, length);
    name[length] = 0;
    return start;
}

int osp_svg_css_safe(const char *css) {
    if (!strchr(css, '(') && !strchr(css, '@') && !strchr(css, '\\')) return 1;
    char *text = decoded(css);
    if (!text) return 0;
    int safe = 1;
    char name[32];
    for (const char *at = text; safe && (at = strpbrk(at, "(@")); at++) {
        if (*at == '@') {
            const char *end = at + 1;
            while (isalnum((unsigned char)*end) || *end == '-' || *end == '_') end++;
            name_before(at + 1, end, name, sizeof name);
            safe = name[0] && bsearch(name, at_rules, sizeof at_rules / sizeof *at_rules, sizeof *at_rules, compare) != NULL;
            continue;
        }
        const char *start = name_before(text, at, name, sizeof name);
        // No name: a bracket of a selector or a media query; a name after `@` is the at-rule's,
        // checked above (`@media(` once blanks are out).
        if (!name[0] || (start > text && start[-1] == '@')) continue;
        safe = bsearch(name, functions, sizeof functions / sizeof *functions, sizeof *functions, compare) != NULL;
        if (safe && strcmp(name, "url") == 0) {
            const char *argument = at + 1;
            while (*argument == '\'' || *argument == '"') argument++;
            safe = *argument == '#';
        }
    }
    free(text);
    return safe;
}
