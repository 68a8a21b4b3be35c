/*
 * fpgamr_targets.h: a set of target MD5 digests as every engine takes it: 16-byte digests, sorted
 * ascending (memcmp order), no duplicates. A set is sorted once where it is made (by
 * fpgamr_md5_targets_new, which the Java TargetSet calls once for both native engines, or by
 * fpgamr_targets_sort); the FPGA driver takes the sorted array as it is. Header-only, so that the
 * driver builds on its own.
 */
#ifndef FPGAMR_TARGETS_H
#define FPGAMR_TARGETS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline int fpgamr_digest_cmp(const void *a, const void *b) {
    return memcmp(a, b, 16);
}

/* Sorts n digests in place and drops duplicates; returns how many are left. */
static inline size_t fpgamr_targets_sort(uint8_t *d, size_t n) {
    if (n > 1) {
        qsort(d, n, 16, fpgamr_digest_cmp);
    }
    size_t u = 0;
    for (size_t i = 0; i < n; i++) {
        if (u == 0 || memcmp(d + 16 * (u - 1), d + 16 * i, 16) != 0) {
            memmove(d + 16 * u, d + 16 * i, 16);
            u++;
        }
    }
    return u;
}

/* True when the n digests are sorted ascending without duplicates. */
static inline int fpgamr_targets_sorted(const uint8_t *d, size_t n) {
    for (size_t i = 1; i < n; i++) {
        if (memcmp(d + 16 * (i - 1), d + 16 * i, 16) >= 0) {
            return 0;
        }
    }
    return 1;
}

/* True when digest is one of the n sorted digests. */
static inline int fpgamr_targets_contain(const uint8_t *d, size_t n, const uint8_t digest[16]) {
    return bsearch(digest, d, n, 16, fpgamr_digest_cmp) != NULL;
}

#endif
