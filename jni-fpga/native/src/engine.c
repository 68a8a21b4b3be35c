/*
 * engine.c: the public API of fpgamr_md5.h. Kernel dispatch, the per-engine thread pool, the
 * split of a batch into work items, and the search's filter and confirmation stages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fpgamr_md5.h"
#include "md5_internal.h"

#if defined(__x86_64__)
#define FPGAMR_PLATFORM "linux-x86_64"
#elif defined(__aarch64__)
#define FPGAMR_PLATFORM "linux-aarch64"
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
#define FPGAMR_PLATFORM "linux-armhf"
#else
#error "unsupported platform"
#endif

#define MAX_THREADS 256
#define HASH_CHUNK (1u << 14)   /* values per work item in bench mode */
#define SEARCH_CHUNK (1u << 14) /* lanes per work item in search mode */

/* ---------------------------------------------------------------- names and dispatch -- */

int fpgamr_md5_api_version(void) {
    return FPGAMR_MD5_API_VERSION;
}

const char *fpgamr_platform(void) {
    return FPGAMR_PLATFORM;
}

const char *fpgamr_md5_strerror(int err) {
    switch (err) {
    case FPGAMR_MD5_OK:
        return "ok";
    case FPGAMR_MD5_EINVAL:
        return "invalid argument";
    case FPGAMR_MD5_ENOKERNEL:
        return "no such kernel in this build";
    case FPGAMR_MD5_ENOCPU:
        return "kernel not supported by this CPU";
    case FPGAMR_MD5_ENOMEM:
        return "out of memory or threads";
    default:
        return "unknown error";
    }
}

static void join_names(char *buf, size_t cap, int only_runnable) {
    buf[0] = '\0';
    for (int i = 0; fpgamr_kernels[i] != NULL; i++) {
        if (only_runnable && !fpgamr_kernel_runs(fpgamr_kernels[i])) {
            continue;
        }
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s", len ? "," : "", fpgamr_kernels[i]->name);
    }
}

static char built_names[128];
static pthread_once_t built_once = PTHREAD_ONCE_INIT;

static void built_init(void) {
    join_names(built_names, sizeof built_names, 0);
}

const char *fpgamr_md5_kernels_built(void) {
    pthread_once(&built_once, built_init);
    return built_names;
}

int fpgamr_md5_kernel_status(const char *kernel) {
    const fpgamr_kernel *k = kernel ? fpgamr_kernel_find(kernel) : NULL;
    if (k == NULL) {
        return FPGAMR_MD5_ENOKERNEL;
    }
    return fpgamr_kernel_runs(k) ? FPGAMR_MD5_OK : FPGAMR_MD5_ENOCPU;
}

const char *fpgamr_md5_best_kernel(void) {
    const char *best = "scalar";
    for (int i = 0; fpgamr_kernels[i] != NULL; i++) {
        if (fpgamr_kernel_runs(fpgamr_kernels[i])) {
            best = fpgamr_kernels[i]->name;
        }
    }
    return best;
}

/* ------------------------------------------------------------------------ the pool -- */

typedef void (*job_fn)(void *arg, int tid);

typedef struct scratch {
    uint64_t *found; /* matches of this thread in the current search */
    size_t nfound, capfound;
    uint32_t *tvals;   /* T values of the targets (x0 mode, per item) */
    uint32_t *bitmap;  /* the thread's own bitmap (x0 mode) */
    uint32_t bm_words;
    uint32_t bm_ntset; /* T values whose bits are set in bitmap */
    int oom;
    uint64_t done; /* values this thread hashed in the current call */
} scratch;

struct fpgamr_md5 {
    const fpgamr_kernel *k;
    int threads;
    pthread_t tids[MAX_THREADS];
    int started;
    pthread_mutex_t mu;
    pthread_cond_t go;
    pthread_cond_t done;
    uint64_t gen;
    int pending;
    int stop;
    job_fn fn;
    void *arg;
    scratch scr[MAX_THREADS];
};

typedef struct worker_arg {
    fpgamr_md5 *e;
    int tid;
} worker_arg;

