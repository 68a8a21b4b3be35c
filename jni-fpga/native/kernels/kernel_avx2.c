/*
 * kernel_avx2.c: 8 lanes of 32 bits in a 256-bit AVX2 register. Compiled with -mavx2 (this file
 * only); the engine calls it only when cpuid and XGETBV say the CPU and OS support AVX2.
 * Rotates are two shifts and an or; the 16-bit rotate of round 3 is a byte shuffle.
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "md5_kernel.h"

#define KSUF avx2
#define KNAME "avx2"
#define LANES 8
/* Vectors interleaved: 3 (Zen 4, hash mode: 2 -> 122, 3 -> 150, 4 -> 124 M/s per core). */
#ifndef AVX2_IL
#define AVX2_IL 3
#endif
#define IL AVX2_IL

typedef __m256i V;

#define VSET1(x) _mm256_set1_epi32((int)(x))
#define VADD(a, b) _mm256_add_epi32((a), (b))
#define VOR(a, b) _mm256_or_si256((a), (b))
#define VSHL(x, n) _mm256_sll_epi32((x), _mm_cvtsi32_si128((int)(n)))
#define VSHR(x, n) _mm256_srl_epi32((x), _mm_cvtsi32_si128((int)(n)))
#define VF(b, c, d) _mm256_xor_si256((d), _mm256_and_si256((b), _mm256_xor_si256((c), (d))))
#define VG(b, c, d) _mm256_xor_si256((c), _mm256_and_si256((d), _mm256_xor_si256((b), (c))))
#define VH(b, c, d) _mm256_xor_si256(_mm256_xor_si256((b), (c)), (d))
#define VI(b, c, d) _mm256_xor_si256((c), _mm256_or_si256((b), _mm256_xor_si256((d), _mm256_set1_epi32(-1))))
#define VLOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VSTOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define VIOTA() _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)

static inline __m256i avx2_rotl(__m256i x, int s) {
    if (s == 16) {
        return _mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                                                       2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
    }
    return _mm256_or_si256(_mm256_slli_epi32(x, s), _mm256_srli_epi32(x, 32 - s));
}
#define VROTL(x, s) avx2_rotl((x), (s))

static inline __m256i avx2_bswap(__m256i x) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
                                                   3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
}
#define VBSWAP(x) avx2_bswap(x)

static inline unsigned avx2_eq_bits(__m256i v, uint32_t x) {
    return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_set1_epi32((int)x))));
}
#define VEQ_BITS(v, x) avx2_eq_bits((v), (x))

static inline unsigned avx2_bitmap_bits(__m256i v, const uint32_t *bm, uint32_t mask) {
    const __m256i idx = _mm256_and_si256(v, _mm256_set1_epi32((int)mask));
    const __m256i words = _mm256_i32gather_epi32((const int *)bm, _mm256_srli_epi32(idx, 5), 4);
    const __m256i bit = _mm256_srlv_epi32(words, _mm256_and_si256(idx, _mm256_set1_epi32(31)));
    const __m256i one = _mm256_set1_epi32(1);
    return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(bit, one), one)));
}
#define VBITMAP_BITS(v, bm, mask) avx2_bitmap_bits((v), (bm), (mask))

/* 8 lanes of a, b, c, d to 8 digests: a 4x4 transpose in each 128-bit half, then the halves. */
static inline void avx2_store_digests(uint8_t *out, __m256i a, __m256i b, __m256i c, __m256i d) {
    const __m256i ab_lo = _mm256_unpacklo_epi32(a, b); /* a0 b0 a1 b1 | a4 b4 a5 b5 */
    const __m256i ab_hi = _mm256_unpackhi_epi32(a, b); /* a2 b2 a3 b3 | a6 b6 a7 b7 */
    const __m256i cd_lo = _mm256_unpacklo_epi32(c, d);
    const __m256i cd_hi = _mm256_unpackhi_epi32(c, d);
    const __m256i l0 = _mm256_unpacklo_epi64(ab_lo, cd_lo); /* lane 0 | lane 4 */
    const __m256i l1 = _mm256_unpackhi_epi64(ab_lo, cd_lo); /* lane 1 | lane 5 */
    const __m256i l2 = _mm256_unpacklo_epi64(ab_hi, cd_hi); /* lane 2 | lane 6 */
    const __m256i l3 = _mm256_unpackhi_epi64(ab_hi, cd_hi); /* lane 3 | lane 7 */
    __m256i *o = (__m256i *)(void *)out;
    _mm256_storeu_si256(o + 0, _mm256_permute2x128_si256(l0, l1, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(l2, l3, 0x20));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(l0, l1, 0x31));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(l2, l3, 0x31));
}
#define VSTORE_DIGESTS(out, a, b, c, d) avx2_store_digests((out), (a), (b), (c), (d))

#include "md5_template.h"
