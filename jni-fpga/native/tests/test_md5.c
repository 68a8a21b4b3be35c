/*
 * test_md5.c: every kernel this build has and this CPU runs, against the tests' reference MD5
 * (testing.h: OpenSSL's on the host): digests of ranges and arrays on all widths 4..8, their edges
 * and odd counts, and the values each call counts; searches that must find exactly the planted
 * values; dispatch and error behaviour. Runs natively and under qemu-user.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpgamr_md5.h"
#include "testing.h"

static void hex(const uint8_t d[16], char s[33]) {
    for (int i = 0; i < 16; i++) {
        snprintf(s + 2 * i, 3, "%02x", d[i]);
    }
}

/* ------------------------------------------------------------------------------ helpers -- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { /* splitmix64 */
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t top_of(int w) {
    return w == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * w)) - 1;
}

static int scale = 1; /* smaller under emulation: FPGAMR_TEST_SCALE=4 divides sizes by 4 */

static void check_range(fpgamr_md5 *e, const char *kn, uint64_t start, uint64_t count, int w) {
    uint8_t *out = malloc(16 * count + 16);
    out[16 * count] = 0xa5; /* must stay: nothing written past the end */
    int64_t rc = fpgamr_md5_hash_range(e, start, count, w, out);
    CHECK(rc == (int64_t)count, "%s hash_range hashed %lld of %llu", kn, (long long)rc, (unsigned long long)count);
    int bad = 0;
    for (uint64_t i = 0; i < count && bad < 3; i++) {
        uint8_t d[16];
        ref_value(start + i, w, d);
        if (memcmp(d, out + 16 * i, 16) != 0) {
            char a[33], b[33];
            hex(d, a);
            hex(out + 16 * i, b);
            CHECK(0, "%s w=%d v=%#llx: %s != ref %s", kn, w, (unsigned long long)(start + i), b, a);
            bad++;
        }
    }
    CHECK(bad == 0, "%s w=%d range [%#llx, +%llu) digests", kn, w, (unsigned long long)start,
          (unsigned long long)count);
    CHECK(out[16 * count] == 0xa5, "%s wrote past the end", kn);
    free(out);
}

static void check_values(fpgamr_md5 *e, const char *kn, int w, uint64_t n) {
    uint64_t *vals = malloc(n * sizeof *vals);
    const uint64_t top = top_of(w);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t r = rnd();
        switch (i % 7) {
        case 0: vals[i] = 0; break;
        case 1: vals[i] = top; break;
        case 2: vals[i] = top - (r & 0xff); break;
        case 3: vals[i] = r & 0xff; break;
        case 4: vals[i] = (top >> 1) + (r & 3); break;
        default: vals[i] = w == 8 ? r : r & top; break;
        }
    }
    uint8_t *out = malloc(16 * n);
    int64_t rc = fpgamr_md5_hash_values(e, vals, n, w, out);
    CHECK(rc == (int64_t)n, "%s hash_values hashed %lld of %llu", kn, (long long)rc, (unsigned long long)n);
    int bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint8_t d[16];
        ref_value(vals[i], w, d);
        bad += memcmp(d, out + 16 * i, 16) != 0;
    }
    CHECK(bad == 0, "%s w=%d hash_values: %d of %llu wrong", kn, w, bad, (unsigned long long)n);
    free(out);
    free(vals);
}

/* Searches [start, start + count) for the digests of `plant` (values in the range, found) and
 * `miss` (values outside it, not found) and expects exactly the planted values, ascending. */
