/* lazylib.h: the game server's shared libraries (and the terminal client's
 * ncurses: src/cli/lazy_curses.c) loaded on first use.
 *
 * Why: every kontor command used to load SQLite, libuv and nettle, which only
 * the game server calls; their relocations (Debian builds them with
 * BIND_NOW) cost every process 1.6 M instructions before main, more than
 * half of `kontor replay` of one record (docs/engine-speed.md, issue 17). Instead, lazy_sqlite.c,
 * lazy_uv.c and lazy_nettle.c define each function kontor calls with the
 * header's own prototype: the first call loads the library with dlopen and
 * looks all of its functions up (once, for every thread), and each call then
 * goes through the pointer found. The code that calls them is unchanged.
 * The library's name is its soname, which the Makefile reads from the one
 * the compiler links against; a library that cannot be loaded ends the
 * process with a message naming it and its Debian package. libpq is loaded
 * in the same spirit, but with errors as values (pq.c).
 */
#ifndef KONTOR_SERVER_LAZYLIB_H
#define KONTOR_SERVER_LAZYLIB_H

#include <string.h>
#include <threads.h>

/* dlopen(soname); on failure a message on stderr and exit(1). */
void *lazylib_open(const char *soname, const char *package);
/* dlsym(lib, name); on failure a message on stderr and exit(1). */
void *lazylib_sym(void *lib, const char *soname, const char *name);

/* The lists of functions: X(return type, name, (parameters), (arguments)).
 * A wrapper file defines LIB_SONAME and LIB_PACKAGE, its FUNCS(X) (functions
 * that return a value), VFUNCS(X) (void ones) and OWN(X) (functions looked up
 * but wrapped by hand: the variadic ones), then LAZYLIB_DEFINE. */
#define LAZYLIB_FIELD(ret, name, params, args) __typeof__(name) *name;
#define LAZYLIB_LOOK(ret, name, params, args)                                                                         \
    do {                                                                                                               \
        void *f_ = lazylib_sym(lib, LIB_SONAME, #name);                                                                \
        /* POSIX: what dlsym returns for a function is its address */                                                  \
        memcpy(&lazy_fn.name, &f_, sizeof f_);                                                                         \
    } while (0);
#define LAZYLIB_WRAP(ret, name, params, args)                                                                          \
    ret name params {                                                                                                  \
        call_once(&lazy_once, lazy_load);                                                                              \
        return lazy_fn.name args;                                                                                      \
    }
#define LAZYLIB_WRAPV(ret, name, params, args)                                                                         \
    ret name params {                                                                                                  \
        call_once(&lazy_once, lazy_load);                                                                              \
        lazy_fn.name args;                                                                                             \
    }
#define LAZYLIB_DEFINE                                                                                                 \
    static struct {                                                                                                    \
        FUNCS(LAZYLIB_FIELD)                                                                                           \
        VFUNCS(LAZYLIB_FIELD)                                                                                          \
        OWN(LAZYLIB_FIELD)                                                                                             \
    } lazy_fn;                                                                                                         \
    static once_flag lazy_once = ONCE_FLAG_INIT;                                                                       \
    static void lazy_load(void) {                                                                                      \
        void *lib = lazylib_open(LIB_SONAME, LIB_PACKAGE);                                                             \
        FUNCS(LAZYLIB_LOOK)                                                                                            \
        VFUNCS(LAZYLIB_LOOK)                                                                                           \
        OWN(LAZYLIB_LOOK)                                                                                              \
    }                                                                                                                  \
    FUNCS(LAZYLIB_WRAP)                                                                                                \
    VFUNCS(LAZYLIB_WRAPV)

#endif
