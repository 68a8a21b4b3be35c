/*
 * search.c: search mode of the CPU engine (fpgamr_md5_search_range): the plan of a range in runs
 * where x0 or x1 varies, the per-run filter of the targets' early-exit values (md5_kernel.h), the
 * kernels' hits confirmed by the portable MD5 against the target set, and the matches gathered
 * from the threads in order. Each thread counts the lanes it handed its kernel; done is the sum.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fpgamr_targets.h"

#define SEARCH_CHUNK (1u << 14) /* lanes per work item */

/* Bitmap size for nt targets: about 2^10 times more bits than targets, 2^10 .. 2^22 bits. */
static uint32_t bitmap_bits(uint32_t nt) {
    uint32_t b = 10;
    while (b < 22 && (UINT64_C(1) << b) < (uint64_t)nt << 10) {
        b++;
    }
    return b;
}

static int cmp_u32(const void *a, const void *b) {
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts tv (nt T values) and makes the filter of s from them, setting bits in bitmap. */
static void filter_build(fpgamr_search *s, uint32_t *tv, uint32_t nt, uint32_t *bitmap, uint32_t bits) {
    qsort(tv, nt, sizeof *tv, cmp_u32);
    s->nt = nt;
    s->single = nt ? tv[0] : 0;
    s->tsorted = tv;
    s->bmask = (UINT32_C(1) << bits) - 1;
    s->bitmap = bitmap;
    if (nt > 1) {
        for (uint32_t i = 0; i < nt; i++) {
            const uint32_t ix = tv[i] & s->bmask;
            bitmap[ix >> 5] |= UINT32_C(1) << (ix & 31);
        }
    }
}

typedef struct search_job search_job;

typedef struct sink {
    search_job *job;
    scratch *scr;
} sink;

/* A run of the plan: x0 mode, `outer` = the lo values and `inner` = the rows h; x1 mode,
 * `outer` = the rows h and `inner` = the lo values. */
typedef struct segment {
    int mode;
    uint64_t outer0, nouter;
    uint64_t inner0, ninner;
    uint64_t chunks; /* per outer */
    uint64_t items;
} segment;

struct search_job {
    fpgamr_md5 *e;
    const fpgamr_md5_targets *targets;
    int w;
    unsigned L;
    segment seg[3];
    int nseg;
    uint64_t items;
    atomic_uint_fast64_t next;
    /* the x1 mode filter, shared: its T values do not depend on x0 */
    uint32_t *x1_tv;
    uint32_t *x1_bitmap;
    uint32_t bits;
};

void fpgamr_search_hit(fpgamr_search *s, uint32_t i, uint32_t cand) {
    if (i >= s->n) {
        return;
    }
    if (s->nt > 1 && bsearch(&cand, s->tsorted, s->nt, sizeof cand, cmp_u32) == NULL) {
        return; /* a bitmap false positive */
    }
    sink *k = s->sink;
    const uint64_t v = s->base + (uint64_t)i * s->stride;
    uint8_t d[16];
    fpgamr_md5_reference(v, k->job->w, d);
    if (!fpgamr_targets_contain(k->job->targets->digests, k->job->targets->n, d)) {
        return; /* Q + x matched, the rest of the digest did not */
    }
    scratch *r = k->scr;
    if (r->nfound == r->capfound) {
        size_t cap = r->capfound ? 2 * r->capfound : 64;
        uint64_t *f = realloc(r->found, cap * sizeof *f);
        if (f == NULL) {
            r->oom = 1;
            return;
        }
        r->found = f;
        r->capfound = cap;
    }
    r->found[r->nfound++] = v;
}

/* One thread's share: work items until none is left; returns the lanes it handed its kernel. */
static uint64_t search_worker(void *p, int tid) {
    search_job *j = p;
    uint64_t done = 0;
    scratch *r = &j->e->scr[tid];
    const fpgamr_kernel *k = j->e->k;
    const uint32_t nt = j->targets->n;
    sink snk = {.job = j, .scr = r};
    fpgamr_search s;
    s.sink = &snk;
    const unsigned L = j->L;
    const uint32_t sh = 32 - L;
    s.x1_shift = sh == 32 ? 0 : sh;
    s.x1_pad = L == 32 ? 0 : (UINT32_C(0x80) << L);
    for (;;) {
        uint64_t it = atomic_fetch_add(&j->next, 1);
        if (it >= j->items) {
            return done;
        }
        const segment *g = j->seg;
        while (it >= g->items) {
            it -= g->items;
            g++;
        }
        const uint64_t outer = g->outer0 + it / g->chunks;
        const uint64_t off = (it % g->chunks) * SEARCH_CHUNK;
        const uint64_t inner = g->inner0 + off;
        const uint32_t n = (uint32_t)(g->ninner - off < SEARCH_CHUNK ? g->ninner - off : SEARCH_CHUNK);
        uint32_t x[16];
        if (g->mode == 0) {
            /* x1 fixed (lo = outer), x0 = bswap32(h) for h = inner + i */
            const uint64_t lo = outer;
            fpgamr_md5_words(lo, j->w, x); /* words of value lo: x1, x2, x14 are what matter */
            fpgamr_md5_fill_add(s.add, x, 0);
            if (r->bm_ntset) { /* clear the previous item's bits */
                const uint32_t bmask = (UINT32_C(1) << j->bits) - 1;
                for (uint32_t q = 0; q < r->bm_ntset; q++) {
                    const uint32_t ix = r->tvals[q] & bmask;
                    r->bitmap[ix >> 5] &= ~(UINT32_C(1) << (ix & 31));
                }
                r->bm_ntset = 0;
            }
            for (uint32_t q = 0; q < nt; q++) {
                r->tvals[q] = fpgamr_md5_target_value(j->targets->digests + 16 * (size_t)q, x, 0);
            }
            filter_build(&s, r->tvals, nt, r->bitmap, j->bits);
            r->bm_ntset = nt > 1 ? nt : 0;
            s.base = (inner << L) | lo;
            s.stride = UINT64_C(1) << L;
            s.n = n;
            k->search_x0(&s, (uint32_t)inner, n);
            done += n;
        } else {
            /* x0 fixed (h = outer), x1 from lo = inner + i */
            const uint64_t h = outer;
            fpgamr_md5_words(h << L, j->w, x);
            fpgamr_md5_fill_add(s.add, x, 1);
            s.nt = nt;
            s.single = j->x1_tv[0];
            s.tsorted = j->x1_tv;
            s.bitmap = j->x1_bitmap;
            s.bmask = (UINT32_C(1) << j->bits) - 1;
            s.base = (h << L) | inner;
            s.stride = 1;
            s.n = n;
            k->search_x1(&s, (uint32_t)inner, n);
            done += n;
        }
    }
}

static void add_segment(search_job *j, int mode, uint64_t outer0, uint64_t nouter, uint64_t inner0,
                        uint64_t ninner) {
    if (nouter == 0 || ninner == 0) {
        return;
    }
    segment *g = &j->seg[j->nseg++];
    g->mode = mode;
    g->outer0 = outer0;
    g->nouter = nouter;
    g->inner0 = inner0;
    g->ninner = ninner;
    g->chunks = (ninner + SEARCH_CHUNK - 1) / SEARCH_CHUNK;
    g->items = g->chunks * nouter;
    j->items += g->items;
}

int64_t fpgamr_md5_search_range(fpgamr_md5 *e, const fpgamr_md5_targets *targets, uint64_t start,
                                uint64_t count, int width, uint64_t *found, uint64_t found_cap,
                                uint64_t *done) {
    if (done) {
        *done = 0;
    }
    if (e == NULL || targets == NULL || (found == NULL && found_cap > 0) || !fpgamr_md5_range_ok(start, count, width)) {
        return FPGAMR_MD5_EINVAL;
    }
    if (count == 0 || targets->n == 0) {
        return 0; /* nothing to hash: no value can match */
    }
    const uint32_t nt = targets->n;
    search_job j;
    memset(&j, 0, sizeof j);
    j.e = e;
    j.targets = targets;
    j.w = width;
    j.L = 8u * (unsigned)(width - 4);
    j.bits = bitmap_bits(nt);
    atomic_init(&j.next, 0);
    const unsigned L = j.L;
    const uint64_t last = start + (count - 1);
    int need_x0 = 0, need_x1 = 0;
    if (L == 0) {
        add_segment(&j, 0, 0, 1, start, count); /* one "lo" (none), rows are the values */
        need_x0 = 1;
    } else {
        const uint64_t mask = L == 32 ? UINT32_MAX : (UINT64_C(1) << L) - 1;
        const uint64_t M = mask + 1;
        const uint64_t h0 = start >> L, l0 = start & mask, hl = last >> L, ll = last & mask;
        if (h0 == hl) {
            add_segment(&j, 1, h0, 1, l0, ll - l0 + 1);
            need_x1 = 1;
        } else {
            const uint64_t f0 = h0 + (l0 != 0), f1 = hl - (ll != mask); /* full rows f0..f1 */
            if (l0 != 0) {
                add_segment(&j, 1, h0, 1, l0, M - l0);
                need_x1 = 1;
            }
            if (f1 + 1 > f0) {
                const uint64_t rows = f1 + 1 - f0;
                /* x0 mode saves 6 of 51 steps per lane but redoes the targets' backward steps
                 * for each lo: worth it when there are many rows per lo. */
                if (rows >= 64 && rows >= 32 * (uint64_t)nt) {
                    add_segment(&j, 0, 0, M, f0, rows);
                    need_x0 = 1;
                } else {
                    add_segment(&j, 1, f0, rows, 0, M);
                    need_x1 = 1;
                }
            }
            if (ll != mask) {
                add_segment(&j, 1, hl, 1, 0, ll + 1);
                need_x1 = 1;
            }
        }
    }
    const uint32_t bm_words = (UINT32_C(1) << j.bits) / 32;
    int oom = 0;
    if (need_x1) {
        j.x1_tv = malloc(nt * sizeof *j.x1_tv);
        j.x1_bitmap = nt > 1 ? calloc(bm_words, sizeof *j.x1_bitmap) : NULL;
        if (j.x1_tv == NULL || (nt > 1 && j.x1_bitmap == NULL)) {
            oom = 1;
        } else {
            uint32_t x[16];
            fpgamr_md5_words(0, width, x); /* steps 56..63 use x2 only */
            for (uint32_t q = 0; q < nt; q++) {
                j.x1_tv[q] = fpgamr_md5_target_value(targets->digests + 16 * (size_t)q, x, 1);
            }
            fpgamr_search tmp;
            filter_build(&tmp, j.x1_tv, nt, j.x1_bitmap, j.bits);
        }
    }
    for (int t = 0; t < e->threads && !oom; t++) {
        scratch *r = &e->scr[t];
        r->nfound = 0;
        r->oom = 0;
        if (need_x0) {
            uint32_t *tv = realloc(r->tvals, nt * sizeof *tv);
            if (tv == NULL) {
                oom = 1;
                break;
            }
            r->tvals = tv;
            r->bm_ntset = 0;
            if (r->bm_words != bm_words) {
                free(r->bitmap);
                r->bitmap = calloc(bm_words, sizeof *r->bitmap);
                r->bm_words = r->bitmap ? bm_words : 0;
                if (r->bitmap == NULL) {
                    oom = 1;
                }
            } else {
                memset(r->bitmap, 0, bm_words * sizeof *r->bitmap);
            }
        }
    }
    const uint64_t examined = oom ? 0 : fpgamr_pool_run(e->pool, search_worker, &j);
    free(j.x1_tv);
    free(j.x1_bitmap);
    uint64_t total = 0;
    for (int t = 0; t < e->threads; t++) {
        oom |= e->scr[t].oom;
        total += e->scr[t].nfound;
    }
    if (oom) {
        return FPGAMR_MD5_ENOMEM;
    }
    uint64_t *all = total ? malloc(total * sizeof *all) : NULL;
    if (total && all == NULL) {
        return FPGAMR_MD5_ENOMEM;
    }
    uint64_t m = 0;
    for (int t = 0; t < e->threads; t++) {
        memcpy(all + m, e->scr[t].found, e->scr[t].nfound * sizeof *all);
        m += e->scr[t].nfound;
    }
    if (total > 1) {
        qsort(all, total, sizeof *all, cmp_u64);
    }
    for (uint64_t i = 0; i < total && i < found_cap; i++) {
        found[i] = all[i];
    }
    free(all);
    if (done) {
        *done = examined;
    }
    return (int64_t)total;
}

