#define _GNU_SOURCE
#include <pthread.h>

#include "CCurlShims.h"

CURLcode osp_curl_setopt_long(CURL *easy, CURLoption option, long value) { return curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) { return curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_string(CURL *easy, CURLoption option, const char *value) { return curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_pointer(CURL *easy, CURLoption option, void *value) { return curl_easy_setopt(easy, option, value); }
CURLcode osp_curl_setopt_data_callback(CURL *easy, CURLoption option, osp_curl_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
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

// libcurl allocates its receive buffer (CURLOPT_BUFFERSIZE) at the start of every transfer and
// frees it at the end; glibc then trims the freed pages off its heap, and the next transfer
// faults them in again (most of the event loop's page faults). Freed blocks of that order of
// size are kept here, a few at a time, for the next transfer to take. glibc only (it needs
// malloc_usable_size); elsewhere libcurl uses the C library's allocator as it is.
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>

#define OSP_CACHED_MIN (64 * 1024)
#define OSP_CACHED_MAX (1024 * 1024)
#define OSP_CACHE_SLOTS 16

static pthread_mutex_t osp_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static void *osp_cache[OSP_CACHE_SLOTS];
static int osp_cached;

static void *osp_curl_malloc(size_t size) {
    if (size >= OSP_CACHED_MIN && size <= OSP_CACHED_MAX) {
        pthread_mutex_lock(&osp_cache_lock);
        for (int i = osp_cached - 1; i >= 0; i--) {
            if (malloc_usable_size(osp_cache[i]) >= size) {
                void *block = osp_cache[i];
                osp_cache[i] = osp_cache[--osp_cached];
                pthread_mutex_unlock(&osp_cache_lock);
                return block;
            }
        }
        pthread_mutex_unlock(&osp_cache_lock);
    }
    return malloc(size);
}

static void osp_curl_free(void *pointer) {
    if (!pointer) return;
    size_t usable = malloc_usable_size(pointer);
    if (usable >= OSP_CACHED_MIN && usable <= 2 * OSP_CACHED_MAX) {
        pthread_mutex_lock(&osp_cache_lock);
        if (osp_cached < OSP_CACHE_SLOTS) {
            osp_cache[osp_cached++] = pointer;
            pthread_mutex_unlock(&osp_cache_lock);
            return;
        }
        pthread_mutex_unlock(&osp_cache_lock);
    }
    free(pointer);
}

static void *osp_curl_realloc(void *pointer, size_t size) { return realloc(pointer, size); }
static char *osp_curl_strdup(const char *text) { return strdup(text); }
static void *osp_curl_calloc(size_t count, size_t size) { return calloc(count, size); }

CURLcode osp_curl_global_init(void) {
    // When libcurl was initialised already (by another library), this only counts a user:
    // libcurl keeps the allocator it has.
    return curl_global_init_mem(CURL_GLOBAL_DEFAULT, osp_curl_malloc, osp_curl_free, osp_curl_realloc,
                                osp_curl_strdup, osp_curl_calloc);
}
#else
CURLcode osp_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }
#endif

// Large bodies are filled with non-temporal stores: the bytes go to memory without each cache
// line being read first (see osp_copy_streaming in the header).
#include <stdint.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

void osp_copy_streaming(void *destination, const void *source, size_t count) {
#if defined(__x86_64__)
    unsigned char *d = destination;
    const unsigned char *s = source;
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (head > count) head = count;
    memcpy(d, s, head);
    d += head; s += head; count -= head;
    while (count >= 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)s), b = _mm_loadu_si128((const __m128i *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + 32)), e = _mm_loadu_si128((const __m128i *)(s + 48));
        _mm_stream_si128((__m128i *)d, a); _mm_stream_si128((__m128i *)(d + 16), b);
        _mm_stream_si128((__m128i *)(d + 32), c); _mm_stream_si128((__m128i *)(d + 48), e);
        d += 64; s += 64; count -= 64;
    }
    _mm_sfence();
    memcpy(d, s, count);
#else
    memcpy(destination, source, count);
#endif
}