static void *worker(void *p) {
    worker_arg wa = *(worker_arg *)p;
    free(p);
    fpgamr_md5 *e = wa.e;
    uint64_t seen = 0;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (e->gen == seen && !e->stop) {
            pthread_cond_wait(&e->go, &e->mu);
        }
        if (e->stop) {
            break;
        }
        seen = e->gen;
        job_fn fn = e->fn;
        void *arg = e->arg;
        pthread_mutex_unlock(&e->mu);
        fn(arg, wa.tid);
        pthread_mutex_lock(&e->mu);
        if (--e->pending == 0) {
            pthread_cond_signal(&e->done);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* Runs fn(arg, tid) on every thread of the engine, the caller being tid 0, and waits. */
static void run_job(fpgamr_md5 *e, job_fn fn, void *arg) {
    if (e->threads == 1) {
        fn(arg, 0);
        return;
    }
    pthread_mutex_lock(&e->mu);
    e->fn = fn;
    e->arg = arg;
    e->pending = e->threads - 1;
    e->gen++;
    pthread_cond_broadcast(&e->go);
    pthread_mutex_unlock(&e->mu);
    fn(arg, 0);
    pthread_mutex_lock(&e->mu);
    while (e->pending > 0) {
        pthread_cond_wait(&e->done, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
}

static void set_err(char *err, int errlen, int *code, int c, const char *fmt, const char *a, const char *b) {
    if (code) {
        *code = c;
    }
    if (err && errlen > 0) {
        snprintf(err, (size_t)errlen, fmt, a, b);
    }
}

fpgamr_md5 *fpgamr_md5_open(const char *kernel, int threads, char *err, int errlen, int *code) {
    if (kernel == NULL || kernel[0] == '\0' || strcmp(kernel, "auto") == 0) {
        const char *env = getenv("FPGAMR_KERNEL");
        kernel = (env && env[0] && strcmp(env, "auto") != 0) ? env : fpgamr_md5_best_kernel();
    }
    const fpgamr_kernel *k = fpgamr_kernel_find(kernel);
    char runs[128];
    join_names(runs, sizeof runs, 1);
    if (k == NULL) {
        set_err(err, errlen, code, FPGAMR_MD5_ENOKERNEL,
                "unknown MD5 kernel '%s': this " FPGAMR_PLATFORM " build has %s", kernel,
                fpgamr_md5_kernels_built());
        return NULL;
    }
    if (!fpgamr_kernel_runs(k)) {
        set_err(err, errlen, code, FPGAMR_MD5_ENOCPU,
                "MD5 kernel '%s' is built but this CPU lacks its instructions (" FPGAMR_PLATFORM
                "; this CPU runs %s)",
                kernel, runs);
        return NULL;
    }
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > MAX_THREADS) {
        threads = MAX_THREADS;
    }
    fpgamr_md5 *e = calloc(1, sizeof *e);
    if (e == NULL) {
        set_err(err, errlen, code, FPGAMR_MD5_ENOMEM, "out of memory%s%s", "", "");
        return NULL;
    }
    e->k = k;
    e->threads = threads;
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->go, NULL);
    pthread_cond_init(&e->done, NULL);
    for (int t = 1; t < threads; t++) {
        worker_arg *wa = malloc(sizeof *wa);
        if (wa == NULL) {
            break;
        }
        wa->e = e;
        wa->tid = t;
        if (pthread_create(&e->tids[t], NULL, worker, wa) != 0) {
            free(wa);
            break;
        }
        e->started = t;
    }
    if (e->started != threads - 1) {
        set_err(err, errlen, code, FPGAMR_MD5_ENOMEM, "cannot start the engine's threads%s%s", "", "");
        fpgamr_md5_close(e);
        return NULL;
    }
    if (code) {
        *code = FPGAMR_MD5_OK;
    }
    return e;
}

void fpgamr_md5_close(fpgamr_md5 *e) {
    if (e == NULL) {
        return;
    }
    pthread_mutex_lock(&e->mu);
    e->stop = 1;
    pthread_cond_broadcast(&e->go);
    pthread_mutex_unlock(&e->mu);
    for (int t = 1; t <= e->started; t++) {
        pthread_join(e->tids[t], NULL);
    }
    for (int t = 0; t < MAX_THREADS; t++) {
        free(e->scr[t].found);
        free(e->scr[t].tvals);
        free(e->scr[t].bitmap);
    }
    pthread_cond_destroy(&e->go);
    pthread_cond_destroy(&e->done);
    pthread_mutex_destroy(&e->mu);
    free(e);
}

const char *fpgamr_md5_kernel(const fpgamr_md5 *e) {
    return e->k->name;
}

int fpgamr_md5_threads(const fpgamr_md5 *e) {
    return e->threads;
}

int fpgamr_md5_lanes(const fpgamr_md5 *e) {
    return e->k->lanes;
}

/* [start, start + count) inside [0, 2^(8 * width)), without computing an end that may be 2^64. */
static int check_range(uint64_t start, uint64_t count, int width) {
    if (width < FPGAMR_MD5_MIN_WIDTH || width > FPGAMR_MD5_MAX_WIDTH) {
        return 0;
    }
    const uint64_t top = width == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * width)) - 1; /* last value */
    if (count == 0) {
        return start <= top;
    }
    return start <= top && count - 1 <= top - start;
}

/* -------------------------------------------------------------------------- bench mode -- */

typedef struct hash_job {
    fpgamr_md5 *e;
    const fpgamr_kernel *k;
    uint64_t start, count;
    const uint64_t *values; /* NULL: a range */
    int w;
    uint8_t *out;
    atomic_uint_fast64_t next;
    uint64_t items;
} hash_job;

