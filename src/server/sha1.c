/* sha1.c: SHA-1 (FIPS 180-4) and base64 for the WebSocket handshake (sha1.h). */
#include <stdint.h>
#include <string.h>

#include "server/sha1.h"

static uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static void block(uint32_t h[5], const unsigned char *p) {
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 80; i++) w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) f = (b & c) | (~b & d), k = 0x5A827999;
        else if (i < 40) f = b ^ c ^ d, k = 0x6ED9EBA1;
        else if (i < 60) f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
        else f = b ^ c ^ d, k = 0xCA62C1D6;
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d, d = c, c = rol(b, 30), b = a, a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

static void sha1(const unsigned char *msg, size_t len, unsigned char out[20]) {
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    size_t i = 0;
    for (; i + 64 <= len; i += 64) block(h, msg + i);
    unsigned char last[128];
    size_t rest = len - i;
    memcpy(last, msg + i, rest);
    last[rest] = 0x80;
    size_t n = rest + 1 + 8 <= 64 ? 64 : 128;
    memset(last + rest + 1, 0, n - rest - 1);
    uint64_t bits = (uint64_t)len * 8;
    for (int k = 0; k < 8; k++) last[n - 1 - k] = (unsigned char)(bits >> (8 * k));
    block(h, last);
    if (n == 128) block(h, last + 64);
    for (int k = 0; k < 5; k++)
        for (int j = 0; j < 4; j++) out[4 * k + j] = (unsigned char)(h[k] >> (24 - 8 * j));
}

void ws_accept_key(const char *key, size_t keylen, char out[29]) {
    static const char guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned char buf[128 + sizeof guid], d[21];
    if (keylen > 128) keylen = 128;
    memcpy(buf, key, keylen);
    memcpy(buf + keylen, guid, sizeof guid - 1);
    sha1(buf, keylen + sizeof guid - 1, d);
    d[20] = 0;
    int o = 0;
    for (int i = 0; i < 21; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)(i + 1 < 21 ? d[i + 1] : 0) << 8 | (i + 2 < 21 ? d[i + 2] : 0);
        out[o++] = b64[v >> 18 & 63];
        out[o++] = b64[v >> 12 & 63];
        out[o++] = i + 1 < 20 ? b64[v >> 6 & 63] : '=';
        out[o++] = i + 2 < 20 ? b64[v & 63] : '=';
    }
    out[28] = 0;
}
