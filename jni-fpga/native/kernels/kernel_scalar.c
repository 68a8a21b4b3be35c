/*
 * kernel_scalar.c: the portable kernel, one lane per "vector", several hash chains interleaved so
 * that a superscalar core has independent work. Built for every platform; the baseline the
 * vector kernels are measured against.
 */
#include <stdint.h>
#include <string.h>

#include "md5_kernel.h"

#define KSUF scalar
#define KNAME "scalar"
#define LANES 1
/* Independent chains per iteration: 4 where there are enough general registers (x86_64 has
 * 16, aarch64 31; measured on Zen 4: 1 -> 12, 2 -> 13, 4 -> 27 M hashes/s), 2 on 32-bit ARM. */
#ifndef SCALAR_IL
#if defined(__arm__)
#define SCALAR_IL 2
#else
#define SCALAR_IL 4
#endif
#endif
#define IL SCALAR_IL

typedef uint32_t V;

#define VSET1(x) ((uint32_t)(x))
#define VADD(a, b) ((uint32_t)((a) + (b)))
#define VOR(a, b) ((a) | (b))
#define VROTL(x, s) md5_rotl((x), (s))
#define VSHL(x, n) ((uint32_t)((uint64_t)(x) << (n)))
#define VSHR(x, n) ((uint32_t)((uint64_t)(x) >> (n)))
#define VF(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define VG(b, c, d) ((c) ^ ((d) & ((b) ^ (c))))
#define VH(b, c, d) ((b) ^ (c) ^ (d))
#define VI(b, c, d) ((c) ^ ((b) | ~(d)))
#define VBSWAP(x) md5_bswap(x)
#define VIOTA() ((uint32_t)0)
#define VLOADU(p) (*(const uint32_t *)(p))
#define VSTOREU(p, v) (*(p) = (v))
#define VEQ_BITS(v, x) ((unsigned)((v) == (x)))
#define VBITMAP_BITS(v, bm, mask) ((unsigned)(((bm)[((v) & (mask)) >> 5] >> ((v) & 31)) & 1u))

static inline void scalar_store_digest(uint8_t *out, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    const uint32_t w[4] = {a, b, c, d};
    memcpy(out, w, 16);
}
#define VSTORE_DIGESTS(out, a, b, c, d) scalar_store_digest((out), (a), (b), (c), (d))

#include "md5_template.h"
