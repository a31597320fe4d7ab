#include <sqlite3.h>

#include "CLibraryLoader.h"
#include "../CCodecLoader/loader.h"

// SQLite has kept the soname libsqlite3.so.0 through version 3; then the -dev package's link.
static const char *const names[] = {"libsqlite3.so.0", "libsqlite3.so", NULL};

// Every SQLite function Osprey calls (the disk cache's index): return type, name, parameters, arguments.
#define OSP_SQLITE_FUNCTIONS(F, V)                                                                        \
    F(int, sqlite3_bind_double, (sqlite3_stmt * s, int i, double v), (s, i, v))                           \
    F(int, sqlite3_bind_int64, (sqlite3_stmt * s, int i, sqlite3_int64 v), (s, i, v))                     \
    F(int, sqlite3_bind_null, (sqlite3_stmt * s, int i), (s, i))                                          \
    F(int, sqlite3_bind_text, (sqlite3_stmt * s, int i, const char *v, int n, void (*d)(void *)), (s, i, v, n, d)) \
    F(int, sqlite3_busy_timeout, (sqlite3 * b, int m), (b, m))                                            \
    F(int, sqlite3_clear_bindings, (sqlite3_stmt * s), (s))                                               \
    F(int, sqlite3_close, (sqlite3 * b), (b))                                                             \
    F(int, sqlite3_close_v2, (sqlite3 * b), (b))                                                          \
    F(double, sqlite3_column_double, (sqlite3_stmt * s, int i), (s, i))                                   \
    F(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt * s, int i), (s, i))                             \
    F(const unsigned char *, sqlite3_column_text, (sqlite3_stmt * s, int i), (s, i))                      \
    F(int, sqlite3_column_type, (sqlite3_stmt * s, int i), (s, i))                                        \
    F(int, sqlite3_errcode, (sqlite3 * b), (b))                                                           \
    F(const char *, sqlite3_errmsg, (sqlite3 * b), (b))                                                   \
    F(const char *, sqlite3_errstr, (int c), (c))                                                         \
    F(int, sqlite3_exec, (sqlite3 * b, const char *q, int (*c)(void *, int, char **, char **), void *a, char **e), \
      (b, q, c, a, e))                                                                                    \
    F(int, sqlite3_finalize, (sqlite3_stmt * s), (s))                                                     \
    V(sqlite3_free, (void *p), (p))                                                                       \
    F(int, sqlite3_libversion_number, (void), ())                                                         \
    F(int, sqlite3_open, (const char *f, sqlite3 **b), (f, b))                                            \
    F(int, sqlite3_open_v2, (const char *f, sqlite3 **b, int l, const char *v), (f, b, l, v))             \
    F(int, sqlite3_prepare_v2, (sqlite3 * b, const char *q, int n, sqlite3_stmt **s, const char **t), (b, q, n, s, t)) \
    F(int, sqlite3_reset, (sqlite3_stmt * s), (s))                                                        \
    F(int, sqlite3_step, (sqlite3_stmt * s), (s))

OSP_DEFINE_LIBRARY(sqlite, OSP_SQLITE_FUNCTIONS)
