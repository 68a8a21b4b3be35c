/*
 * md5_template.h: the MD5 kernels written once over a small vector vocabulary, instantiated by
 * each kernel_<isa>.c for its vector type. Private to libfpgamr.
 *
 * The includer defines:
 *   KSUF                 name suffix (scalar, avx2, ...); functions are md5_<fn>_<KSUF>
 *   V, LANES, IL         vector type, 32-bit lanes per vector, vectors interleaved per iteration
 *                        (independent hash chains in flight, to hide the latency of a step)
 *   VSET1(x) VADD(a,b) VOR(a,b) VROTL(x,s) (s a constant) VSHL(x,n) VSHR(x,n) (n a variable)
 *   VF VG VH VI          MD5's four boolean functions of (b, c, d)
 *   VBSWAP(x)            byte swap of each lane
 *   VIOTA()              lanes 0, 1, ..., LANES-1
 *   VLOADU(p) VSTOREU(p, v)             LANES words
 *   VSTORE_DIGESTS(out, a, b, c, d)     LANES digests of 16 bytes, lane after lane
 *   VEQ_BITS(v, x)       bit j set if lane j equals scalar x
 *   VBITMAP_BITS(v, bitmap, mask)       bit j set if bit (lane j & mask) of bitmap is set
 *
 * Every MD5 step is written out, so rotations are constants; `last`, `vx0` and `vx1` are
 * constants at each (always-inlined) use, so the steps past an early exit and the adds of
 * non-varying words vanish at compile time.
 */
#include <string.h>

#include "md5_kernel.h"

#define KCAT2(a, b) a##_##b
#define KCAT(a, b) KCAT2(a, b)
#define KFN(fn) KCAT(fn, KSUF)

#define KLOOP _Pragma("GCC unroll 8") for (int k_ = 0; k_ < IL; k_++)

#define MD5_STEP(FN, a, b, c, d, i, s, g)                                   \
    if ((i) < last) {                                                       \
        const V ci_ = VSET1(add[i]);                                        \
        KLOOP {                                                             \
            V t_ = VADD(a[k_], ci_);                                        \
            if ((g) == 0 && vx0) {                                          \
                t_ = VADD(t_, x0v[k_]);                                     \
            }                                                               \
            if ((g) == 1 && vx1) {                                          \
                t_ = VADD(t_, x1v[k_]);                                     \
            }                                                               \
            t_ = VADD(t_, FN(b[k_], c[k_], d[k_]));                         \
            a[k_] = VADD(b[k_], VROTL(t_, s));                              \
        }                                                                   \
    }

