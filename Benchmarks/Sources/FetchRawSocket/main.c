// A reference for the download benchmark, not a peer: this machine's floor for the list —
// six threads, each a blocking keep-alive HTTP/1.1 connection to the list's host, plain
// GETs, the bytes read into one reused 256 KB buffer and dropped. No library, no event loop,
// no body kept; only what any client must ask of the kernel. Handles only what nginx sends
// for the benchmark (200 with Content-Length); anything else ends it with status 1.
//
// usage: FetchRawSocket URL_LIST     (every URL http://127.0.0.1:PORT/..., one port)
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { concurrency = 6, maxURLs = 100000, bufferSize = 256 * 1024 };

static char *paths[maxURLs];
static int pathCount, port;
static atomic_int nextPath;

static void fail(const char *what) {
    fprintf(stderr, "FetchRawSocket: %s\n", what);
    exit(1);
}

static void *fetch(void *unused) {
    (void)unused;
    int socket_ = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (connect(socket_, (struct sockaddr *)&address, sizeof address) != 0) fail("cannot connect");
    int on = 1;
    setsockopt(socket_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    char *buffer = malloc(bufferSize + 1);
    for (int i; (i = atomic_fetch_add(&nextPath, 1)) < pathCount;) {
        char request[4200];
        int length = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", paths[i]);
        if (write(socket_, request, (size_t)length) != length) fail("cannot send");
        size_t have = 0;
        char *headEnd = NULL;
        while (!headEnd) {
            ssize_t n = read(socket_, buffer + have, bufferSize - have);
            if (n <= 0) fail("connection closed in a head");
            have += (size_t)n;
            buffer[have] = 0;
            headEnd = strstr(buffer, "\r\n\r\n");
        }
        char *contentLength = strcasestr(buffer, "\r\ncontent-length:");
        if (strncmp(buffer, "HTTP/1.1 200", 12) != 0 || !contentLength || contentLength > headEnd) fail("not a 200 with Content-Length");
        long expected = strtol(contentLength + 17, NULL, 10);
        long received = (long)(have - (size_t)(headEnd + 4 - buffer));
        while (received < expected) {
            ssize_t n = read(socket_, buffer, bufferSize);
            if (n <= 0) fail("connection closed in a body");
            received += n;
        }
        if (received != expected) fail("more bytes than Content-Length");
    }
    free(buffer);
    close(socket_);
    return NULL;
}

int main(int argc, char **argv) {
    FILE *list = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!list) fail("usage: FetchRawSocket URL_LIST");
    char line[4096];
    while (pathCount < maxURLs && fgets(line, sizeof line, list)) {
        line[strcspn(line, "\r\n")] = 0;
        char *authority = strstr(line, "http://127.0.0.1:");
        char *path = authority ? strchr(authority + 7, '/') : NULL;
        if (!path) { if (line[0]) fail("only http://127.0.0.1:PORT/ URLs"); continue; }
        port = atoi(authority + 17);
        paths[pathCount++] = strdup(path);
    }
    fclose(list);
    if (pathCount == 0) return 0;
    pthread_t threads[concurrency];
    for (int i = 0; i < concurrency; i++) pthread_create(&threads[i], NULL, fetch, NULL);
    for (int i = 0; i < concurrency; i++) pthread_join(threads[i], NULL);
    return 0;
}
