/* sha1.c: the WebSocket handshake's accept value (sha1.h), from nettle's SHA-1 and base64.
 *
 * Nettle (Debian's nettle-dev, GnuTLS's primitives) does the hashing and the
 * encoding: the house prefers a well-kept library to hand-written crypto,
 * even for a hash used only as a handshake's proof of understanding.
 */
#include <string.h>

#include <nettle/base64.h>
#include <nettle/sha1.h>

#include "server/sha1.h"

void ws_accept_key(const char *key, size_t keylen, char out[29]) {
    static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    struct sha1_ctx ctx;
    uint8_t digest[SHA1_DIGEST_SIZE];
    if (keylen > 128) keylen = 128; /* a real key is 24 characters (RFC 6455, 4.1) */
    sha1_init(&ctx);
    sha1_update(&ctx, keylen, (const uint8_t *)key);
    sha1_update(&ctx, sizeof guid - 1, (const uint8_t *)guid);
    sha1_digest(&ctx, sizeof digest, digest);
    _Static_assert(BASE64_ENCODE_RAW_LENGTH(SHA1_DIGEST_SIZE) == 28, "the accept value is 28 characters");
    base64_encode_raw((char *)out, sizeof digest, digest);
    out[28] = 0;
}
