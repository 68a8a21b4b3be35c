/*
 * bench_kernels.c: hashes/s per core of OpenSSL's MD5() on 4-byte messages beside each of our
 * kernels in both modes (hash everything; search with the early exit), one thread each, then
 * all cores. `bench_kernels scan32 <md5hex>` times a whole 2^32 search (4-byte messages) with
 * the best kernel on all cores. BENCH_SECONDS sets the time per measurement (default 0.6).
 */
#define _GNU_SOURCE
#define OPENSSL_SUPPRESS_DEPRECATED /* MD5() is what we compare against, deprecated or not */
#include <openssl/md5.h>
#include <openssl/opensslv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fpgamr_md5.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cputime(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double seconds = 0.6;
/* Rates are values per second of CPU time of the process (all its threads), so that other
 * programs sharing the cores do not lower them; the wall-clock rate is kept beside. */
static double last_wall_rate;
static volatile uint8_t sinkb;

static double rate_openssl(void) {
    uint8_t msg[4], d[16];
    uint64_t n = 0;
    const double t0 = now(), c0 = cputime();
    double t;
    uint32_t v = 0x12340000;
    do {
        for (int i = 0; i < 65536; i++, v++) {
            msg[0] = (uint8_t)(v >> 24);
            msg[1] = (uint8_t)(v >> 16);
            msg[2] = (uint8_t)(v >> 8);
            msg[3] = (uint8_t)v;
            MD5(msg, 4, d);
            sinkb ^= d[0];
        }
        n += 65536;
    } while ((t = now() - t0) < seconds);
    last_wall_rate = (double)n / t;
    return (double)n / (cputime() - c0);
}

#define BATCH (1u << 18)

static double rate_hash(fpgamr_md5 *e, uint8_t *out) {
    uint64_t n = 0, start = 0x20000000;
    fpgamr_md5_hash_range(e, start, BATCH, 4, out); /* warm */
    const double t0 = now(), c0 = cputime();
    double t;
    do {
        if (fpgamr_md5_hash_range(e, start, BATCH, 4, out) != BATCH) {
            return 0;
        }
        start += BATCH;
        n += BATCH;
    } while ((t = now() - t0) < seconds);
    sinkb ^= out[7];
    last_wall_rate = (double)n / t;
    return (double)n / (cputime() - c0);
}

static double rate_search(fpgamr_md5 *e, const fpgamr_md5_targets *tg) {
    uint64_t n = 0, start = 0x30000000, found[4];
    const double t0 = now(), c0 = cputime();
    double t;
    do {
        if (fpgamr_md5_search_range(e, tg, start, BATCH, 4, found, 4, NULL) < 0) {
            return 0;
        }
        start += BATCH;
        n += BATCH;
    } while ((t = now() - t0) < seconds);
    last_wall_rate = (double)n / t;
    return (double)n / (cputime() - c0);
}

static int parse_hex(const char *s, uint8_t d[16]) {
    if (strlen(s) != 32) {
        return -1;
    }
    for (int i = 0; i < 16; i++) {
        unsigned x;
        if (sscanf(s + 2 * i, "%2x", &x) != 1) {
            return -1;
        }
        d[i] = (uint8_t)x;
    }
    return 0;
}

static int scan32(const char *hex, int threads) {
    uint8_t d[16];
    if (parse_hex(hex, d) != 0) {
        fprintf(stderr, "bad digest %s\n", hex);
        return 2;
    }
    char err[256];
    fpgamr_md5 *e = fpgamr_md5_open(NULL, threads, err, sizeof err, NULL);
    if (!e) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    fpgamr_md5_targets *tg = fpgamr_md5_targets_new(d, 1);
    uint64_t found[16], done = 0, total = 0;
    int64_t m = 0;
    const double t0 = now();
    /* in batches of 2^18 as the job does, one native call each */
    for (uint64_t s = 0; s < (UINT64_C(1) << 32); s += BATCH) {
        int64_t r = fpgamr_md5_search_range(e, tg, s, BATCH, 4, found + (m < 16 ? m : 15), 1, &done);
        if (r < 0) {
            fprintf(stderr, "search failed: %s\n", fpgamr_md5_strerror((int)r));
            return 1;
        }
        m += r;
        total += done;
    }
    const double t = now() - t0;
    printf("scan32 kernel=%s threads=%d values=%llu matches=%lld seconds=%.2f rate=%.1fM/s\n",
           fpgamr_md5_kernel(e), fpgamr_md5_threads(e), (unsigned long long)total, (long long)m, t,
           (double)total / t / 1e6);
    for (int64_t i = 0; i < m && i < 16; i++) {
        printf("match %08llx\n", (unsigned long long)found[i]);
    }
    fpgamr_md5_targets_free(tg);
    fpgamr_md5_close(e);
    return 0;
}

int main(int argc, char **argv) {
    const char *s = getenv("BENCH_SECONDS");
    if (s && atof(s) > 0) {
        seconds = atof(s);
    }
    const int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (argc >= 3 && strcmp(argv[1], "scan32") == 0) {
        return scan32(argv[2], argc >= 4 ? atoi(argv[3]) : 0);
    }
    printf("MD5 kernels on %s, %d CPUs; 4-byte messages; batches of 2^18 values; %.1f s per figure\n",
           fpgamr_platform(), ncpu, seconds);
    printf("rates: M values per CPU-second (per core, immune to other load); [wall-clock M/s, all threads]\n");
    const double ossl = rate_openssl();
    printf("%-26s %8.1f M/s per core [wall %.1f]  (%s)\n", "openssl MD5()", ossl / 1e6, last_wall_rate / 1e6,
           OPENSSL_VERSION_TEXT);
    uint8_t *out = malloc(16 * (size_t)BATCH);
    uint8_t nod[16];
    parse_hex("00112233445566778899aabbccddeeff", nod); /* almost surely no 4-byte preimage */
    fpgamr_md5_targets *tg = fpgamr_md5_targets_new(nod, 1);
    printf("%-8s %-7s %10s %8s %9s   %10s %8s %9s\n", "kernel", "threads", "hash", "[wall]", "x openssl",
           "search", "[wall]", "x openssl");
    char built[128];
    snprintf(built, sizeof built, "%s", fpgamr_md5_kernels_built());
    for (char *save = NULL, *k = strtok_r(built, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        if (fpgamr_md5_kernel_status(k) != 0) {
            printf("%-10s (built, not supported by this CPU)\n", k);
            continue;
        }
        const int tcounts[2] = {1, ncpu};
        for (int ti = 0; ti < (ncpu > 1 ? 2 : 1); ti++) {
            fpgamr_md5 *e = fpgamr_md5_open(k, tcounts[ti], NULL, 0, NULL);
            const double h = rate_hash(e, out), hw = last_wall_rate;
            const double q = rate_search(e, tg), qw = last_wall_rate;
            printf("%-8s %-7d %10.1f %8.1f %8.1fx   %10.1f %8.1f %8.1fx\n", k, tcounts[ti], h / 1e6, hw / 1e6,
                   h / ossl, q / 1e6, qw / 1e6, q / ossl);
            fpgamr_md5_close(e);
        }
    }
    printf("(x openssl: our per-core rate / openssl's per-core rate; wall: values/s of the whole call)\n");
    fpgamr_md5_targets_free(tg);
    free(out);
    return 0;
}