/* Steps 0..last-1 of IL interleaved vectors of blocks, from the IV. */
static inline __attribute__((always_inline)) void KFN(md5_core)(V *a, V *b, V *c, V *d, const V *x0v,
                                                              const V *x1v, const uint32_t *add,
                                                              const int last, const int vx0,
                                                              const int vx1) {
    KLOOP {
        a[k_] = VSET1(MD5_IV_A);
        b[k_] = VSET1(MD5_IV_B);
        c[k_] = VSET1(MD5_IV_C);
        d[k_] = VSET1(MD5_IV_D);
    }
    MD5_STEP(VF, a, b, c, d, 0, 7, 0);
    MD5_STEP(VF, d, a, b, c, 1, 12, 1);
    MD5_STEP(VF, c, d, a, b, 2, 17, 2);
    MD5_STEP(VF, b, c, d, a, 3, 22, 3);
    MD5_STEP(VF, a, b, c, d, 4, 7, 4);
    MD5_STEP(VF, d, a, b, c, 5, 12, 5);
    MD5_STEP(VF, c, d, a, b, 6, 17, 6);
    MD5_STEP(VF, b, c, d, a, 7, 22, 7);
    MD5_STEP(VF, a, b, c, d, 8, 7, 8);
    MD5_STEP(VF, d, a, b, c, 9, 12, 9);
    MD5_STEP(VF, c, d, a, b, 10, 17, 10);
    MD5_STEP(VF, b, c, d, a, 11, 22, 11);
    MD5_STEP(VF, a, b, c, d, 12, 7, 12);
    MD5_STEP(VF, d, a, b, c, 13, 12, 13);
    MD5_STEP(VF, c, d, a, b, 14, 17, 14);
    MD5_STEP(VF, b, c, d, a, 15, 22, 15);
    MD5_STEP(VG, a, b, c, d, 16, 5, 1);
    MD5_STEP(VG, d, a, b, c, 17, 9, 6);
    MD5_STEP(VG, c, d, a, b, 18, 14, 11);
    MD5_STEP(VG, b, c, d, a, 19, 20, 0);
    MD5_STEP(VG, a, b, c, d, 20, 5, 5);
    MD5_STEP(VG, d, a, b, c, 21, 9, 10);
    MD5_STEP(VG, c, d, a, b, 22, 14, 15);
    MD5_STEP(VG, b, c, d, a, 23, 20, 4);
    MD5_STEP(VG, a, b, c, d, 24, 5, 9);
    MD5_STEP(VG, d, a, b, c, 25, 9, 14);
    MD5_STEP(VG, c, d, a, b, 26, 14, 3);
    MD5_STEP(VG, b, c, d, a, 27, 20, 8);
    MD5_STEP(VG, a, b, c, d, 28, 5, 13);
    MD5_STEP(VG, d, a, b, c, 29, 9, 2);
    MD5_STEP(VG, c, d, a, b, 30, 14, 7);
    MD5_STEP(VG, b, c, d, a, 31, 20, 12);
    MD5_STEP(VH, a, b, c, d, 32, 4, 5);
    MD5_STEP(VH, d, a, b, c, 33, 11, 8);
    MD5_STEP(VH, c, d, a, b, 34, 16, 11);
    MD5_STEP(VH, b, c, d, a, 35, 23, 14);
    MD5_STEP(VH, a, b, c, d, 36, 4, 1);
    MD5_STEP(VH, d, a, b, c, 37, 11, 4);
    MD5_STEP(VH, c, d, a, b, 38, 16, 7);
    MD5_STEP(VH, b, c, d, a, 39, 23, 10);
    MD5_STEP(VH, a, b, c, d, 40, 4, 13);
    MD5_STEP(VH, d, a, b, c, 41, 11, 0);
    MD5_STEP(VH, c, d, a, b, 42, 16, 3);
    MD5_STEP(VH, b, c, d, a, 43, 23, 6);
    MD5_STEP(VH, a, b, c, d, 44, 4, 9);
    MD5_STEP(VH, d, a, b, c, 45, 11, 12);
    MD5_STEP(VH, c, d, a, b, 46, 16, 15);
    MD5_STEP(VH, b, c, d, a, 47, 23, 2);
    MD5_STEP(VI, a, b, c, d, 48, 6, 0);
    MD5_STEP(VI, d, a, b, c, 49, 10, 7);
    MD5_STEP(VI, c, d, a, b, 50, 15, 14);
    MD5_STEP(VI, b, c, d, a, 51, 21, 5);
    MD5_STEP(VI, a, b, c, d, 52, 6, 12);
    MD5_STEP(VI, d, a, b, c, 53, 10, 3);
    MD5_STEP(VI, c, d, a, b, 54, 15, 10);
    MD5_STEP(VI, b, c, d, a, 55, 21, 1);
    MD5_STEP(VI, a, b, c, d, 56, 6, 8);
    MD5_STEP(VI, d, a, b, c, 57, 10, 15);
    MD5_STEP(VI, c, d, a, b, 58, 15, 6);
    MD5_STEP(VI, b, c, d, a, 59, 21, 13);
    MD5_STEP(VI, a, b, c, d, 60, 6, 4);
    MD5_STEP(VI, d, a, b, c, 61, 10, 11);
    MD5_STEP(VI, c, d, a, b, 62, 15, 2);
    MD5_STEP(VI, b, c, d, a, 63, 21, 9);
}

/* Step addends when both x0 and x1 vary (vectors): K plus the per-width words x2 and x14. */
static void KFN(md5_hash_add)(uint32_t add[64], int w) {
    for (int i = 0; i < 64; i++) {
        uint32_t x = 0;
        if (fpgamr_md5_G[i] == 2) {
            x = md5_word2(w);
        } else if (fpgamr_md5_G[i] == 14) {
            x = md5_word14(w);
        }
        add[i] = fpgamr_md5_K[i] + x;
    }
}

static inline __attribute__((always_inline)) void KFN(md5_finish_store)(V *a, V *b, V *c, V *d,
                                                                      uint32_t left, uint8_t *out) {
    KLOOP {
        a[k_] = VADD(a[k_], VSET1(MD5_IV_A));
        b[k_] = VADD(b[k_], VSET1(MD5_IV_B));
        c[k_] = VADD(c[k_], VSET1(MD5_IV_C));
        d[k_] = VADD(d[k_], VSET1(MD5_IV_D));
    }
    if (left >= (uint32_t)(LANES * IL)) {
        KLOOP {
            VSTORE_DIGESTS(out + 16 * LANES * k_, a[k_], b[k_], c[k_], d[k_]);
        }
    } else {
        uint8_t tmp[16 * LANES * IL] __attribute__((aligned(64)));
        KLOOP {
            VSTORE_DIGESTS(tmp + 16 * LANES * k_, a[k_], b[k_], c[k_], d[k_]);
        }
        memcpy(out, tmp, 16 * (size_t)left);
    }
}

static void KFN(md5_hash_seg)(uint32_t hi32, uint32_t lo32, uint32_t n, int w, uint8_t *out) {
    uint32_t add[64];
    KFN(md5_hash_add)(add, w);
    const unsigned L = 8u * (unsigned)(w - 4);
    const V iota = VIOTA();
    for (uint32_t i = 0; i < n; i += LANES * IL) {
        V x0v[IL], x1v[IL], a[IL], b[IL], c[IL], d[IL];
        KLOOP {
            const V lo = VADD(VSET1(lo32 + i + (uint32_t)(k_ * LANES)), iota);
            if (w == 4) {
                x0v[k_] = VBSWAP(lo);
                x1v[k_] = VSET1(0x80u);
            } else if (w == 8) {
                x0v[k_] = VSET1(md5_bswap(hi32));
                x1v[k_] = VBSWAP(lo);
            } else {
                x0v[k_] = VBSWAP(VOR(VSET1(hi32 << (32 - L)), VSHR(lo, L)));
                x1v[k_] = VOR(VBSWAP(VSHL(lo, 32 - L)), VSET1(0x80u << L));
            }
        }
        KFN(md5_core)(a, b, c, d, x0v, x1v, add, 64, 1, 1);
        KFN(md5_finish_store)(a, b, c, d, n - i, out + 16 * (size_t)i);
    }
}

