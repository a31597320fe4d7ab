// libcurl (the OpenSSL flavour on Debian).
#include <curl/curl.h>
