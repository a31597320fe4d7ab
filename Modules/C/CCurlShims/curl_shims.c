#define _GNU_SOURCE
// libcurl's type-checking macros would expand `table.curl_easy_setopt(...)` below.
#define CURL_DISABLE_TYPECHECK
#include <pthread.h>

#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "CCurlShims.h"
#include "../CCodecLoader/loader.h"

// libcurl and the ~25 libraries it brings (TLS, Kerberos, LDAP, SSH, …) are opened on the
// first transfer, so a process that reads only local files does not pay for loading them.
static const char *const names[] = {"libcurl.so.4", "libcurl.so", NULL};

#define OSP_CURL_FUNCTIONS(F, V)                                                                          \
    F(CURL *, curl_easy_init, (void), ())                                                                \
    V(curl_easy_cleanup, (CURL * c), (c))                                                                \
    F(const char *, curl_easy_strerror, (CURLcode e), (e))                                               \
    V(curl_free, (void *p), (p))                                                                         \
    F(CURLcode, curl_global_init, (long f), (f))                                                         \
    F(CURLM *, curl_multi_init, (void), ())                                                              \
    F(CURLMcode, curl_multi_add_handle, (CURLM * m, CURL *c), (m, c))                                    \
    F(CURLMcode, curl_multi_remove_handle, (CURLM * m, CURL *c), (m, c))                                 \
    F(CURLMcode, curl_multi_cleanup, (CURLM * m), (m))                                                   \
    F(CURLMsg *, curl_multi_info_read, (CURLM * m, int *n), (m, n))                                      \
    F(CURLMcode, curl_multi_perform, (CURLM * m, int *n), (m, n))                                        \
    F(CURLMcode, curl_multi_poll, (CURLM * m, struct curl_waitfd e[], unsigned int n, int t, int *r), (m, e, n, t, r)) \
    F(CURLMcode, curl_multi_wakeup, (CURLM * m), (m))                                                    \
    F(struct curl_slist *, curl_slist_append, (struct curl_slist * l, const char *d), (l, d))           \
    V(curl_slist_free_all, (struct curl_slist * l), (l))                                                 \
    F(CURLU *, curl_url, (void), ())                                                                     \
    V(curl_url_cleanup, (CURLU * u), (u))                                                                \
    F(CURLUcode, curl_url_get, (CURLU * u, CURLUPart w, char **p, unsigned int f), (u, w, p, f))        \
    F(CURLUcode, curl_url_set, (CURLU * u, CURLUPart w, const char *p, unsigned int f), (u, w, p, f))   \
    F(curl_version_info_data *, curl_version_info, (CURLversion v), (v))

// The variadic calls, made only through the typed wrappers below.
#define OSP_CURL_POINTERS(P) P(curl_easy_setopt) P(curl_easy_getinfo) P(curl_multi_setopt)

OSP_DEFINE_LIBRARY_WITH(curl, OSP_CURL_FUNCTIONS, OSP_CURL_POINTERS)

CURLcode osp_curl_setopt_long(CURL *easy, CURLoption option, long value) { require(); return table.curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) { require(); return table.curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_string(CURL *easy, CURLoption option, const char *value) { require(); return table.curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_pointer(CURL *easy, CURLoption option, void *value) { require(); return table.curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_data_callback(CURL *easy, CURLoption option, osp_curl_data_callback callback) {
    require(); return table.curl_easy_setopt(easy, option, callback);
}

CURLcode osp_curl_setopt_opensocket_callback(CURL *easy, curl_opensocket_callback callback) {
    require(); return table.curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, callback);
}

int osp_curl_sockaddr_bytes(const struct curl_sockaddr *address, unsigned char bytes[16]) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        memcpy(bytes, &((const struct sockaddr_in *)&address->addr)->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        memcpy(bytes, &((const struct sockaddr_in6 *)&address->addr)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

curl_socket_t osp_curl_open_socket(const struct curl_sockaddr *address) {
#ifdef SOCK_CLOEXEC
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
#else
    return socket(address->family, address->socktype, address->protocol);
#endif
}

CURLcode osp_curl_getinfo_long(CURL *easy, CURLINFO info, long *value) { require(); return table.curl_easy_getinfo(easy, info, value); }
CURLcode osp_curl_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) { require(); return table.curl_easy_getinfo(easy, info, value); }
CURLcode osp_curl_getinfo_string(CURL *easy, CURLINFO info, char **value) { require(); return table.curl_easy_getinfo(easy, info, value); }
CURLcode osp_curl_getinfo_pointer(CURL *easy, CURLINFO info, void **value) { require(); return table.curl_easy_getinfo(easy, info, value); }

CURLMcode osp_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { require(); return table.curl_multi_setopt(multi, option, value); }

void osp_name_current_thread(const char *name) {
#if defined(__APPLE__)
    pthread_setname_np(name);
#else
    pthread_setname_np(pthread_self(), name);
#endif
}
