// OpenSSL libcrypto, used for SHA-256 of cache keys.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
