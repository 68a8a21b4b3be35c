/*
 * hash.c: bench mode of the CPU engine (fpgamr_md5_hash_range, fpgamr_md5_hash_values): a batch
 * cut into work items of HASH_CHUNK values that the pool's threads pull; each thread counts the
 * values it handed its kernel, and the call returns their sum.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define HASH_CHUNK (1u << 14) /* values per work item */

typedef struct hash_job {
    const fpgamr_kernel *k;
    uint64_t start, count;
    const uint64_t *values; /* NULL: a range */
    int w;
    uint8_t *out;
    atomic_uint_fast64_t next;
    uint64_t items;
} hash_job;

/* One thread's share: work items until none is left; returns the values it hashed. */
static uint64_t hash_worker(void *p, int tid) {
    (void)tid;
    hash_job *j = p;
    uint64_t done = 0;
    for (;;) {
        const uint64_t it = atomic_fetch_add(&j->next, 1);
        if (it >= j->items) {
            return done;
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
                done += m;
            }
            continue;
        }
        uint64_t v = j->start + off;
        while (n > 0) {
            const uint32_t lo32 = (uint32_t)v;
            const uint64_t room = (UINT64_C(1) << 32) - lo32;
            const uint32_t take = (uint32_t)(n < room ? n : room);
            j->k->hash_seg((uint32_t)(v >> 32), lo32, take, j->w, out);
            done += take;
            out += 16 * (size_t)take;
            v += take;
            n -= take;
        }
    }
}

static int64_t hash_common(fpgamr_md5 *e, uint64_t start, const uint64_t *values, uint64_t count, int width,
                           uint8_t *out) {
    hash_job j = {.k = e->k, .start = start, .count = count, .values = values, .w = width, .out = out};
    atomic_init(&j.next, 0);
    j.items = (count + HASH_CHUNK - 1) / HASH_CHUNK;
    return j.items ? (int64_t)fpgamr_pool_run(e->pool, hash_worker, &j) : 0;
}

int64_t fpgamr_md5_hash_range(fpgamr_md5 *e, uint64_t start, uint64_t count, int width, uint8_t *out) {
    if (e == NULL || (out == NULL && count > 0) || !fpgamr_md5_range_ok(start, count, width)) {
        return FPGAMR_MD5_EINVAL;
    }
    return hash_common(e, start, NULL, count, width, out);
}

int64_t fpgamr_md5_hash_values(fpgamr_md5 *e, const uint64_t *values, uint64_t count, int width, uint8_t *out) {
    if (e == NULL || ((out == NULL || values == NULL) && count > 0) || !fpgamr_md5_range_ok(0, 1, width)) {
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

