#include "CRedisTLS.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

struct osp_redis_tls {
    int fd;
    SSL_CTX *context;
    SSL *ssl;
    redisReader *reader;
};

static void fail(char *error, size_t length, const char *what) {
    unsigned long code = ERR_get_error();
    if (code) {
        char detail[160];
        ERR_error_string_n(code, detail, sizeof detail);
        snprintf(error, length, "%s: %s", what, detail);
    } else {
        snprintf(error, length, "%s%s%s", what, errno ? ": " : "", errno ? strerror(errno) : "");
    }
    ERR_clear_error();
}

// A TCP connection within timeout_ms, or -1.
static int connect_tcp(const char *host, int port, int timeout_ms, char *error, size_t length) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = {0}, *addresses = NULL;
    hints.ai_socktype = SOCK_STREAM;
    int status = getaddrinfo(host, service, &hints, &addresses);
    if (status != 0) {
        snprintf(error, length, "cannot resolve %s: %s", host, gai_strerror(status));
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *address = addresses; address; address = address->ai_next) {
        fd = socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, address->ai_protocol);
        if (fd < 0) continue;
        if (connect(fd, address->ai_addr, address->ai_addrlen) == 0) break;
        if (errno == EINPROGRESS) {
            struct pollfd waiting = {fd, POLLOUT, 0};
            int soerror = 0;
            socklen_t size = sizeof soerror;
            if (poll(&waiting, 1, timeout_ms) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerror, &size) == 0 && !soerror) break;
            errno = soerror ? soerror : ETIMEDOUT;
        }
        close(fd);
        fd = -1;
    }
    freeaddrinfo(addresses);
    if (fd < 0) {
        snprintf(error, length, "cannot connect to %s:%d: %s", host, port, strerror(errno));
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

osp_redis_tls *osp_redis_tls_connect(const char *host, int port, int timeout_ms, int command_timeout_ms,
                                     const char *ca_file, char *error, size_t length) {
    errno = 0;
    int fd = connect_tcp(host, port, timeout_ms, error, length);
    if (fd < 0) return NULL;
    struct timeval wait = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
    osp_redis_tls *self = calloc(1, sizeof *self);
    if (!self) {
        close(fd);
        snprintf(error, length, "out of memory");
        return NULL;
    }
    self->fd = fd;
    self->context = SSL_CTX_new(TLS_client_method());
    if (!self->context) { fail(error, length, "cannot create a TLS context"); goto failed; }
    SSL_CTX_set_min_proto_version(self->context, TLS1_2_VERSION);
    SSL_CTX_set_verify(self->context, SSL_VERIFY_PEER, NULL);
    if ((ca_file ? SSL_CTX_load_verify_locations(self->context, ca_file, NULL) : SSL_CTX_set_default_verify_paths(self->context)) != 1) {
        fail(error, length, "cannot load the certificate authorities");
        goto failed;
    }
    self->ssl = SSL_new(self->context);
    if (!self->ssl || SSL_set_fd(self->ssl, fd) != 1) { fail(error, length, "cannot start TLS"); goto failed; }
    SSL_set_tlsext_host_name(self->ssl, host);
    // The certificate must name the host (or its address) we asked for.
    X509_VERIFY_PARAM *param = SSL_get0_param(self->ssl);
    if (X509_VERIFY_PARAM_set1_ip_asc(param, host) != 1) SSL_set1_host(self->ssl, host);
    if (SSL_connect(self->ssl) != 1) {
        long verified = SSL_get_verify_result(self->ssl);
        if (verified != X509_V_OK) {
            snprintf(error, length, "the server's certificate is not trusted: %s", X509_verify_cert_error_string(verified));
            ERR_clear_error();
        } else {
            fail(error, length, "the TLS handshake failed");
        }
        goto failed;
    }
    struct timeval command = {command_timeout_ms / 1000, (command_timeout_ms % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &command, sizeof command);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &command, sizeof command);
    self->reader = redisReaderCreate();
    if (!self->reader) { snprintf(error, length, "out of memory"); goto failed; }
    return self;
failed:
    osp_redis_tls_free(self);
    return NULL;
}

void *osp_redis_tls_command(osp_redis_tls *self, int argc, const char **argv, const size_t *argvlen, char *error, size_t length) {
    char *command = NULL;
    int size = redisFormatCommandArgv(&command, argc, argv, argvlen);
    if (size < 0) {
        snprintf(error, length, "out of memory");
        return NULL;
    }
    for (int sent = 0; sent < size;) {
        int wrote = SSL_write(self->ssl, command + sent, size - sent);
        if (wrote <= 0) {
            redisFreeCommand(command);
            fail(error, length, "cannot send to Redis");
            return NULL;
        }
        sent += wrote;
    }
    redisFreeCommand(command);
    void *reply = NULL;
    char buffer[16384];
    while (!reply) {
        if (redisReaderGetReply(self->reader, &reply) != REDIS_OK) {
            snprintf(error, length, "unreadable reply: %s", self->reader->errstr);
            return NULL;
        }
        if (reply) break;
        int got = SSL_read(self->ssl, buffer, sizeof buffer);
        if (got <= 0) {
            fail(error, length, "cannot read from Redis");
            return NULL;
        }
        if (redisReaderFeed(self->reader, buffer, (size_t)got) != REDIS_OK) {
            snprintf(error, length, "unreadable reply: %s", self->reader->errstr);
            return NULL;
        }
    }
    return reply;
}

void osp_redis_tls_free(osp_redis_tls *self) {
    if (!self) return;
    if (self->ssl) {
        SSL_shutdown(self->ssl);
        SSL_free(self->ssl);
    }
    if (self->context) SSL_CTX_free(self->context);
    if (self->reader) redisReaderFree(self->reader);
    if (self->fd >= 0) close(self->fd);
    free(self);
}
