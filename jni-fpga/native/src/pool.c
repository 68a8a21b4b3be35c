/* pool.c: the engine's thread pool (pool.h). Workers sleep on a condition variable between
 * jobs; a job is published by bumping a generation counter. */
#include <pthread.h>
#include <stdlib.h>

#include "pool.h"

struct fpgamr_pool {
    int threads;
    int started; /* workers 1..started are running */
    pthread_t tids[FPGAMR_POOL_MAX_THREADS];
    pthread_mutex_t mu;
    pthread_cond_t go;
    pthread_cond_t done;
    uint64_t gen;
    int pending;
    int stop;
    fpgamr_pool_fn fn;
    void *arg;
    uint64_t counts[FPGAMR_POOL_MAX_THREADS]; /* what each thread did in the current job */
};

typedef struct worker_arg {
    fpgamr_pool *p;
    int tid;
} worker_arg;

static void *worker(void *a) {
    worker_arg wa = *(worker_arg *)a;
    free(a);
    fpgamr_pool *p = wa.p;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->gen == seen && !p->stop) {
            pthread_cond_wait(&p->go, &p->mu);
        }
        if (p->stop) {
            break;
        }
        seen = p->gen;
        fpgamr_pool_fn fn = p->fn;
        void *arg = p->arg;
        pthread_mutex_unlock(&p->mu);
        const uint64_t n = fn(arg, wa.tid);
        pthread_mutex_lock(&p->mu);
        p->counts[wa.tid] = n;
        if (--p->pending == 0) {
            pthread_cond_signal(&p->done);
        }
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

fpgamr_pool *fpgamr_pool_new(int threads) {
    if (threads < 1 || threads > FPGAMR_POOL_MAX_THREADS) {
        return NULL;
    }
    fpgamr_pool *p = calloc(1, sizeof *p);
    if (p == NULL) {
        return NULL;
    }
    p->threads = threads;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int t = 1; t < threads; t++) {
        worker_arg *wa = malloc(sizeof *wa);
        if (wa == NULL) {
            break;
        }
        wa->p = p;
        wa->tid = t;
        if (pthread_create(&p->tids[t], NULL, worker, wa) != 0) {
            free(wa);
            break;
        }
        p->started = t;
    }
    if (p->started != threads - 1) {
        fpgamr_pool_free(p);
        return NULL;
    }
    return p;
}

void fpgamr_pool_free(fpgamr_pool *p) {
    if (p == NULL) {
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int t = 1; t <= p->started; t++) {
        pthread_join(p->tids[t], NULL);
    }
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

uint64_t fpgamr_pool_run(fpgamr_pool *p, fpgamr_pool_fn fn, void *arg) {
    if (p->threads == 1) {
        return fn(arg, 0);
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->pending = p->threads - 1;
    p->gen++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    uint64_t sum = fn(arg, 0);
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0) {
        pthread_cond_wait(&p->done, &p->mu);
    }
    for (int t = 1; t < p->threads; t++) {
        sum += p->counts[t];
    }
    pthread_mutex_unlock(&p->mu);
    return sum;
}
