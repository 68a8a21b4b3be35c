/*
 * kernel_avx512.c: 16 lanes in a 512-bit register, AVX-512F only (compiled with -mavx512f for
 * this file). Rotates are single vprold; each of MD5's boolean functions is one vpternlogd
 * (immediates derived in the comments below); the byte swap is built from two rotates and a
 * ternary select, so AVX-512BW is not required.
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "md5_kernel.h"

#define KSUF avx512
#define KNAME "avx512"
#define LANES 16
/* Vectors interleaved: the 32 ZMM registers hold 6 chains of 16 lanes (Zen 4, hash mode:
 * 2 -> 196, 4 -> 246, 6 -> 278, 8 -> 274 M/s per core). */
#ifndef AVX512_IL
#define AVX512_IL 6
#endif
#define IL AVX512_IL

typedef __m512i V;

/*
 * vpternlogd(A, B, C, imm): result bit = imm bit number (A << 2 | B << 1 | C).
 *   F = b ? c : d             (A=b, B=c, C=d): rows 1,3,6,7 -> 0xCA
 *   G = d ? b : c             (A=b, B=c, C=d): rows 2,5,6,7 -> 0xE4
 *   H = b ^ c ^ d                                          -> 0x96
 *   I = c ^ (b | ~d)          (A=b, B=c, C=d): rows 0,3,4,5 -> 0x39
 *   select(m, x, y) = m ? x : y  (A=m, B=x, C=y)            -> 0xCA
 */
#define VSET1(x) _mm512_set1_epi32((int)(x))
#define VADD(a, b) _mm512_add_epi32((a), (b))
#define VOR(a, b) _mm512_or_si512((a), (b))
#define VSHL(x, n) _mm512_sll_epi32((x), _mm_cvtsi32_si128((int)(n)))
#define VSHR(x, n) _mm512_srl_epi32((x), _mm_cvtsi32_si128((int)(n)))
#define VROTL(x, s) _mm512_rol_epi32((x), (s))
#define VF(b, c, d) _mm512_ternarylogic_epi32((b), (c), (d), 0xCA)
#define VG(b, c, d) _mm512_ternarylogic_epi32((b), (c), (d), 0xE4)
#define VH(b, c, d) _mm512_ternarylogic_epi32((b), (c), (d), 0x96)
#define VI(b, c, d) _mm512_ternarylogic_epi32((b), (c), (d), 0x39)
#define VLOADU(p) _mm512_loadu_si512((const void *)(p))
#define VSTOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define VIOTA() _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

/* bswap32(x): bytes 0 and 2 (mask 0x00ff00ff) come from rotl(x, 8), bytes 1 and 3 from rotr(x, 8). */
static inline __m512i avx512_bswap(__m512i x) {
    return _mm512_ternarylogic_epi32(_mm512_set1_epi32((int)0x00ff00ffu), _mm512_rol_epi32(x, 8),
                                     _mm512_ror_epi32(x, 8), 0xCA);
}
#define VBSWAP(x) avx512_bswap(x)

#define VEQ_BITS(v, x) ((unsigned)_mm512_cmpeq_epi32_mask((v), _mm512_set1_epi32((int)(x))))

static inline unsigned avx512_bitmap_bits(__m512i v, const uint32_t *bm, uint32_t mask) {
    const __m512i idx = _mm512_and_si512(v, _mm512_set1_epi32((int)mask));
    const __m512i words = _mm512_i32gather_epi32(_mm512_srli_epi32(idx, 5), (const void *)bm, 4);
    const __m512i bit = _mm512_srlv_epi32(words, _mm512_and_si512(idx, _mm512_set1_epi32(31)));
    return (unsigned)_mm512_test_epi32_mask(bit, _mm512_set1_epi32(1));
}
#define VBITMAP_BITS(v, bm, mask) avx512_bitmap_bits((v), (bm), (mask))

/* 16 lanes to 16 digests: 4x4 transposes inside each 128-bit quarter, then the quarters. */
static inline void avx512_store_digests(uint8_t *out, __m512i a, __m512i b, __m512i c, __m512i d) {
    const __m512i ab_lo = _mm512_unpacklo_epi32(a, b);
    const __m512i ab_hi = _mm512_unpackhi_epi32(a, b);
    const __m512i cd_lo = _mm512_unpacklo_epi32(c, d);
    const __m512i cd_hi = _mm512_unpackhi_epi32(c, d);
    const __m512i l0 = _mm512_unpacklo_epi64(ab_lo, cd_lo); /* lanes 0, 4, 8, 12 */
    const __m512i l1 = _mm512_unpackhi_epi64(ab_lo, cd_lo); /* lanes 1, 5, 9, 13 */
    const __m512i l2 = _mm512_unpacklo_epi64(ab_hi, cd_hi); /* lanes 2, 6, 10, 14 */
    const __m512i l3 = _mm512_unpackhi_epi64(ab_hi, cd_hi); /* lanes 3, 7, 11, 15 */
    const __m512i s01lo = _mm512_shuffle_i32x4(l0, l1, _MM_SHUFFLE(1, 0, 1, 0)); /* 0 4 1 5 */
    const __m512i s23lo = _mm512_shuffle_i32x4(l2, l3, _MM_SHUFFLE(1, 0, 1, 0)); /* 2 6 3 7 */
    const __m512i s01hi = _mm512_shuffle_i32x4(l0, l1, _MM_SHUFFLE(3, 2, 3, 2)); /* 8 12 9 13 */
    const __m512i s23hi = _mm512_shuffle_i32x4(l2, l3, _MM_SHUFFLE(3, 2, 3, 2)); /* 10 14 11 15 */
    uint8_t *o = out;
    _mm512_storeu_si512((void *)(o + 0), _mm512_shuffle_i32x4(s01lo, s23lo, _MM_SHUFFLE(2, 0, 2, 0)));
    _mm512_storeu_si512((void *)(o + 64), _mm512_shuffle_i32x4(s01lo, s23lo, _MM_SHUFFLE(3, 1, 3, 1)));
    _mm512_storeu_si512((void *)(o + 128), _mm512_shuffle_i32x4(s01hi, s23hi, _MM_SHUFFLE(2, 0, 2, 0)));
    _mm512_storeu_si512((void *)(o + 192), _mm512_shuffle_i32x4(s01hi, s23hi, _MM_SHUFFLE(3, 1, 3, 1)));
}
#define VSTORE_DIGESTS(out, a, b, c, d) avx512_store_digests((out), (a), (b), (c), (d))

#include "md5_template.h"
