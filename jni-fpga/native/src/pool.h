/* pool.h: a persistent pool of threads that runs one job at a time on all of them. */
#ifndef FPGAMR_POOL_H
#define FPGAMR_POOL_H

#include <stdint.h>

#define FPGAMR_POOL_MAX_THREADS 256

typedef struct fpgamr_pool fpgamr_pool;

/* A job's share on thread tid (0 .. threads-1); returns the values that thread hashed. */
typedef uint64_t (*fpgamr_pool_fn)(void *arg, int tid);

/* A pool of `threads` threads (at most FPGAMR_POOL_MAX_THREADS), the caller of fpgamr_pool_run
 * being one of them; NULL when memory or threads run out. */
fpgamr_pool *fpgamr_pool_new(int threads);
void fpgamr_pool_free(fpgamr_pool *p);

/* Runs fn(arg, tid) on every thread, the caller as tid 0, waits for all, and returns the sum of
 * what they returned: each thread counts what it did, the pool adds it up. */
uint64_t fpgamr_pool_run(fpgamr_pool *p, fpgamr_pool_fn fn, void *arg);

#endif