static void check_search(fpgamr_md5 *e, const char *kn, uint64_t start, uint64_t count, int w,
                         const uint64_t *plant, int np, const uint64_t *miss, int nm) {
    uint8_t *dig = calloc((size_t)(np + nm + 1), 16);
    for (int i = 0; i < np; i++) {
        ref_value(plant[i], w, dig + 16 * i);
    }
    for (int i = 0; i < nm; i++) {
        ref_value(miss[i], w, dig + 16 * (np + i));
    }
    fpgamr_md5_targets *t = fpgamr_md5_targets_new(dig, (uint32_t)(np + nm));
    uint64_t *exp = malloc(sizeof *exp * (size_t)(np + 1));
    int ne = 0;
    for (int i = 0; i < np; i++) { /* unique, sorted */
        int dup = 0;
        for (int q = 0; q < ne; q++) {
            dup |= exp[q] == plant[i];
        }
        if (!dup) {
            exp[ne++] = plant[i];
        }
    }
    for (int i = 1; i < ne; i++) {
        for (int q = i; q > 0 && exp[q - 1] > exp[q]; q--) {
            const uint64_t x = exp[q];
            exp[q] = exp[q - 1];
            exp[q - 1] = x;
        }
    }
    uint64_t found[64], done = 0;
    int64_t m = fpgamr_md5_search_range(e, t, start, count, w, found, 64, &done);
    int ok = m == ne && done == count;
    for (int i = 0; ok && i < ne && i < 64; i++) {
        ok = found[i] == exp[i];
    }
    CHECK(ok, "%s w=%d search [%#llx, +%llu) %d targets: got %lld matches (want %d), done %llu", kn, w,
          (unsigned long long)start, (unsigned long long)count, np + nm, (long long)m, ne,
          (unsigned long long)done);
    if (!ok) {
        for (int i = 0; i < m && i < 64; i++) {
            fprintf(stderr, "   found %#llx\n", (unsigned long long)found[i]);
        }
        for (int i = 0; i < ne; i++) {
            fprintf(stderr, "   want  %#llx\n", (unsigned long long)exp[i]);
        }
    }
    /* A small result buffer: the count is still the total, the buffer gets the first ones. */
    if (ne >= 2) {
        uint64_t one = 0;
        m = fpgamr_md5_search_range(e, t, start, count, w, &one, 1, NULL);
        CHECK(m == ne && one == exp[0], "%s truncated result: %lld, first %#llx", kn, (long long)m,
              (unsigned long long)one);
    }
    fpgamr_md5_targets_free(t);
    free(exp);
    free(dig);
}

/* --------------------------------------------------------------------------------- tests -- */

static void test_reference(void) {
    uint8_t d[16];
    char s[33];
    ref_value(0x123, 4, d);
    hex(d, s);
    CHECK(strcmp(s, "096822475dd517c1089f4b58c7f346ef") == 0, "reference md5(00 00 01 23) = %s", s);
    fpgamr_md5_reference(0x123, 4, d);
    hex(d, s);
    CHECK(strcmp(s, "096822475dd517c1089f4b58c7f346ef") == 0, "library reference: %s", s);
#ifdef FPGAMR_TEST_OPENSSL
    /* the library's portable MD5, the reference of the ARM runs, against OpenSSL's */
    for (int w = 4; w <= 8; w++) {
        int bad = 0;
        for (int i = 0; i < 20000; i++) {
            const uint64_t v = w == 8 ? rnd() : rnd() & top_of(w);
            uint8_t a[16], b[16];
            ref_value(v, w, a);
            fpgamr_md5_reference(v, w, b);
            bad += memcmp(a, b, 16) != 0;
        }
        CHECK(bad == 0, "library reference w=%d: %d wrong", w, bad);
    }
#endif
}