static void hash_worker(void *p, int tid) {
    hash_job *j = p;
    uint64_t *done = &j->e->scr[tid].done;
    for (;;) {
        const uint64_t it = atomic_fetch_add(&j->next, 1);
        if (it >= j->items) {
            return;
        }
        const uint64_t off = it * HASH_CHUNK;
        uint64_t n = j->count - off < HASH_CHUNK ? j->count - off : HASH_CHUNK;
        uint8_t *out = j->out + 16 * off;
        if (j->values) {
            uint32_t x0[256], x1[256];
            for (uint64_t i = 0; i < n; i += 256) {
                const uint32_t m = (uint32_t)(n - i < 256 ? n - i : 256);
                for (uint32_t q = 0; q < m; q++) {
                    const uint64_t v = j->values[off + i + q];
                    x0[q] = md5_word0(v, j->w);
                    x1[q] = md5_word1(v, j->w);
                }
                j->k->hash_words(x0, x1, m, j->w, out + 16 * i);
                *done += m;
            }
            continue;
        }
        uint64_t v = j->start + off;
        while (n > 0) {
            const uint32_t lo32 = (uint32_t)v;
            const uint64_t room = (UINT64_C(1) << 32) - lo32;
            const uint32_t take = (uint32_t)(n < room ? n : room);
            j->k->hash_seg((uint32_t)(v >> 32), lo32, take, j->w, out);
            *done += take;
            out += 16 * (size_t)take;
            v += take;
            n -= take;
        }
    }
}

/* The values the threads of e hashed in the call that just ended. */
static uint64_t done_sum(const fpgamr_md5 *e) {
    uint64_t sum = 0;
    for (int t = 0; t < e->threads; t++) {
        sum += e->scr[t].done;
    }
    return sum;
}

static int64_t hash_common(fpgamr_md5 *e, uint64_t start, const uint64_t *values, uint64_t count, int width,
                           uint8_t *out) {
    hash_job j = {.e = e, .k = e->k, .start = start, .count = count, .values = values, .w = width, .out = out};
    atomic_init(&j.next, 0);
    j.items = (count + HASH_CHUNK - 1) / HASH_CHUNK;
    for (int t = 0; t < e->threads; t++) {
        e->scr[t].done = 0;
    }
    if (j.items > 0) {
        run_job(e, hash_worker, &j);
    }
    return (int64_t)done_sum(e);
}

int64_t fpgamr_md5_hash_range(fpgamr_md5 *e, uint64_t start, uint64_t count, int width, uint8_t *out) {
    if (e == NULL || (out == NULL && count > 0) || !check_range(start, count, width)) {
        return FPGAMR_MD5_EINVAL;
    }
    return hash_common(e, start, NULL, count, width, out);
}

int64_t fpgamr_md5_hash_values(fpgamr_md5 *e, const uint64_t *values, uint64_t count, int width, uint8_t *out) {
    if (e == NULL || ((out == NULL || values == NULL) && count > 0) || !check_range(0, 1, width)) {
        return FPGAMR_MD5_EINVAL;
    }
    if (width < 8) {
        const uint64_t lim = UINT64_C(1) << (8 * width);
        for (uint64_t i = 0; i < count; i++) {
            if (values[i] >= lim) {
                return FPGAMR_MD5_EINVAL;
            }
        }
    }
    return hash_common(e, 0, values, count, width, out);
}

/* ----------------------------------------------------------------------------- targets -- */

struct fpgamr_md5_targets {
    uint32_t n;
    uint8_t digests[]; /* n * 16, sorted, unique */
};

static int cmp16(const void *a, const void *b) {
    return memcmp(a, b, 16);
}

fpgamr_md5_targets *fpgamr_md5_targets_new(const uint8_t *digests, uint32_t n) {
    if (n > 0 && digests == NULL) {
        return NULL;
    }
    fpgamr_md5_targets *t = malloc(sizeof *t + 16 * (size_t)n);
    if (t == NULL) {
        return NULL;
    }
    if (n > 0) {
        memcpy(t->digests, digests, 16 * (size_t)n);
        qsort(t->digests, n, 16, cmp16);
    }
    uint32_t u = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (u == 0 || memcmp(t->digests + 16 * (u - 1), t->digests + 16 * i, 16) != 0) {
            memmove(t->digests + 16 * u, t->digests + 16 * i, 16);
            u++;
        }
    }
    t->n = u;
    return t;
}

void fpgamr_md5_targets_free(fpgamr_md5_targets *t) {
    free(t);
}

uint32_t fpgamr_md5_targets_size(const fpgamr_md5_targets *t) {
    return t ? t->n : 0;
}

static int targets_contain(const fpgamr_md5_targets *t, const uint8_t d[16]) {
    return bsearch(d, t->digests, t->n, 16, cmp16) != NULL;
}

/* -------------------------------------------------------------------------- search mode -- */

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
    if (!targets_contain(k->job->targets, d)) {
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

static void search_worker(void *p, int tid) {
    search_job *j = p;
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
            return;
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
            r->done += n;
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
            r->done += n;
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
    if (e == NULL || targets == NULL || (found == NULL && found_cap > 0) || !check_range(start, count, width)) {
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
        r->done = 0;
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
    if (!oom) {
        run_job(e, search_worker, &j);
    }
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
        *done = done_sum(e);
    }
    return (int64_t)total;
}
