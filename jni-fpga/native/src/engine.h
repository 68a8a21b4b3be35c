/* engine.h: the CPU engine's handle, shared by its parts: engine.c (names, dispatch, open and
 * close), hash.c (bench mode), search.c (search mode), targets.c (the target set). Private. */
#ifndef FPGAMR_ENGINE_H
#define FPGAMR_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "fpgamr_md5.h"
#include "md5_internal.h"
#include "pool.h"

/* What one thread of the pool keeps between searches. */
typedef struct scratch {
    uint64_t *found; /* matches of this thread in the current search */
    size_t nfound, capfound;
    uint32_t *tvals;   /* T values of the targets (x0 mode, per item) */
    uint32_t *bitmap;  /* the thread's own bitmap (x0 mode) */
    uint32_t bm_words;
    uint32_t bm_ntset; /* T values whose bits are set in bitmap */
    int oom;
} scratch;

struct fpgamr_md5 {
    const fpgamr_kernel *k;
    int threads;
    fpgamr_pool *pool;
    scratch scr[FPGAMR_POOL_MAX_THREADS];
};

struct fpgamr_md5_targets {
    uint32_t n;
    uint8_t digests[]; /* n * 16, sorted, unique (fpgamr_targets.h) */
};

/* [start, start + count) inside [0, 2^(8 * width)), width in 4..8. */
int fpgamr_md5_range_ok(uint64_t start, uint64_t count, int width);

#endif