static void test_kernel(const char *kn, int threads) {
    char err[256];
    int code = 1;
    fpgamr_md5 *e = fpgamr_md5_open(kn, threads, err, sizeof err, &code);
    CHECK(e != NULL && code == FPGAMR_MD5_OK, "open %s: %s", kn, e ? "" : err);
    if (e == NULL) {
        return;
    }
    CHECK(strcmp(fpgamr_md5_kernel(e), kn) == 0, "kernel name %s", fpgamr_md5_kernel(e));
    CHECK(fpgamr_md5_threads(e) == threads, "threads %d", fpgamr_md5_threads(e));
    const int lanes = fpgamr_md5_lanes(e);
    const uint64_t big = 40000 / (uint64_t)scale + 13; /* odd, not a multiple of any lane count */
    for (int w = 4; w <= 8; w++) {
        const uint64_t top = top_of(w);
        /* the first values, odd counts around the lane width, random ranges, the very top */
        check_range(e, kn, 0, 1, w);
        check_range(e, kn, 0, (uint64_t)lanes * 2 + 3, w);
        check_range(e, kn, 5, (uint64_t)lanes - 1 > 0 ? (uint64_t)lanes - 1 : 1, w);
        check_range(e, kn, (w == 8 ? rnd() >> 1 : rnd() & (top >> 1)), big, w);
        check_range(e, kn, top - 1000, 1001, w);
        if (w >= 5) { /* x0 changes within the range: 2^32 boundary, and a byte carry into x0 */
            check_range(e, kn, (UINT64_C(1) << 32) - 37, 300, w);
            check_range(e, kn, (UINT64_C(1) << (8 * (w - 4))) * 7 - 5, 77, w);
        }
        check_values(e, kn, w, 3000 / (uint64_t)scale + 7);
    }
    /* a batch of the job's size: 2^18 values */
    check_range(e, kn, UINT64_C(3) << 18, UINT64_C(1) << 18 >> (scale > 1 ? 4 : 0), 4);

    /* search mode. w = 4: x0 varies (rows are the values themselves) */
    {
        const uint64_t s = 0x10000000, n = (1u << 17) / (uint64_t)scale + 5;
        const uint64_t p1[] = {s, s + 1, s + 777, s + n - 1};
        const uint64_t m1[] = {s - 1, s + n, 0x123};
        check_search(e, kn, s, n, 4, p1, 1, m1, 0);           /* one target, first value */
        check_search(e, kn, s, n, 4, p1 + 3, 1, m1, 3);       /* last value, misses just outside */
        check_search(e, kn, s, n, 4, p1, 4, m1, 3);           /* several (bitmap filter) */
        check_search(e, kn, s, n, 4, p1, 0, m1, 1);           /* a miss only */
        check_search(e, kn, 0, 1, 4, (const uint64_t[]){0}, 1, m1, 0);
        check_search(e, kn, UINT32_MAX - 20, 21, 4, (const uint64_t[]){UINT32_MAX, UINT32_MAX - 20}, 2, m1, 1);
        uint64_t many[300];
        for (int i = 0; i < 300; i++) {
            many[i] = s + rnd() % n;
        }
        check_search(e, kn, s, n, 4, many, 300, m1, 3);
    }
    /* w = 5: many full rows (x0 varies per lo byte) and partial first and last rows (x1 varies) */
    {
        const uint64_t s = 0x12345678ab, n = (UINT64_C(1) << 18) / (uint64_t)scale + 77;
        const uint64_t p[] = {s, s + 1, s + 255, s + 256, s + 4097, s + n - 1, s + n / 2};
        const uint64_t m[] = {s - 1, s + n};
        check_search(e, kn, s, n, 5, p, 1, m, 0);
        check_search(e, kn, s, n, 5, p + 5, 1, m, 2);
        check_search(e, kn, s, n, 5, p, 7, m, 2);
        check_search(e, kn, top_of(5) - 9999, 10000, 5, (const uint64_t[]){top_of(5), top_of(5) - 9999}, 2, m, 1);
    }
    /* w = 6, 7: a few rows or one partial row: x1 varies */
    {
        const uint64_t s6 = 0x00ffffff0000 - 3000, n6 = 70000 / (uint64_t)scale;
        const uint64_t p6[] = {s6 + 2999, s6 + 3000, s6 + 3001, s6 + n6 - 1};
        const uint64_t m6[] = {s6 + n6, s6 - 1};
        check_search(e, kn, s6, n6, 6, p6, 4, m6, 2);
        check_search(e, kn, s6, n6, 6, p6 + 1, 1, m6, 0);
        const uint64_t s7 = 0x00abcdef123456, n7 = 50001 / (uint64_t)scale;
        const uint64_t p7[] = {s7 + 17, s7 + n7 - 1};
        check_search(e, kn, s7, n7, 7, p7, 2, m6, 1);
    }
    /* w = 8: crossing a 2^32 boundary (x0 changes), and the very top of the domain */
    {
        const uint64_t s = (UINT64_C(0xdeadbeef) << 32) - 20000 / (uint64_t)scale, n = 40000 / (uint64_t)scale;
        const uint64_t p[] = {s, UINT64_C(0xdeadbeef) << 32, (UINT64_C(0xdeadbeef) << 32) - 1, s + n - 1};
        const uint64_t m[] = {s + n, 7};
        check_search(e, kn, s, n, 8, p, 4, m, 2);
        check_search(e, kn, s, n, 8, p + 1, 1, m, 0);
        check_search(e, kn, UINT64_MAX - 4999, 5000, 8, (const uint64_t[]){UINT64_MAX, UINT64_MAX - 4999}, 2, m, 1);
    }
    /* x0 mode with many rows for w = 6 (2^16 lo values per row): 128 rows of a few lo */
    {
        const uint64_t s = UINT64_C(0x0000123400000000) >> 8;
        const uint64_t n = (UINT64_C(1) << 16) * 130;
        if (scale == 1) {
            const uint64_t p[] = {s + (UINT64_C(1) << 16) * 64 + 3, s + n - 1};
            check_search(e, kn, s, n, 6, p, 2, (const uint64_t[]){s + n}, 1);
        }
    }
    /* bad arguments */
    uint8_t d[16];
    CHECK(fpgamr_md5_hash_range(e, 0, 1, 3, d) == FPGAMR_MD5_EINVAL, "width 3 accepted");
    CHECK(fpgamr_md5_hash_range(e, 0, 1, 9, d) == FPGAMR_MD5_EINVAL, "width 9 accepted");
    CHECK(fpgamr_md5_hash_range(e, UINT32_MAX, 2, 4, d) == FPGAMR_MD5_EINVAL, "range past 2^32 accepted for w=4");
    CHECK(fpgamr_md5_hash_range(e, UINT64_MAX, 2, 8, d) == FPGAMR_MD5_EINVAL, "range past 2^64 accepted");
    CHECK(fpgamr_md5_hash_range(e, UINT32_MAX, 1, 4, d) == 1, "last value of w=4 refused");
    CHECK(fpgamr_md5_hash_range(e, 0, 0, 4, d) == 0, "an empty range hashes nothing");
    {   /* no target: nothing is hashed, and the engine says so */
        fpgamr_md5_targets *none = fpgamr_md5_targets_new(NULL, 0);
        uint64_t done = 1;
        CHECK(fpgamr_md5_search_range(e, none, 0, 1000, 4, NULL, 0, &done) == 0 && done == 0, "no target: done %llu",
              (unsigned long long)done);
        fpgamr_md5_targets_free(none);
    }
    fpgamr_md5_close(e);
}

