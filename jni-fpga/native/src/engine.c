/*
 * engine.c: the CPU engine's handle (fpgamr_md5.h): kernel names and dispatch, open and close
 * (the handle owns a thread pool, pool.c), and the range check that both modes share. The work
 * itself is in hash.c (bench mode) and search.c (search mode).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"

#if defined(__x86_64__)
#define FPGAMR_PLATFORM "linux-x86_64"
#elif defined(__aarch64__)
#define FPGAMR_PLATFORM "linux-aarch64"
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
#define FPGAMR_PLATFORM "linux-armhf"
#else
#error "unsupported platform"
#endif

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


/* ------------------------------------------------------------------ open and close -- */

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
    if (threads > FPGAMR_POOL_MAX_THREADS) {
        threads = FPGAMR_POOL_MAX_THREADS;
    }
    fpgamr_md5 *e = calloc(1, sizeof *e);
    if (e == NULL) {
        set_err(err, errlen, code, FPGAMR_MD5_ENOMEM, "out of memory%s%s", "", "");
        return NULL;
    }
    e->k = k;
    e->threads = threads;
    e->pool = fpgamr_pool_new(threads);
    if (e->pool == NULL) {
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
    fpgamr_pool_free(e->pool);
    for (int t = 0; t < FPGAMR_POOL_MAX_THREADS; t++) {
        free(e->scr[t].found);
        free(e->scr[t].tvals);
        free(e->scr[t].bitmap);
    }
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
int fpgamr_md5_range_ok(uint64_t start, uint64_t count, int width) {
    if (width < FPGAMR_MD5_MIN_WIDTH || width > FPGAMR_MD5_MAX_WIDTH) {
        return 0;
    }
    const uint64_t top = width == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * width)) - 1; /* last value */
    if (count == 0) {
        return start <= top;
    }
    return start <= top && count - 1 <= top - start;
}

