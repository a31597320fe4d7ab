#define _GNU_SOURCE
#include <pthread.h>

#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "CCurlShims.h"

CURLcode osp_curl_setopt_long(CURL *easy, CURLoption option, long value) { return curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) { return curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_string(CURL *easy, CURLoption option, const char *value) { return curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_pointer(CURL *easy, CURLoption option, void *value) { return curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_data_callback(CURL *easy, CURLoption option, osp_curl_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

CURLcode osp_curl_setopt_opensocket_callback(CURL *easy, curl_opensocket_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, callback);
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

CURLcode osp_curl_getinfo_long(CURL *easy, CURLINFO info, long *value) { return curl_easy_getinfo(easy, info, value); }
CURLcode osp_curl_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) { return curl_easy_getinfo(easy, info, value); }
CURLcode osp_curl_getinfo_string(CURL *easy, CURLINFO info, char **value) { return curl_easy_getinfo(easy, info, value); }
CURLcode osp_curl_getinfo_pointer(CURL *easy, CURLINFO info, void **value) { return curl_easy_getinfo(easy, info, value); }

CURLMcode osp_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl_multi_setopt(multi, option, value); }

void osp_name_current_thread(const char *name) {
#if defined(__APPLE__)
    pthread_setname_np(name);
#else
    pthread_setname_np(pthread_self(), name);
#endif
}
