// What the codec loaders here and CCurlShims share: a library opened on first use, and
// forwarders with the library's own names and signatures that call into it.
#ifndef OSPREY_LOADER_H
#define OSPREY_LOADER_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/// The first of `names` (a NULL-terminated list) that dlopen finds, or NULL with `*error` set.
static inline void *osp_open_first(const char *const *names, const char **error) {
    for (const char *const *name = names; *name; name++) {
        void *handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (handle) return handle;
        *error = dlerror();
    }
    return NULL;
}

/// Callers check availability first, so reaching a forwarder without its library is a bug in
/// Osprey: it stops the process with a message instead of jumping to NULL.
static inline void osp_missing(const char *library, const char *error) {
    fprintf(stderr, "osprey: %s was called on but is not loaded: %s\n", library, error ? error : "unknown error");
    abort();
}

// Defines, for a library whose `names` are declared before: osp_<lib>_available(),
// osp_<lib>_load_error(), and a forwarder for every function FUNCTIONS lists as
// F(return type, name, (parameters), (arguments)) or V(name, (parameters), (arguments)) for
// void ones. Every symbol is resolved when the library is opened, once, under pthread_once.
// OSP_DEFINE_LIBRARY_WITH adds POINTERS, listed as P(name): resolved into `table` with no
// forwarder, for variadic functions the file calls through `table` itself.
#define OSP_FIELD(ret, name, params, args) __typeof__(&name) name;
#define OSP_VOID_FIELD(name, params, args) __typeof__(&name) name;
#define OSP_RESOLVE(name) \
    if (!(table.name = (__typeof__(table.name))dlsym(handle, #name))) { load_error = dlerror(); return; }
#define OSP_RESOLVE_F(ret, name, params, args) OSP_RESOLVE(name)
#define OSP_RESOLVE_V(name, params, args) OSP_RESOLVE(name)
#define OSP_FORWARD(ret, name, params, args) ret name params { require(); return table.name args; }
#define OSP_FORWARD_VOID(name, params, args) void name params { require(); table.name args; }

#define OSP_POINTER_FIELD(name) __typeof__(&name) name;
#define OSP_NO_POINTERS(P)
#define OSP_DEFINE_LIBRARY(lib, FUNCTIONS) OSP_DEFINE_LIBRARY_WITH(lib, FUNCTIONS, OSP_NO_POINTERS)

#define OSP_DEFINE_LIBRARY_WITH(lib, FUNCTIONS, POINTERS)                               \
    static struct { FUNCTIONS(OSP_FIELD, OSP_VOID_FIELD) POINTERS(OSP_POINTER_FIELD) } table; \
    static pthread_once_t once = PTHREAD_ONCE_INIT;                                     \
    static int loaded;                                                                  \
    static const char *load_error;                                                      \
    static void load(void) {                                                            \
        void *handle = osp_open_first(names, &load_error);                              \
        if (!handle) return;                                                            \
        FUNCTIONS(OSP_RESOLVE_F, OSP_RESOLVE_V)                                         \
        POINTERS(OSP_RESOLVE)                                                           \
        loaded = 1;                                                                     \
    }                                                                                   \
    int osp_##lib##_available(void) {                                                   \
        pthread_once(&once, load);                                                      \
        return loaded;                                                                  \
    }                                                                                   \
    const char *osp_##lib##_load_error(void) { return osp_##lib##_available() ? NULL : load_error; } \
    static void require(void) {                                                         \
        if (!osp_##lib##_available()) osp_missing("lib" #lib, load_error);              \
    }                                                                                   \
    FUNCTIONS(OSP_FORWARD, OSP_FORWARD_VOID)

#endif
