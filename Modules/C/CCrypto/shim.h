// OpenSSL libcrypto: SHA-256 of cache keys, HMAC-SHA256 of signed server URLs, RS256 of
// Google Cloud's and Microsoft Entra's token assertions (a certificate's key in PEM or PKCS#12).
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <openssl/sha.h>