static void KFN(md5_hash_words)(const uint32_t *x0, const uint32_t *x1, uint32_t n, int w, uint8_t *out) {
    uint32_t add[64];
    KFN(md5_hash_add)(add, w);
    for (uint32_t i = 0; i < n; i += LANES * IL) {
        V x0v[IL], x1v[IL], a[IL], b[IL], c[IL], d[IL];
        if (n - i >= (uint32_t)(LANES * IL)) {
            KLOOP {
                x0v[k_] = VLOADU(x0 + i + k_ * LANES);
                x1v[k_] = VLOADU(x1 + i + k_ * LANES);
            }
        } else {
            uint32_t t0[LANES * IL] = {0}, t1[LANES * IL] = {0};
            memcpy(t0, x0 + i, 4 * (size_t)(n - i));
            memcpy(t1, x1 + i, 4 * (size_t)(n - i));
            KLOOP {
                x0v[k_] = VLOADU(t0 + k_ * LANES);
                x1v[k_] = VLOADU(t1 + k_ * LANES);
            }
        }
        KFN(md5_core)(a, b, c, d, x0v, x1v, add, 64, 1, 1);
        KFN(md5_finish_store)(a, b, c, d, n - i, out + 16 * (size_t)i);
    }
}

/* Hands the lanes of `bits` to the confirmation stage. */
static inline __attribute__((always_inline)) void KFN(md5_report)(fpgamr_search *s, uint32_t first,
                                                                unsigned bits, V cand) {
    uint32_t lanes[LANES];
    VSTOREU(lanes, cand);
    while (bits) {
        unsigned j = (unsigned)__builtin_ctz(bits);
        bits &= bits - 1;
        fpgamr_search_hit(s, first + j, lanes[j]);
    }
}

static inline __attribute__((always_inline)) unsigned KFN(md5_filter)(const fpgamr_search *s, V cand) {
    if (s->nt == 1) {
        return VEQ_BITS(cand, s->single);
    }
    return VBITMAP_BITS(cand, s->bitmap, s->bmask);
}

static void KFN(md5_search_x0)(fpgamr_search *s, uint32_t hbase, uint32_t n) {
    const uint32_t *add = s->add;
    const V iota = VIOTA();
    for (uint32_t i = 0; i < n; i += LANES * IL) {
        V x0v[IL], a[IL], b[IL], c[IL], d[IL];
        const V *x1v = x0v; /* unused: x1 is fixed */
        KLOOP {
            x0v[k_] = VBSWAP(VADD(VSET1(hbase + i + (uint32_t)(k_ * LANES)), iota));
        }
        KFN(md5_core)(a, b, c, d, x0v, x1v, add, SEARCH_X0_LAST, 1, 0);
        KLOOP {
            const V cand = VADD(a[k_], x0v[k_]);
            const unsigned bits = KFN(md5_filter)(s, cand);
            if (__builtin_expect(bits != 0, 0)) {
                KFN(md5_report)(s, i + (uint32_t)(k_ * LANES), bits, cand);
            }
        }
    }
}

static void KFN(md5_search_x1)(fpgamr_search *s, uint32_t lobase, uint32_t n) {
    const uint32_t *add = s->add;
    const V iota = VIOTA();
    const unsigned sh = s->x1_shift;
    const V pad = VSET1(s->x1_pad);
    for (uint32_t i = 0; i < n; i += LANES * IL) {
        V x1v[IL], a[IL], b[IL], c[IL], d[IL];
        const V *x0v = x1v; /* unused: x0 is fixed */
        KLOOP {
            const V lo = VADD(VSET1(lobase + i + (uint32_t)(k_ * LANES)), iota);
            x1v[k_] = VOR(VBSWAP(VSHL(lo, sh)), pad);
        }
        KFN(md5_core)(a, b, c, d, x0v, x1v, add, SEARCH_X1_LAST, 0, 1);
        KLOOP {
            const V cand = VADD(b[k_], x1v[k_]);
            const unsigned bits = KFN(md5_filter)(s, cand);
            if (__builtin_expect(bits != 0, 0)) {
                KFN(md5_report)(s, i + (uint32_t)(k_ * LANES), bits, cand);
            }
        }
    }
}

const fpgamr_kernel KCAT(fpgamr_kernel, KSUF) = {
    .name = KNAME,
    .lanes = LANES,
    .hash_seg = KFN(md5_hash_seg),
    .hash_words = KFN(md5_hash_words),
    .search_x0 = KFN(md5_search_x0),
    .search_x1 = KFN(md5_search_x1),
};
