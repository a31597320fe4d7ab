#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include "CLibraryLoader.h"
#include "../CCodecLoader/loader.h"

// The soname of the OpenSSL the headers describe: another major version would not match them.
#if OPENSSL_VERSION_MAJOR == 3
static const char *const names[] = {"libcrypto.so.3", "libcrypto.so", NULL};
#else
static const char *const names[] = {"libcrypto.so", NULL};
#endif

// Every libcrypto function Osprey calls: return type, name, parameters, arguments.
#define OSP_CRYPTO_FUNCTIONS(F, V)                                                                        \
    F(int, BIO_free, (BIO * b), (b))                                                                      \
    F(BIO *, BIO_new_mem_buf, (const void *p, int n), (p, n))                                             \
    V(CRYPTO_free, (void *p, const char *f, int l), (p, f, l))                                            \
    V(ERR_clear_error, (void), ())                                                                        \
    V(ERR_error_string_n, (unsigned long e, char *b, size_t n), (e, b, n))                                \
    F(unsigned long, ERR_get_error, (void), ())                                                           \
    F(int, EVP_DigestSign, (EVP_MD_CTX * c, unsigned char *s, size_t *sn, const unsigned char *t, size_t tn), \
      (c, s, sn, t, tn))                                                                                  \
    F(int, EVP_DigestSignInit, (EVP_MD_CTX * c, EVP_PKEY_CTX **p, const EVP_MD *m, ENGINE *e, EVP_PKEY *k), \
      (c, p, m, e, k))                                                                                    \
    V(EVP_MD_CTX_free, (EVP_MD_CTX * c), (c))                                                             \
    F(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())                                                           \
    V(EVP_PKEY_free, (EVP_PKEY * k), (k))                                                                 \
    F(const EVP_MD *, EVP_sha256, (void), ())                                                             \
    F(unsigned char *, HMAC,                                                                              \
      (const EVP_MD *m, const void *k, int kn, const unsigned char *d, size_t dn, unsigned char *o, unsigned int *on), \
      (m, k, kn, d, dn, o, on))                                                                           \
    F(unsigned long, OpenSSL_version_num, (void), ())                                                     \
    F(EVP_PKEY *, PEM_read_bio_PrivateKey, (BIO * b, EVP_PKEY **k, pem_password_cb *c, void *u), (b, k, c, u)) \
    F(X509 *, PEM_read_bio_X509, (BIO * b, X509 **x, pem_password_cb *c, void *u), (b, x, c, u))         \
    V(PKCS12_free, (PKCS12 * p), (p))                                                                     \
    F(int, PKCS12_parse, (PKCS12 * p, const char *w, EVP_PKEY **k, X509 **x, STACK_OF(X509) **a), (p, w, k, x, a)) \
    F(unsigned char *, SHA1, (const unsigned char *d, size_t n, unsigned char *o), (d, n, o))             \
    F(unsigned char *, SHA256, (const unsigned char *d, size_t n, unsigned char *o), (d, n, o))           \
    F(int, X509_VERIFY_PARAM_set1_ip_asc, (X509_VERIFY_PARAM * p, const char *a), (p, a))                 \
    V(X509_free, (X509 * x), (x))                                                                         \
    F(const char *, X509_verify_cert_error_string, (long n), (n))                                         \
    F(PKCS12 *, d2i_PKCS12_bio, (BIO * b, PKCS12 **p), (b, p))                                            \
    F(int, i2d_X509, (const X509 *x, unsigned char **o), (x, o))

OSP_DEFINE_LIBRARY(crypto, OSP_CRYPTO_FUNCTIONS)
