// libcurl's headers (the OpenSSL flavour on Debian); CCurlShims opens the library itself.
#include <curl/curl.h>
