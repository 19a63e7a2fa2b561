/* sha1.h: SHA-1 and base64, for the WebSocket handshake's Sec-WebSocket-Accept only (RFC 6455, 4.2.2).
 *
 * SHA-1 is broken for signatures; the handshake uses it only to show that the
 * server understood the upgrade, as the RFC requires.
 */
#ifndef KONTOR_SERVER_SHA1_H
#define KONTOR_SERVER_SHA1_H

#include <stddef.h>

/* The accept value for a client's Sec-WebSocket-Key: base64(SHA-1(key GUID)),
 * 28 characters and a NUL into out. */
void ws_accept_key(const char *key, size_t keylen, char out[29]);

#endif
