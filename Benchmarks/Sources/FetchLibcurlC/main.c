// A reference for the download benchmark, not a peer: the least a program does to fetch the
// list on libcurl's multi interface and keep each body in memory, as any loader must — six
// reused easy handles, one thread, a 100 KB receive buffer (as Osprey's and the curl tool's),
// each body in one allocation sized from Content-Length and freed when its transfer ends.
// It shows what libcurl itself costs, apart from what Osprey adds.
//
// usage: FetchLibcurlC URL_LIST     (exit status 1 on any failure)
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { concurrency = 6, maxURLs = 100000 };

typedef struct {
    CURL *easy;
    char *bytes;
    size_t length, capacity;
} Body;

static size_t keep(char *data, size_t size, size_t count, void *context) {
    Body *body = context;
    size_t n = size * count;
    if (body->length + n > body->capacity) {
        curl_off_t expected = -1;
        curl_easy_getinfo(body->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected);
        size_t capacity = expected > 0 && (size_t)expected >= body->length + n ? (size_t)expected : 2 * (body->length + n);
        char *grown = realloc(body->bytes, capacity);
        if (!grown) return 0;
        body->bytes = grown;
        body->capacity = capacity;
    }
    memcpy(body->bytes + body->length, data, n);
    body->length += n;
    return n;
}

static char *urls[maxURLs];
static int urlCount, nextURL;

static void start(CURLM *multi, Body *body) {
    curl_easy_setopt(body->easy, CURLOPT_URL, urls[nextURL++]);
    curl_multi_add_handle(multi, body->easy);
}

int main(int argc, char **argv) {
    FILE *list = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!list) { fprintf(stderr, "usage: FetchLibcurlC URL_LIST\n"); return 1; }
    char line[4096];
    while (urlCount < maxURLs && fgets(line, sizeof line, list)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0]) urls[urlCount++] = strdup(line);
    }
    fclose(list);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    Body bodies[concurrency] = {0};
    for (int i = 0; i < concurrency && nextURL < urlCount; i++) {
        Body *body = &bodies[i];
        body->easy = curl_easy_init();
        curl_easy_setopt(body->easy, CURLOPT_WRITEFUNCTION, keep);
        curl_easy_setopt(body->easy, CURLOPT_WRITEDATA, body);
        curl_easy_setopt(body->easy, CURLOPT_PRIVATE, body);
        curl_easy_setopt(body->easy, CURLOPT_BUFFERSIZE, 100L * 1024);
        start(multi, body);
    }
    int finished = 0, running = 0;
    while (finished < urlCount) {
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int queued;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            Body *body;
            long status = 0;
            curl_off_t expected = -1;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&body);
            curl_easy_getinfo(body->easy, CURLINFO_RESPONSE_CODE, &status);
            curl_easy_getinfo(body->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected);
            if (message->data.result != CURLE_OK || status != 200 || (curl_off_t)body->length != expected) {
                fprintf(stderr, "FetchLibcurlC: a transfer failed (%s, status %ld)\n",
                        curl_easy_strerror(message->data.result), status);
                return 1;
            }
            finished++;
            free(body->bytes);
            body->bytes = NULL;
            body->length = body->capacity = 0;
            curl_multi_remove_handle(multi, body->easy);
            if (nextURL < urlCount) start(multi, body);
        }
        if (finished < urlCount) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    for (int i = 0; i < concurrency; i++) if (bodies[i].easy) curl_easy_cleanup(bodies[i].easy);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return 0;
}
