// Typed wrappers for libcurl's variadic calls. curl_easy_setopt, curl_easy_getinfo and
// curl_multi_setopt take their value through C varargs, which Swift cannot call; each
// wrapper here passes one value of one known type, so the varargs call happens in C.
#ifndef OSPREY_CCURLSHIMS_H
#define OSPREY_CCURLSHIMS_H

#include <curl/curl.h>

/// Opens libcurl if it is not open yet: 1 when it is, else 0 with the reason in
/// osp_curl_load_error(). The curl_* functions Osprey calls are forwarders defined beside
/// these wrappers; calling one without libcurl stops the process.
int osp_curl_available(void);
const char *osp_curl_load_error(void);

typedef size_t (*osp_curl_data_callback)(char *data, size_t size, size_t count, void *context);

CURLcode osp_curl_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode osp_curl_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value);
CURLcode osp_curl_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode osp_curl_setopt_pointer(CURL *easy, CURLoption option, void *value);
/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
CURLcode osp_curl_setopt_data_callback(CURL *easy, CURLoption option, osp_curl_data_callback callback);

/// CURLOPT_OPENSOCKETFUNCTION.
CURLcode osp_curl_setopt_opensocket_callback(CURL *easy, curl_opensocket_callback callback);

/// The address libcurl is about to connect to: its 4 (IPv4) or 16 (IPv6) bytes copied to
/// `bytes`, and that count returned; 0 for another family. libcurl's `curl_sockaddr` holds
/// a whole sockaddr_in6 behind its `struct sockaddr` field, which Swift sees cut short.
int osp_curl_sockaddr_bytes(const struct curl_sockaddr *address, unsigned char bytes[16]);

/// A socket as libcurl opens one, closed on exec (a child process must not inherit it).
curl_socket_t osp_curl_open_socket(const struct curl_sockaddr *address);

CURLcode osp_curl_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode osp_curl_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value);
CURLcode osp_curl_getinfo_string(CURL *easy, CURLINFO info, char **value);
CURLcode osp_curl_getinfo_pointer(CURL *easy, CURLINFO info, void **value);

CURLMcode osp_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// Names the calling thread (at most 15 characters), as top -H, perf and debuggers show it.
void osp_name_current_thread(const char *name);

#endif
