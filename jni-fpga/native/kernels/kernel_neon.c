/*
 * kernel_neon.c: 4 lanes in a 128-bit NEON register, for aarch64 (Advanced SIMD is baseline) and
 * armhf (compiled with -mfpu=neon for this file only; the engine checks HWCAP_NEON first).
 * F and G are one bit-select (vbsl), I is an or-not and an xor, rotates are a shift left plus a
 * shift-right-and-insert (vsri), the 16-bit rotate a halfword reverse, and stores interleave the
 * four state vectors into digests with one vst4.
 */
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "md5_kernel.h"

#define KSUF neon
#define KNAME "neon"
#define LANES 4
/* Vectors interleaved: aarch64 has 32 vector registers, ARMv7 NEON 16 quad registers. */
#ifndef NEON_IL
#if defined(__aarch64__)
#define NEON_IL 4
#else
#define NEON_IL 2
#endif
#endif
#define IL NEON_IL

typedef uint32x4_t V;

#define VSET1(x) vdupq_n_u32((uint32_t)(x))
#define VADD(a, b) vaddq_u32((a), (b))
#define VOR(a, b) vorrq_u32((a), (b))
#define VSHL(x, n) vshlq_u32((x), vdupq_n_s32((int32_t)(n)))
#define VSHR(x, n) vshlq_u32((x), vdupq_n_s32(-(int32_t)(n)))
#define VF(b, c, d) vbslq_u32((b), (c), (d))
#define VG(b, c, d) vbslq_u32((d), (b), (c))
#define VH(b, c, d) veorq_u32(veorq_u32((b), (c)), (d))
#define VI(b, c, d) veorq_u32((c), vornq_u32((b), (d)))
#define VLOADU(p) vld1q_u32((const uint32_t *)(p))
#define VSTOREU(p, v) vst1q_u32((uint32_t *)(p), (v))
#define VBSWAP(x) vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(x)))

static inline uint32x4_t neon_iota(void) {
    static const uint32_t iota[4] = {0, 1, 2, 3};
    return vld1q_u32(iota);
}
#define VIOTA() neon_iota()

#define VROTL(x, s)                                                                          \
    ((s) == 16 ? vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x)))                \
               : vsriq_n_u32(vshlq_n_u32((x), (s)), (x), 32 - (s)))

static inline unsigned neon_lane_bits(uint32x4_t m) {
    /* m lanes are all-ones or zero; weigh them 1, 2, 4, 8 and add. */
    static const uint32_t w[4] = {1, 2, 4, 8};
    const uint32x4_t b = vandq_u32(m, vld1q_u32(w));
#if defined(__aarch64__)
    return vaddvq_u32(b);
#else
    const uint32x2_t s = vadd_u32(vget_low_u32(b), vget_high_u32(b));
    return vget_lane_u32(vpadd_u32(s, s), 0);
#endif
}
#define VEQ_BITS(v, x) neon_lane_bits(vceqq_u32((v), vdupq_n_u32(x)))

static inline unsigned neon_bitmap_bits(uint32x4_t v, const uint32_t *bm, uint32_t mask) {
    uint32_t l[4];
    vst1q_u32(l, vandq_u32(v, vdupq_n_u32(mask)));
    unsigned bits = 0;
    for (int j = 0; j < 4; j++) {
        bits |= ((bm[l[j] >> 5] >> (l[j] & 31)) & 1u) << j;
    }
    return bits;
}
#define VBITMAP_BITS(v, bm, mask) neon_bitmap_bits((v), (bm), (mask))

static inline void neon_store_digests(uint8_t *out, uint32x4_t a, uint32x4_t b, uint32x4_t c, uint32x4_t d) {
    uint32x4x4_t q;
    q.val[0] = a;
    q.val[1] = b;
    q.val[2] = c;
    q.val[3] = d;
    vst4q_u32((uint32_t *)(void *)out, q);
}
#define VSTORE_DIGESTS(out, a, b, c, d) neon_store_digests((out), (a), (b), (c), (d))

#include "md5_template.h"
