// OpenSSL libcrypto: SHA-256 of cache keys, HMAC-SHA256 of signed server URLs.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
