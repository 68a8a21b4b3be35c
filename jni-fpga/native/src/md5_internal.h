/* md5_internal.h: library-private declarations shared by src/ and the C tests. */
#ifndef FPGAMR_MD5_INTERNAL_H
#define FPGAMR_MD5_INTERNAL_H

#include <stdint.h>

#include "../kernels/md5_kernel.h"

/* The 16 message words of value v in width w. */
void fpgamr_md5_words(uint64_t v, int w, uint32_t x[16]);
/* One MD5 compression from the IV, plain loop form: the portable reference. */
void fpgamr_md5_block_ref(const uint32_t x[16], uint32_t st[4]);
/* Early-exit compare value of a target digest: undoes steps 63..49 (varying 0) or 63..56
 * (varying 1) with the fixed words x, then step 48 or 55 without its varying word. */
uint32_t fpgamr_md5_target_value(const uint8_t digest[16], const uint32_t x[16], int varying);
/* add[i] = K[i] + x[G[i]], except 0 in place of the varying word (0 or 1; -1 for none). */
void fpgamr_md5_fill_add(uint32_t add[64], const uint32_t x[16], int varying);

/* CPU features, detected once. */
typedef struct fpgamr_cpu {
    int avx2;
    int avx512f;
    int neon;
} fpgamr_cpu;
const fpgamr_cpu *fpgamr_cpu_features(void);

/* The kernels compiled in, worst first, NULL-terminated; and whether the CPU runs one. */
extern const fpgamr_kernel *const fpgamr_kernels[];
int fpgamr_kernel_runs(const fpgamr_kernel *k);

/* Open with an explicit kernel struct (used by the tests to reach every kernel directly). */
const fpgamr_kernel *fpgamr_kernel_find(const char *name);

#endif
