// OpenSSL libcrypto: SHA-256 of cache keys, HMAC-SHA256 of signed server URLs, RS256 of
// Google Cloud's token assertions.
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
