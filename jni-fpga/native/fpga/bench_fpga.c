/* bench_fpga.c: per-batch figures of the fpga driver on a device:
 * device cycles, modelled device time at the given clock, and host time
 * outside the simulator, for the hash path and the search path.
 * usage: bench-fpga [--spec SPEC] [--batches K] [--width W] [--mhz F] [--pipelines N]
 * Goal checks: digests/clock == N (search), min(N, data bus bits / 128) (hash);
 * host time per 2^18 batch <= 10% of the batch's device time on one
 * pipeline at the design clock (FPGAMR_CLOCK_MHZ, or --mhz) on the search
 * path and the zero-copy hash path (the copying one is shown). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpgamr_fpga.h"
#include "fpgamr_regs.h"
#include "fpgamr_targets.h"
#include "testing.h"

int main(int argc, char **argv)
{
    char spec[512] = "";
    unsigned pipes = 1, batches = 4;
    int width = 4;
    double mhz = FPGAMR_CLOCK_MHZ;   /* the design clock (hdl/regmap/md5acc.json) */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--spec") && i + 1 < argc) snprintf(spec, sizeof spec, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--batches") && i + 1 < argc) batches = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--width") && i + 1 < argc) width = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--mhz") && i + 1 < argc) mhz = atof(argv[++i]);
        else if (!strcmp(argv[i], "--pipelines") && i + 1 < argc) pipes = (unsigned)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--spec SPEC] [--pipelines N] [--batches K] [--width W] [--mhz F]\n", argv[0]);
            return 2;
        }
    }
    if (!spec[0]) snprintf(spec, sizeof spec, "vsim:pipelines=%u,mhz=%g", pipes, mhz);
    char err[512];
    fpgamr_dev *d = fpgamr_open(spec, err, sizeof err);
    if (!d) {
        fprintf(stderr, "bench-fpga: %s\n", err);
        return 1;
    }
    fpgamr_dev_info info;
    fpgamr_get_info(d, &info);
    const uint64_t B = 1u << 18;
    const double batch_s = (double)(B + 64) / (mhz * 1e6);   /* one pipeline's batch at the clock */
    const double budget = 0.10 * batch_s;
    uint64_t count = B * batches;
    int fails = 0;
    /* the hash path's rate: min(pipelines, data bus bytes / 16) digests per clock */
    unsigned bus = 1u << ((info.design_params & FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >>
                          FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT);
    unsigned hash_rate = info.pipelines < bus / 16 ? info.pipelines : bus / 16;
    printf("bench-fpga: %s, %u pipeline(s), %u-bit data bus, %.0f MHz, %u batches of 2^18, width %d\n", spec,
           info.pipelines, 8 * bus, info.mhz, batches, width);
    printf("%-7s %12s %14s %16s %14s %12s %8s\n", "path", "cycles/batch", "digests/clock", "device ms/batch",
           "host ms/batch", "host max ms", "host %");

    /* search: values generated on chip, one planted target per batch */
    uint8_t *tg = malloc(batches * 16);
    for (unsigned k = 0; k < batches; k++) ref_value(k * B + 12345, width, tg + 16 * k);
    size_t ntg = fpgamr_targets_sort(tg, batches);
    uint64_t m[64];
    size_t nm = 0;
    uint64_t done = 0;
    fpgamr_reset_stats(d);
    int rc = fpgamr_search_range(d, 0, count, width, tg, ntg, m, 64, &nm, &done);
    fpgamr_stats st;
    fpgamr_get_stats(d, &st);
    if (rc || nm != batches || done != count) {
        printf("search FAILED: rc %d (%s), %zu matches, %llu done\n", rc, fpgamr_last_error(d), nm,
               (unsigned long long)done);
        fails++;
    }
    double cyc = (double)st.device_cycles / (double)st.batches;
    double host = st.host_seconds / (double)st.batches;
    printf("%-7s %12.0f %14.3f %16.3f %14.3f %12.3f %7.1f%%\n", "search", cyc, (double)B / cyc,
           1e3 * st.device_seconds / (double)st.batches, 1e3 * host, 1e3 * st.max_batch_host_seconds,
           100.0 * host / batch_s);
    if ((double)B / cyc < 0.98 * info.pipelines) fails++;
    if (host > budget) fails++;

    /* hash: messages DMA'd in, digests DMA'd out; twice: into the caller's
     * malloc'd buffer (a copy per batch), and straight into a buffer from
     * fpgamr_dma_alloc (zero copy, what the Java engine hands its callers) */
    uint8_t *heap = malloc(count * 16);
    uint8_t *dma = fpgamr_dma_alloc(d, count * 16);
    if (!heap || !dma) {
        printf("hash FAILED: no memory for %llu digests: %s\n", (unsigned long long)count, fpgamr_last_error(d));
        return 1;
    }
    memset(heap, 0, count * 16);  /* a caller reuses its buffer: no first-touch page faults in the figures */
    double wall = 0;
    for (int zc = 0; zc < 2; zc++) {
        uint8_t *dig = zc ? dma : heap;
        fpgamr_reset_stats(d);
        rc = fpgamr_hash_range(d, 0, count, width, dig, NULL);
        fpgamr_get_stats(d, &st);
        uint64_t bad = 0;
        for (uint64_t i = 0; rc == 0 && i < count; i += 4099) {
            uint8_t ref[16];
            ref_value(i, width, ref);
            bad += memcmp(ref, dig + 16 * i, 16) != 0;
        }
        if (rc || bad || st.zero_copy_batches != (zc ? st.batches : 0)) {
            printf("hash FAILED: rc %d (%s), %llu wrong digests, %llu zero-copy batches\n", rc, fpgamr_last_error(d),
                   (unsigned long long)bad, (unsigned long long)st.zero_copy_batches);
            fails++;
            continue;
        }
        cyc = (double)st.device_cycles / (double)st.batches;
        host = st.host_seconds / (double)st.batches;
        printf("%-7s %12.0f %14.3f %16.3f %14.3f %12.3f %7.1f%%\n", zc ? "hash-zc" : "hash", cyc, (double)B / cyc,
               1e3 * st.device_seconds / (double)st.batches, 1e3 * host, 1e3 * st.max_batch_host_seconds,
               100.0 * host / batch_s);
        if ((double)B / cyc < 0.98 * hash_rate) fails++;
        if (zc && host > budget) fails++;
        wall += st.wall_seconds;
    }
    printf("hash: into a malloc'd buffer (one copy of 4 MiB per batch); hash-zc: into fpgamr_dma_alloc memory (no copy)\n");
    printf("host %% = host time per batch / %.2f ms (2^18 + 64 clocks at %g MHz); goal <= 10%%\n", 1e3 * batch_s, mhz);
    printf("wall time of the simulation: %.2f s for the hash path\n", wall);
    free(heap);
    fpgamr_dma_free(d, dma);
    free(tg);
    fpgamr_close(d);
    printf("bench-fpga: %s\n", fails ? "GOALS NOT MET" : "goals met");
    return fails ? 1 : 0;
}
