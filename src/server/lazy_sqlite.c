/* lazy_sqlite.c: the SQLite functions the store calls (store_sqlite.c),
 * loaded with the library on first use (lazylib.h says why). */
#include <sqlite3.h>
#include <stdarg.h>

#include "server/lazylib.h"

#ifndef LIB_SONAME
#define LIB_SONAME "libsqlite3.so.0"
#endif
#define LIB_PACKAGE "libsqlite3-0"

#define FUNCS(X)                                                                                                       \
    X(int, sqlite3_bind_int, (sqlite3_stmt * s, int i, int v), (s, i, v))                                              \
    X(int, sqlite3_bind_text, (sqlite3_stmt * s, int i, const char *t, int n, void (*del)(void *)), (s, i, t, n, del)) \
    X(int, sqlite3_busy_timeout, (sqlite3 * db, int ms), (db, ms))                                                     \
    X(int, sqlite3_clear_bindings, (sqlite3_stmt * s), (s))                                                            \
    X(int, sqlite3_close, (sqlite3 * db), (db))                                                                        \
    X(int, sqlite3_column_int, (sqlite3_stmt * s, int col), (s, col))                                                  \
    X(const unsigned char *, sqlite3_column_text, (sqlite3_stmt * s, int col), (s, col))                               \
    X(const char *, sqlite3_errmsg, (sqlite3 * db), (db))                                                              \
    X(int, sqlite3_exec, (sqlite3 * db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg,          \
                          char **errmsg),                                                                              \
      (db, sql, cb, arg, errmsg))                                                                                      \
    X(int, sqlite3_finalize, (sqlite3_stmt * s), (s))                                                                  \
    X(int, sqlite3_get_autocommit, (sqlite3 * db), (db))                                                               \
    X(char *, sqlite3_vmprintf, (const char *fmt, va_list ap), (fmt, ap))                                              \
    X(int, sqlite3_open_v2, (const char *file, sqlite3 **db, int flags, const char *vfs), (file, db, flags, vfs))      \
    X(int, sqlite3_prepare_v2, (sqlite3 * db, const char *sql, int n, sqlite3_stmt **s, const char **tail),            \
      (db, sql, n, s, tail))                                                                                           \
    X(int, sqlite3_reset, (sqlite3_stmt * s), (s))                                                                     \
    X(int, sqlite3_step, (sqlite3_stmt * s), (s))                                                                      \
    X(int, sqlite3_wal_checkpoint_v2, (sqlite3 * db, const char *name, int mode, int *log, int *ckpt),                 \
      (db, name, mode, log, ckpt))                                                                                     \
    X(void *, sqlite3_wal_hook, (sqlite3 * db, int (*hook)(void *, sqlite3 *, const char *, int), void *arg),          \
      (db, hook, arg))
#define VFUNCS(X) X(void, sqlite3_free, (void *p), (p))
#define OWN(X)

LAZYLIB_DEFINE

/* (variadic: through sqlite3_vmprintf) */
char *sqlite3_mprintf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *s = sqlite3_vmprintf(fmt, ap);
    va_end(ap);
    return s;
}
