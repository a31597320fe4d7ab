#include <openssl/ssl.h>

#include "CLibraryLoader.h"
#include "../CCodecLoader/loader.h"

// libssl brings libcrypto with it (the same copy crypto_loader.c opens).
#if OPENSSL_VERSION_MAJOR == 3
static const char *const names[] = {"libssl.so.3", "libssl.so", NULL};
#else
static const char *const names[] = {"libssl.so", NULL};
#endif

// Every libssl function Osprey calls (Redis over TLS): return type, name, parameters, arguments.
#define OSP_SSL_FUNCTIONS(F, V)                                                                           \
    F(long, SSL_CTX_ctrl, (SSL_CTX * c, int d, long l, void *p), (c, d, l, p))                            \
    V(SSL_CTX_free, (SSL_CTX * c), (c))                                                                   \
    F(int, SSL_CTX_load_verify_locations, (SSL_CTX * c, const char *f, const char *p), (c, f, p))         \
    F(SSL_CTX *, SSL_CTX_new, (const SSL_METHOD *m), (m))                                                 \
    F(int, SSL_CTX_set_default_verify_paths, (SSL_CTX * c), (c))                                          \
    V(SSL_CTX_set_verify, (SSL_CTX * c, int m, SSL_verify_cb b), (c, m, b))                               \
    F(int, SSL_connect, (SSL * s), (s))                                                                   \
    F(long, SSL_ctrl, (SSL * s, int d, long l, void *p), (s, d, l, p))                                    \
    V(SSL_free, (SSL * s), (s))                                                                           \
    F(X509_VERIFY_PARAM *, SSL_get0_param, (SSL * s), (s))                                                \
    F(long, SSL_get_verify_result, (const SSL *s), (s))                                                   \
    F(SSL *, SSL_new, (SSL_CTX * c), (c))                                                                 \
    F(int, SSL_read, (SSL * s, void *b, int n), (s, b, n))                                                \
    F(int, SSL_set1_host, (SSL * s, const char *h), (s, h))                                               \
    F(int, SSL_set_fd, (SSL * s, int f), (s, f))                                                          \
    F(int, SSL_shutdown, (SSL * s), (s))                                                                  \
    F(int, SSL_write, (SSL * s, const void *b, int n), (s, b, n))                                         \
    F(const SSL_METHOD *, TLS_client_method, (void), ())

OSP_DEFINE_LIBRARY(ssl, OSP_SSL_FUNCTIONS)
