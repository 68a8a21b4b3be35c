/* md5_ref.h: small reference MD5 (RFC 1321) for test benches and driver
 * tests. Written for this project; header-only, C and C++. */
#ifndef MD5_REF_H
#define MD5_REF_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t md5_ref_rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

static inline void md5_ref_block(uint32_t st[4], const uint8_t blk[64])
{
    static const uint8_t S[16] = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};
    static uint32_t K[64];
    static int have_k = 0;
    if (!have_k) {
        /* K[i] = floor(|sin(i+1)| * 2^32), tabulated without libm: */
        static const uint32_t T[64] = {
            0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
            0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
            0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
            0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
            0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
            0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
            0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
            0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
        memcpy(K, T, sizeof K);
        have_k = 1;
    }
    uint32_t M[16];
    for (int i = 0; i < 16; i++)
        M[i] = (uint32_t)blk[4 * i] | (uint32_t)blk[4 * i + 1] << 8 | (uint32_t)blk[4 * i + 2] << 16 |
               (uint32_t)blk[4 * i + 3] << 24;
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        switch (i / 16) {
        case 0: f = (b & c) | (~b & d); g = i; break;
        case 1: f = (d & b) | (~d & c); g = (5 * i + 1) % 16; break;
        case 2: f = b ^ c ^ d; g = (3 * i + 5) % 16; break;
        default: f = c ^ (b | ~d); g = (7 * i) % 16; break;
        }
        uint32_t nb = b + md5_ref_rotl(a + f + K[i] + M[g], S[(i / 16) * 4 + i % 4]);
        a = d; d = c; c = b; b = nb;
    }
    st[0] += a; st[1] += b; st[2] += c; st[3] += d;
}

/* MD5 of a message of at most 55 bytes (one block). */
static inline void md5_ref_short(const uint8_t *msg, size_t len, uint8_t out[16])
{
    uint8_t blk[64];
    uint32_t st[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    memset(blk, 0, sizeof blk);
    memcpy(blk, msg, len);
    blk[len] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) blk[56 + i] = (uint8_t)(bits >> (8 * i));
    md5_ref_block(st, blk);
    for (int i = 0; i < 16; i++) out[i] = (uint8_t)(st[i / 4] >> (8 * (i % 4)));
}

/* MD5 of value v encoded big-endian in w bytes (1..8). */
static inline void md5_ref_value(uint64_t v, int w, uint8_t out[16])
{
    uint8_t m[8];
    for (int k = 0; k < w; k++) m[k] = (uint8_t)(v >> (8 * (w - 1 - k)));
    md5_ref_short(m, (size_t)w, out);
}
#endif