static void test_dispatch(void) {
    char err[256];
    int code = 0;
    CHECK(fpgamr_md5_api_version() == FPGAMR_MD5_API_VERSION, "api version");
    fpgamr_md5 *e = fpgamr_md5_open("nosuch", 1, err, sizeof err, &code);
    CHECK(e == NULL && code == FPGAMR_MD5_ENOKERNEL && strstr(err, "nosuch") != NULL, "unknown kernel: %s", err);
    CHECK(fpgamr_md5_kernel_status("scalar") == FPGAMR_MD5_OK, "scalar not usable");
    CHECK(fpgamr_md5_kernel_status("nosuch") == FPGAMR_MD5_ENOKERNEL, "nosuch status");
    const char *best = fpgamr_md5_best_kernel();
    CHECK(fpgamr_md5_kernel_status(best) == FPGAMR_MD5_OK, "best %s not usable", best);
#if defined(__x86_64__)
    CHECK(fpgamr_md5_kernel_status("neon") == FPGAMR_MD5_ENOKERNEL, "neon on x86");
    /* a kernel the CPU lacks (when it does) must be a clear error, not a fallback */
    if (fpgamr_md5_kernel_status("avx512") == FPGAMR_MD5_ENOCPU) {
        e = fpgamr_md5_open("avx512", 1, err, sizeof err, &code);
        CHECK(e == NULL && code == FPGAMR_MD5_ENOCPU && strstr(err, "avx512"), "avx512 forced: %s", err);
    }
    CHECK(strcmp(fpgamr_platform(), "linux-x86_64") == 0, "platform %s", fpgamr_platform());
#else
    CHECK(fpgamr_md5_kernel_status("avx2") == FPGAMR_MD5_ENOKERNEL, "avx2 on ARM");
    e = fpgamr_md5_open("avx512", 1, err, sizeof err, &code);
    CHECK(e == NULL && code == FPGAMR_MD5_ENOKERNEL, "avx512 on ARM: %s", err);
    CHECK(strcmp(best, "neon") == 0, "ARM best kernel %s", best);
#endif
    /* FPGAMR_KERNEL forces the auto choice */
    setenv("FPGAMR_KERNEL", "scalar", 1);
    e = fpgamr_md5_open(NULL, 1, err, sizeof err, &code);
    CHECK(e && strcmp(fpgamr_md5_kernel(e), "scalar") == 0, "FPGAMR_KERNEL=scalar: %s", e ? fpgamr_md5_kernel(e) : err);
    fpgamr_md5_close(e);
    setenv("FPGAMR_KERNEL", "bogus", 1);
    e = fpgamr_md5_open("auto", 1, err, sizeof err, &code);
    CHECK(e == NULL && code == FPGAMR_MD5_ENOKERNEL, "FPGAMR_KERNEL=bogus accepted");
    unsetenv("FPGAMR_KERNEL");
    e = fpgamr_md5_open("", 0, err, sizeof err, &code);
    CHECK(e && strcmp(fpgamr_md5_kernel(e), best) == 0 && fpgamr_md5_threads(e) >= 1, "auto picks %s", best);
    fpgamr_md5_close(e);
}

int main(void) {
    const char *sc = getenv("FPGAMR_TEST_SCALE");
    if (sc && atoi(sc) > 1) {
        scale = atoi(sc);
    }
    test_reference();
    test_dispatch();
    char built[128];
    snprintf(built, sizeof built, "%s", fpgamr_md5_kernels_built());
    int ran = 0;
    for (char *save = NULL, *k = strtok_r(built, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        if (fpgamr_md5_kernel_status(k) != FPGAMR_MD5_OK) {
            printf("kernel %s: built, but this CPU lacks it: not tested\n", k);
            continue;
        }
        const int before = failed;
        test_kernel(k, 1);
        test_kernel(k, 3);
        printf("kernel %s: %s\n", k, failed == before ? "ok" : "FAILED");
        ran++;
    }
    CHECK(ran >= 1, "no kernel ran");
    printf("test_md5 %s (kernels built: %s; reference: %s): %d passed, %d failed\n", fpgamr_platform(),
           fpgamr_md5_kernels_built(), REF_MD5_NAME, passed, failed);
    return failed ? 1 : 0;
}
