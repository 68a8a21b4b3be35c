/*
 * cpu.c: which of the compiled kernels this CPU can run. x86: cpuid leaf 7 for AVX2 and
 * AVX-512F, plus XGETBV to check the OS saves the YMM / ZMM state. ARM: getauxval(AT_HWCAP).
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "md5_internal.h"

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__) || defined(__arm__)
#include <sys/auxv.h>
#endif

static fpgamr_cpu cpu;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__)
static uint64_t xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

static void detect(void) {
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) {
        return;
    }
    const int osxsave = (c >> 27) & 1;
    const int avx = (c >> 28) & 1;
    if (!osxsave || !avx) {
        return;
    }
    const uint64_t xcr0 = xgetbv0();
    const int ymm_os = (xcr0 & 0x6) == 0x6;    /* SSE and AVX state */
    const int zmm_os = (xcr0 & 0xe6) == 0xe6;  /* plus opmask, ZMM0-15 upper, ZMM16-31 */
    if (__get_cpuid_max(0, NULL) < 7) {
        return;
    }
    __cpuid_count(7, 0, a, b, c, d);
    cpu.avx2 = ymm_os && ((b >> 5) & 1);
    cpu.avx512f = zmm_os && ((b >> 16) & 1);
#elif defined(__aarch64__)
    /* Advanced SIMD is part of the aarch64 baseline; HWCAP_ASIMD is bit 1. */
    cpu.neon = (getauxval(AT_HWCAP) & (1ul << 1)) != 0;
#elif defined(__arm__)
    /* HWCAP_NEON is bit 12 on 32-bit ARM. */
    cpu.neon = (getauxval(AT_HWCAP) & (1ul << 12)) != 0;
#endif
}

const fpgamr_cpu *fpgamr_cpu_features(void) {
    pthread_once(&cpu_once, detect);
    return &cpu;
}

const fpgamr_kernel *const fpgamr_kernels[] = {
    &fpgamr_kernel_scalar,
#if defined(__x86_64__)
    &fpgamr_kernel_avx2,
    &fpgamr_kernel_avx512,
#endif
#if defined(__aarch64__) || defined(__arm__)
    &fpgamr_kernel_neon,
#endif
    NULL,
};

int fpgamr_kernel_runs(const fpgamr_kernel *k) {
    const fpgamr_cpu *f = fpgamr_cpu_features();
    if (strcmp(k->name, "scalar") == 0) {
        return 1;
    }
    if (strcmp(k->name, "avx2") == 0) {
        return f->avx2;
    }
    if (strcmp(k->name, "avx512") == 0) {
        return f->avx512f;
    }
    if (strcmp(k->name, "neon") == 0) {
        return f->neon;
    }
    return 0;
}

const fpgamr_kernel *fpgamr_kernel_find(const char *name) {
    for (int i = 0; fpgamr_kernels[i] != NULL; i++) {
        if (strcmp(fpgamr_kernels[i]->name, name) == 0) {
            return fpgamr_kernels[i];
        }
    }
    return NULL;
}
