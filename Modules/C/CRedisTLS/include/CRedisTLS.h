// Redis over TLS for Debian 12's hiredis 0.14, which has no TLS of its own (hiredis_ssl came
// in 1.0): OpenSSL carries the bytes, hiredis formats the commands and parses the replies.
#ifndef OSPREY_CREDISTLS_H
#define OSPREY_CREDISTLS_H

#include <stddef.h>

typedef struct osp_redis_tls osp_redis_tls;

/// Connects to host:port within timeout_ms, verifying the server's certificate for `host`
/// against `ca_file` (PEM) or, when NULL, the system's authorities. NULL on failure, with
/// the reason in `error`.
osp_redis_tls *osp_redis_tls_connect(const char *host, int port, int timeout_ms, int command_timeout_ms,
                                     const char *ca_file, char *error, size_t error_length);

/// Sends one command and returns hiredis's reply (free it with freeReplyObject), or NULL
/// with the reason in `error` (the connection is then unusable).
void *osp_redis_tls_command(osp_redis_tls *connection, int argc, const char **argv, const size_t *argvlen,
                            char *error, size_t error_length);

void osp_redis_tls_free(osp_redis_tls *connection);

#endif
