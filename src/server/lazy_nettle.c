/* lazy_nettle.c: the nettle functions of the WebSocket handshake (sha1.c),
 * loaded with the library on first use (lazylib.h says why). */
#include <nettle/base64.h>
#include <nettle/sha1.h>

#include "server/lazylib.h"

#ifndef LIB_SONAME
#define LIB_SONAME "libnettle.so.8"
#endif
#define LIB_PACKAGE "libnettle8"

#define FUNCS(X)
#define VFUNCS(X)                                                                                                      \
    X(void, nettle_sha1_init, (struct sha1_ctx * ctx), (ctx))                                                          \
    X(void, nettle_sha1_update, (struct sha1_ctx * ctx, size_t n, const uint8_t *data), (ctx, n, data))                \
    X(void, nettle_sha1_digest, (struct sha1_ctx * ctx, size_t n, uint8_t *digest), (ctx, n, digest))                  \
    X(void, nettle_base64_encode_raw, (char *dst, size_t n, const uint8_t *src), (dst, n, src))
#define OWN(X)

LAZYLIB_DEFINE
