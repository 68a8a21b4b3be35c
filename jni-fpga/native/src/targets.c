/* targets.c: the prepared target set of fpgamr_md5.h, sorted once (fpgamr_targets.h) and then
 * shared: by the CPU kernels' search, and, through fpgamr_md5_targets_digests, by the FPGA driver. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fpgamr_targets.h"

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
    }
    t->n = (uint32_t)fpgamr_targets_sort(t->digests, n);
    return t;
}

void fpgamr_md5_targets_free(fpgamr_md5_targets *t) {
    free(t);
}

uint32_t fpgamr_md5_targets_size(const fpgamr_md5_targets *t) {
    return t ? t->n : 0;
}

const uint8_t *fpgamr_md5_targets_digests(const fpgamr_md5_targets *t) {
    return t ? t->digests : NULL;
}
