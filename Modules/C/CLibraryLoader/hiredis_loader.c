#include <hiredis/hiredis.h>

#include "CLibraryLoader.h"
#include "../CCodecLoader/loader.h"

// hiredis names its soname after its version (libhiredis.so.0.14 on Debian 12, .so.1.1.0 on 13).
#define OSP_STRING(x) #x
#define OSP_SONAME(version) "libhiredis.so." OSP_STRING(version)
static const char *const names[] = {OSP_SONAME(HIREDIS_SONAME), "libhiredis.so", NULL};

// Every hiredis function Osprey calls: return type, name, parameters, arguments.
#define OSP_HIREDIS_FUNCTIONS(F, V)                                                                       \
    V(freeReplyObject, (void *r), (r))                                                                    \
    F(void *, redisCommandArgv, (redisContext * c, int n, const char **a, const size_t *l), (c, n, a, l)) \
    F(redisContext *, redisConnectWithTimeout, (const char *h, int p, const struct timeval t), (h, p, t)) \
    F(int, redisFormatCommandArgv, (char **o, int n, const char **a, const size_t *l), (o, n, a, l))      \
    V(redisFree, (redisContext * c), (c))                                                                 \
    V(redisFreeCommand, (char *c), (c))                                                                   \
    F(redisReader *, redisReaderCreate, (void), ())                                                       \
    F(int, redisReaderFeed, (redisReader * r, const char *b, size_t n), (r, b, n))                        \
    V(redisReaderFree, (redisReader * r), (r))                                                            \
    F(int, redisReaderGetReply, (redisReader * r, void **o), (r, o))                                      \
    F(int, redisSetTimeout, (redisContext * c, const struct timeval t), (c, t))

OSP_DEFINE_LIBRARY(hiredis, OSP_HIREDIS_FUNCTIONS)
