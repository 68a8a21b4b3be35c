/*
 * md5_common.c: MD5's tables, the portable one-block reference used for confirmation, and the
 * backward steps that turn a target digest into the early-exit compare value.
 */
#include <stdint.h>
#include <string.h>

#include "fpgamr_md5.h"
#include "md5_internal.h"

/* K[i] = floor(|sin(i + 1)| * 2^32), RFC 1321. */
const uint32_t fpgamr_md5_K[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

const uint8_t fpgamr_md5_S[64] = {
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

/* Message word of each step: i, (5i + 1) mod 16, (3i + 5) mod 16, 7i mod 16 by round. */
const uint8_t fpgamr_md5_G[64] = {
    0, 1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
    1, 6,  11, 0,  5,  10, 15, 4,  9,  14, 3,  8,  13, 2,  7,  12,
    5, 8,  11, 14, 1,  4,  7,  10, 13, 0,  3,  6,  9,  12, 15, 2,
    0, 7,  14, 5,  12, 3,  10, 1,  8,  15, 6,  13, 4,  11, 2,  9,
};

static inline uint32_t md5_fn(int i, uint32_t b, uint32_t c, uint32_t d) {
    switch (i >> 4) {
    case 0:
        return d ^ (b & (c ^ d));
    case 1:
        return c ^ (d & (b ^ c));
    case 2:
        return b ^ c ^ d;
    default:
        return c ^ (b | ~d);
    }
}

void fpgamr_md5_words(uint64_t v, int w, uint32_t x[16]) {
    memset(x, 0, 16 * sizeof x[0]);
    x[0] = md5_word0(v, w);
    x[1] = md5_word1(v, w);
    x[2] = md5_word2(w);
    x[14] = md5_word14(w);
}

void fpgamr_md5_block_ref(const uint32_t x[16], uint32_t st[4]) {
    uint32_t q[68]; /* q[i + 4] is the register written by step i; q[0..3] the IV as a, d, c, b */
    q[0] = MD5_IV_A;
    q[1] = MD5_IV_D;
    q[2] = MD5_IV_C;
    q[3] = MD5_IV_B;
    for (int i = 0; i < 64; i++) {
        uint32_t t = q[i] + md5_fn(i, q[i + 3], q[i + 2], q[i + 1]) + x[fpgamr_md5_G[i]] + fpgamr_md5_K[i];
        q[i + 4] = q[i + 3] + md5_rotl(t, fpgamr_md5_S[i]);
    }
    st[0] = q[64] + MD5_IV_A;
    st[1] = q[67] + MD5_IV_B;
    st[2] = q[66] + MD5_IV_C;
    st[3] = q[65] + MD5_IV_D;
}

void fpgamr_md5_reference(uint64_t value, int width, uint8_t digest[16]) {
    uint32_t x[16], st[4];
    fpgamr_md5_words(value, width, x);
    fpgamr_md5_block_ref(x, st);
    memcpy(digest, st, 16);
}

uint32_t fpgamr_md5_target_value(const uint8_t digest[16], const uint32_t x[16], int varying) {
    uint32_t st[4];
    memcpy(st, digest, 16);
    uint32_t q[68];
    q[64] = st[0] - MD5_IV_A;
    q[67] = st[1] - MD5_IV_B;
    q[66] = st[2] - MD5_IV_C;
    q[65] = st[3] - MD5_IV_D;
    /* The step that adds the varying word in round 4: 48 for x0, 55 for x1. */
    const int stop = varying == 0 ? 48 : 55;
    for (int i = 63; i >= stop; i--) {
        const uint32_t word = i == stop ? 0u : x[fpgamr_md5_G[i]];
        const uint32_t r = q[i + 4] - q[i + 3];
        const uint32_t t = (r >> fpgamr_md5_S[i]) | (r << ((32 - fpgamr_md5_S[i]) & 31));
        q[i] = t - md5_fn(i, q[i + 3], q[i + 2], q[i + 1]) - word - fpgamr_md5_K[i];
    }
    /* q[stop] = Q[stop - 4] + x_varying: Q44 + x0 or Q51 + x1. */
    return q[stop];
}

void fpgamr_md5_fill_add(uint32_t add[64], const uint32_t x[16], int varying) {
    for (int i = 0; i < 64; i++) {
        const int g = fpgamr_md5_G[i];
        add[i] = fpgamr_md5_K[i] + (g == varying ? 0u : x[g]);
    }
}
