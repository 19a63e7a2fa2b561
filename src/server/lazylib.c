/* lazylib.c: loading the game server's libraries on first use (lazylib.h
 * says why). A library once loaded stays for the life of the process. */
#include "server/lazylib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void *lazylib_open(const char *soname, const char *package) {
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        fprintf(stderr, "kontor: cannot load the library '%s' that the game server needs (install %s): %s\n", soname,
                package, why ? why : "not found");
        exit(1);
    }
    return lib;
}

void *lazylib_sym(void *lib, const char *soname, const char *name) {
    void *f = dlsym(lib, name);
    if (!f) {
        fprintf(stderr, "kontor: the library '%s' has no function %s (too old a version?)\n", soname, name);
        exit(1);
    }
    return f;
}
