/*
 * md5_kernel.h: what a CPU kernel provides to the engine (src/engine.c), and the data a search
 * kernel works with. Private to libfpgamr.
 *
 * The message of value v in width w = 4..8 bytes is one MD5 block whose words are all zero but
 *   x0  = the first 4 message bytes (the top 32 bits of v, byte-swapped),
 *   x1  = the remaining w - 4 bytes followed by the 0x80 pad byte (0x80 alone when w = 4),
 *   x2  = 0x80 when w = 8 (the pad spills into word 2), else 0,
 *   x14 = 8 * w, the length in bits.
 * With L = 8 * (w - 4): v = (h << L) | lo, x0 = bswap32(h) and x1 = bytes of lo, then the pad.
 */
#ifndef FPGAMR_MD5_KERNEL_H
#define FPGAMR_MD5_KERNEL_H

#include <stdint.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libfpgamr assumes a little-endian CPU (x86_64, aarch64, armhf)"
#endif

#define MD5_IV_A 0x67452301u
#define MD5_IV_B 0xefcdab89u
#define MD5_IV_C 0x98badcfeu
#define MD5_IV_D 0x10325476u

/* Step constants, rotation amounts and message word index of each of MD5's 64 steps. */
extern const uint32_t fpgamr_md5_K[64];
extern const uint8_t fpgamr_md5_S[64];
extern const uint8_t fpgamr_md5_G[64];

/*
 * Early exit. Forward, the search computes steps 0..(last-1) only. Backward, each target digest
 * is un-done through the final steps whose message words are all fixed:
 *   x0 varies (MODE_X0): steps 63..49 use fixed words, and step 48 adds x0, so the register
 *     written by step 44, Q44, satisfies Q44 + x0 == T(target, fixed words): 45 forward steps.
 *   x1 varies (MODE_X1): steps 63..56 use fixed words and step 55 adds x1, so Q51 + x1 == T:
 *     52 forward steps (step 0 is then constant).
 */
#define SEARCH_X0_LAST 45
#define SEARCH_X1_LAST 52

struct fpgamr_search;

/* Called by a kernel for each lane whose partial compare passed; i is the lane's index in the
 * kernel call ([0, n) is checked by the callee), cand its Q + x value. */
void fpgamr_search_hit(struct fpgamr_search *s, uint32_t i, uint32_t cand);

/* The compare stage a search kernel runs on each vector of candidates. */
typedef struct fpgamr_search {
    /* Addend of each step: K[i] plus the fixed message word used by step i (not the varying one). */
    uint32_t add[64];
    /* x1 of MODE_X1 lanes: x1 = bswap32(lo << (32 - L)) | pad; shift = 32 - L (0 when L = 32). */
    uint32_t x1_shift;
    uint32_t x1_pad;
    /* The filter: one target value (nt == 1) compared directly, else a bitmap of 2^bits bits
     * indexed by the low bits of the candidate, then the sorted list of T values. */
    uint32_t nt;
    uint32_t single;
    uint32_t bmask;          /* (1 << bits) - 1 */
    const uint32_t *bitmap;  /* (bmask + 1) / 32 words */
    const uint32_t *tsorted; /* nt values, ascending */
    /* For confirmation, set by the engine: lane i of the current call is value base + i * stride. */
    uint64_t base;
    uint64_t stride;
    uint32_t n;          /* lanes [0, n) of the current call are real */
    void *sink;          /* engine-private: targets, width, found list */
} fpgamr_search;

typedef struct fpgamr_kernel {
    const char *name;
    int lanes; /* per vector */
    /* Digests of values (hi32 << 32) | (lo32 + i), i < n; lo32 + n - 1 must not wrap. */
    void (*hash_seg)(uint32_t hi32, uint32_t lo32, uint32_t n, int width, uint8_t *out);
    /* Digests of blocks whose words 0 and 1 are x0[i], x1[i] (i < n); other words per width. */
    void (*hash_words)(const uint32_t *x0, const uint32_t *x1, uint32_t n, int width, uint8_t *out);
    /* MODE_X0: lanes h = hbase + i (i < n), x0 = bswap32(h); calls fpgamr_search_hit. */
    void (*search_x0)(fpgamr_search *s, uint32_t hbase, uint32_t n);
    /* MODE_X1: lanes lo = lobase + i (i < n), x1 from lo; x0 folded into s->add. */
    void (*search_x1)(fpgamr_search *s, uint32_t lobase, uint32_t n);
} fpgamr_kernel;

extern const fpgamr_kernel fpgamr_kernel_scalar;
#if defined(__x86_64__)
extern const fpgamr_kernel fpgamr_kernel_avx2;
extern const fpgamr_kernel fpgamr_kernel_avx512;
#endif
#if defined(__aarch64__) || defined(__arm__)
extern const fpgamr_kernel fpgamr_kernel_neon;
#endif

static inline uint32_t md5_rotl(uint32_t x, unsigned s) {
    return (x << s) | (x >> ((32 - s) & 31));
}

static inline uint32_t md5_bswap(uint32_t x) {
    return __builtin_bswap32(x);
}

/* The message words of value v in width w. */
static inline uint32_t md5_word0(uint64_t v, int w) {
    return md5_bswap((uint32_t)(v >> (8 * (w - 4))));
}

static inline uint32_t md5_word1(uint64_t v, int w) {
    unsigned tail = (unsigned)(w - 4);
    if (tail == 0) {
        return 0x80u;
    }
    if (tail == 4) {
        return md5_bswap((uint32_t)v);
    }
    return md5_bswap((uint32_t)v << (32 - 8 * tail)) | (0x80u << (8 * tail));
}

static inline uint32_t md5_word2(int w) {
    return w == 8 ? 0x80u : 0u;
}

static inline uint32_t md5_word14(int w) {
    return 8u * (uint32_t)w;
}

#endif
