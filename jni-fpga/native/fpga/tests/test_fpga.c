/* test_fpga.c: tests of the fpga driver on the vsim bus (the Verilated HDL).
 * Exact digests against a software MD5 across batch boundaries, planted
 * preimages in search mode, values_done == count, many hits through the
 * match ring (nothing re-hashed), injected faults, the busy error for a second opener (at once, and after wait_ms),
 * a lock file another user made,
 * an opener that waits for the owner, zero-copy hashing into
 * fpgamr_dma_alloc memory, device errors, and the vsim bus playing the
 * kernel's part of register map 3 (jobs checked against its buffers, the
 * kernel page out of reach, a job's buffer freed only after the device
 * stopped).
 * usage: test_fpga PIPELINES    prints "N passed, M failed" */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../fpgamr_bus.h"
#include "fpgamr_fpga.h"
#include "fpgamr_regs.h"
#include "fpgamr_targets.h"
#include "testing.h"

static uint64_t check_range(const uint8_t *dig, uint64_t start, uint64_t count, int w)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint8_t d[16];
        ref_value(start + i, w, d);
        if (memcmp(d, dig + 16 * i, 16)) bad++;
    }
    return bad;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* An opener in a thread of its own: when it began opening and when the open returned, so that the
 * test orders them against its owner's close, whatever the load delays (not a duration). */
typedef struct waiter {
    char spec[300];
    fpgamr_dev *dev;
    int rc;
    atomic_int opening, opened;
    double t_opened;
    char err[512];
} waiter;

static void *open_waiting(void *arg)
{
    waiter *w = arg;
    atomic_store(&w->opening, 1);
    w->dev = fpgamr_open_rc(w->spec, &w->rc, w->err, sizeof w->err);
    w->t_opened = now_ms();
    atomic_store(&w->opened, 1);
    return NULL;
}

/* The timeout is long enough for a healthy simulated batch of 4096 values on a loaded 2-core
 * CI machine (400 ms was not, beside the Java suite), short enough for the hang tests. */
#define FAULTY_TIMEOUT_MS 2000

static fpgamr_dev *open_faulty(unsigned p, const char *fault)
{
    char spec[256], err[512];
    snprintf(spec, sizeof spec, "vsim:pipelines=%u,batch=4096,timeout_ms=%d,fault=%s", p, FAULTY_TIMEOUT_MS, fault);
    fpgamr_dev *d = fpgamr_open(spec, err, sizeof err);
    CHECK(d != NULL, "open %s: %s", spec, err);
    return d;
}

/* The simulated device's injected faults, as the driver reports them: a DMA
 * error and a hang are clean errors (the batches before them counted, the
 * device usable afterwards), a dropped batch is no error but fewer values. */
static void test_faults(unsigned p)
{
    const uint64_t count = 4096 * 2 + 777, start = 0x5000;
    uint8_t *dig = malloc(16 * count);
    uint64_t done = 0;
    fpgamr_stats st;

    /* drop@2 on the hash path: batch 2 does its first 2048 values */
    fpgamr_dev *d = open_faulty(p, "drop@2");
    if (d) {
        int rc = fpgamr_hash_range(d, start, count, 4, dig, &done);
        fpgamr_get_stats(d, &st);
        CHECK(rc == 0 && done == count - 2048 && st.values == done && st.short_batches == 1 && st.batches == 3,
              "drop@2 hash: rc %d, done %llu of %llu, short %llu", rc, (unsigned long long)done, (unsigned long long)count,
              (unsigned long long)st.short_batches);
        CHECK(check_range(dig, start, 4096 + 2048, 4) == 0 && check_range(dig + 16 * 8192, start + 8192, 777, 4) == 0,
              "drop@2: the digests the device did are right");
        CHECK(strstr(fpgamr_last_error(d), "batch 2: device did 2048 of 4096 values") != NULL, "drop message: %s",
              fpgamr_last_error(d));
        rc = fpgamr_hash_range(d, start, count, 4, dig, &done);
        CHECK(rc == 0 && done == count && check_range(dig, start, count, 4) == 0, "after the drop: done %llu",
              (unsigned long long)done);
        fpgamr_close(d);
    }
    /* drop@3 on the search path: the dropped half is neither checked nor counted */
    d = open_faulty(p, "drop@3");
    if (d) {
        uint8_t tg[2 * 16];
        ref_value(start + 10, 4, tg);                 /* batch 1: found */
        ref_value(start + 8192 + 700, 4, tg + 16);    /* batch 3, second half of its 777: dropped */
        uint64_t m[4];
        size_t nm = 0;
        int rc = fpgamr_search_range(d, start, count, 4, tg, fpgamr_targets_sort(tg, 2), m, 4, &nm, &done);
        fpgamr_get_stats(d, &st);
        CHECK(rc == 0 && done == count - (777 - 388) && nm == 1 && m[0] == start + 10 && st.short_batches == 1,
              "drop@3 search: rc %d, done %llu, %zu matches", rc, (unsigned long long)done, nm);
        fpgamr_close(d);
    }
    /* dma_error@2, hash path: a read response error, batch 1 counted */
    d = open_faulty(p, "dma_error@2");
    if (d) {
        int rc = fpgamr_hash_range(d, start, count, 4, dig, &done);
        CHECK(rc == FPGAMR_EIO && done == 4096 && strstr(fpgamr_last_error(d), "read response error"),
              "dma_error@2 hash: rc %d, done %llu: %s", rc, (unsigned long long)done, fpgamr_last_error(d));
        /* the bus address of the failing burst: the vsim bus reads it where it plays the kernel (register map
         * 3.2's kernel page; the user page's old offset reads 0) */
        const char *at = strstr(fpgamr_last_error(d), "at bus address 0x");
        CHECK(at && strtoull(at + 17, NULL, 16) != 0, "dma_error@2: the failing burst's address: %s", fpgamr_last_error(d));
        /* a search right after the read error: the device's stale read error is cleared */
        uint8_t tg[16];
        uint64_t m[4];
        size_t nm = 0;
        ref_value(start + 3, 4, tg);
        rc = fpgamr_search_range(d, start, count, 4, tg, 1, m, 4, &nm, &done);
        CHECK(rc == 0 && done == count && nm == 1 && m[0] == start + 3, "search after the DMA error: rc %d: %s", rc,
              fpgamr_last_error(d));
        rc = fpgamr_hash_range(d, start, count, 4, dig, &done);
        CHECK(rc == 0 && done == count && check_range(dig, start, count, 4) == 0, "after the DMA error: rc %d", rc);
        fpgamr_close(d);
    }
    /* dma_error@1, search path: the match records' writes fail; afterwards the search is exact */
    d = open_faulty(p, "dma_error@1");
    if (d) {
        uint8_t tg[16];
        ref_value(start + 5000, 4, tg);
        uint64_t m[4];
        size_t nm = 0;
        int rc = fpgamr_search_range(d, start, count, 4, tg, 1, m, 4, &nm, &done);
        CHECK(rc == FPGAMR_EIO && done == 0 && strstr(fpgamr_last_error(d), "write response error"),
              "dma_error@1 search: rc %d, done %llu: %s", rc, (unsigned long long)done, fpgamr_last_error(d));
        rc = fpgamr_search_range(d, start, count, 4, tg, 1, m, 4, &nm, &done);
        fpgamr_get_stats(d, &st);
        CHECK(rc == 0 && done == count && nm == 1 && m[0] == start + 5000 && st.filter_hits < 100,
              "after the DMA error: rc %d, done %llu, %zu matches, %llu filter hits", rc, (unsigned long long)done, nm,
              (unsigned long long)st.filter_hits);
        fpgamr_close(d);
    }
    /* hang@2: no interrupt, a timeout, the job aborted; the device works afterwards */
    for (int search = 0; search < 2; search++) {
        d = open_faulty(p, "hang@2");
        if (!d) continue;
        uint8_t tg[16];
        ref_value(1, 4, tg);
        uint64_t m[4];
        size_t nm = 0;
        double t0 = now_ms();
        int rc = search ? fpgamr_search_range(d, start, count, 4, tg, 1, m, 4, &nm, &done)
                        : fpgamr_hash_range(d, start, count, 4, dig, &done);
        double ms = now_ms() - t0;
        char within[64];
        snprintf(within, sizeof within, "no interrupt within %d ms", FAULTY_TIMEOUT_MS);
        CHECK(rc == FPGAMR_ETIMEDOUT && done == 4096 && ms >= FAULTY_TIMEOUT_MS && strstr(fpgamr_last_error(d), within),
              "hang@2 %s: rc %d, done %llu after %.0f ms: %s", search ? "search" : "hash", rc, (unsigned long long)done, ms,
              fpgamr_last_error(d));
        rc = fpgamr_hash_range(d, start, count, 4, dig, &done);
        CHECK(rc == 0 && done == count && check_range(dig, start, count, 4) == 0, "after the hang: rc %d: %s", rc, fpgamr_last_error(d));
        fpgamr_close(d);
    }
    /* dma_stall@2: the DMA never completes; the error names what the bus
     * found on the way to memory (the simulated device: nothing to read) */
    d = open_faulty(p, "dma_stall@2");
    if (d) {
        int rc = fpgamr_hash_range(d, start, count, 4, dig, &done);
        const char *e = fpgamr_last_error(d), *why =
            "; job aborted: a simulated device has no FPGA-to-SDRAM port or bridges to read: the design or its memory did not answer";
        CHECK(rc == FPGAMR_ETIMEDOUT && done == 4096 && strlen(e) > strlen(why) && !strcmp(e + strlen(e) - strlen(why), why),
              "dma_stall@2 hash: rc %d, done %llu: %s", rc, (unsigned long long)done, e);
        fpgamr_close(d);
    }
    /* irq_lost@1: the job ended but its interrupt never came: not a DMA that did not complete */
    d = open_faulty(p, "irq_lost@1");
    if (d) {
        int rc = fpgamr_hash_range(d, start, 4096, 4, dig, &done);
        CHECK(rc == FPGAMR_ETIMEDOUT &&
                  strstr(fpgamr_last_error(d), "job aborted: the device finished the job (STATUS.DONE) but its interrupt did not arrive"),
              "irq_lost@1 hash: rc %d: %s", rc, fpgamr_last_error(d));
        fpgamr_close(d);
    }
    /* a malformed fault is refused at open */
    char err[256];
    CHECK(fpgamr_open("vsim:pipelines=1,fault=melt@1", err, sizeof err) == NULL && strstr(err, "bad fault"), "bad fault: %s",
          err);
    free(dig);
}

/* wedge@1 with state=: a search that never stops (the memory hangs, ABORT
 * changes nothing) times out; closing the device waits the driver's 5 s
 * for it, says it is wedged (fpgamr_close_rc) and keeps that in its state
 * file, as the kernel's sysfs `state` says it; the next opener's job is
 * refused with EIO, and its close says wedged too, until the file says
 * otherwise (the NodeManager's reload of the model writes "idle"). The
 * search path, with a caller's DMA buffer: it and the second match ring are
 * freed through the model's lock, which a wedged device's clock thread once
 * never gave up (the close hung: a SIGALRM ends this test, failing, instead
 * of hanging). */
static void test_wedge(unsigned p)
{
    static const char wedged[] =
        "wedged: the device did not stop its job within 5000 ms (JOBS_STARTED 0x00000001 of 0x00000001, STATUS 0x";
    char state[512], spec[1024], err[512] = "", why[512] = "";
    snprintf(state, sizeof state, "%s/fpgamr-vsim-state-%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    FILE *f = fopen(state, "w");
    CHECK(f && fputs("idle\n", f) >= 0 && fclose(f) == 0, "state file %s", state);
    snprintf(spec, sizeof spec, "vsim:pipelines=%u,batch=4096,timeout_ms=%d,state=%s,fault=wedge@1", p, FAULTY_TIMEOUT_MS, state);
    uint64_t done = 0, m[4];
    size_t nm = 0;
    uint8_t tg[16], *dig = malloc(16 * 4096);
    ref_value(3, 4, tg);
    fpgamr_dev *d = fpgamr_open(spec, err, sizeof err);
    CHECK(d != NULL, "open %s: %s", spec, err);
    if (!d || !dig) {
        free(dig);
        return;
    }
    void *user = fpgamr_dma_alloc(d, 16 * 4096);
    CHECK(user != NULL, "a caller's DMA buffer: %s", fpgamr_last_error(d));
    int rc = fpgamr_search_range(d, 0, 4 * 4096, 4, tg, 1, m, 4, &nm, &done);
    CHECK(rc == FPGAMR_ETIMEDOUT && done == 0, "wedge@1 search: rc %d, done %llu: %s", rc, (unsigned long long)done,
          fpgamr_last_error(d));
    alarm(120);  /* a guard against a hang, not a time limit: the stop's own bound is 5 s */
    /* as the Java engine does after the failed call (an exception, then its digest buffers freed
     * before the close): the model's clock thread has had time to take its lock back */
    usleep(100000);
    fpgamr_dma_free(d, user);
    double t0 = now_ms();
    rc = fpgamr_close_rc(d, why, sizeof why);
    double ms = now_ms() - t0;
    alarm(0);
    char line[256] = "";
    f = fopen(state, "r");
    CHECK(f && fgets(line, sizeof line, f), "state readable");
    if (f) fclose(f);
    line[strcspn(line, "\n")] = 0;
    CHECK(ms >= 5000 && !strncmp(line, wedged, strlen(wedged)), "wedged after %.0f ms: %s", ms, line);
    CHECK(rc == FPGAMR_EIO && !strncmp(why, "vsim: ", 6) && !strcmp(why + 6, line), "close: rc %d: %s", rc, why);
    /* the next opener: a fresh model, but the device's state says wedged */
    snprintf(spec, sizeof spec, "vsim:pipelines=%u,batch=4096,timeout_ms=%d,state=%s", p, FAULTY_TIMEOUT_MS, state);
    d = fpgamr_open(spec, err, sizeof err);
    CHECK(d != NULL, "reopen: %s", err);
    if (d) {
        rc = fpgamr_hash_range(d, 0, 4096, 4, dig, &done);
        CHECK(rc == FPGAMR_EIO && strstr(fpgamr_last_error(d), "did not stop a job"), "wedged device's job: rc %d: %s", rc,
              fpgamr_last_error(d));
        rc = fpgamr_close_rc(d, why, sizeof why);
        CHECK(rc == FPGAMR_EIO && !strcmp(why + 6, line), "the wedged device's close: rc %d: %s", rc, why);
    }
    f = fopen(state, "w");
    CHECK(f && fputs("idle\n", f) >= 0 && fclose(f) == 0, "state reset");
    d = fpgamr_open(spec, err, sizeof err);
    if (d) {
        rc = fpgamr_hash_range(d, 0, 4096, 4, dig, &done);
        CHECK(rc == 0 && done == 4096 && check_range(dig, 0, 4096, 4) == 0, "after the reload: rc %d: %s", rc,
              fpgamr_last_error(d));
        why[0] = 0;
        rc = fpgamr_close_rc(d, why, sizeof why);
        CHECK(rc == 0 && why[0] == 0, "after the reload, close: rc %d: %s", rc, why);
    }
    unlink(state);
    free(dig);
}

/* The vsim bus as the kernel driver: user space reaches the user page only;
 * a job names buffers of this bus, aligned, inside them, on an idle device;
 * freeing a running job's buffer stops the device first. The job is held
 * running by fault=hang (the clock stops after its START until ABORT). */
static void test_kernel_part(unsigned p)
{
    char spec[128], err[512] = "";
    fpgamr_bus bus;
    snprintf(spec, sizeof spec, "pipelines=%u,fault=hang@2", p);
    int rc = fpgamr_bus_vsim_open(spec, &bus, err, sizeof err);
    CHECK(rc == 0, "vsim bus: %s", err);
    if (rc) return;
    fpgamr_dmabuf in = {0}, out = {0}, ring = {0};
    CHECK(bus.dma_alloc(bus.ctx, 4096, &in) == 0 && bus.dma_alloc(bus.ctx, 4096, &out) == 0 &&
          bus.dma_alloc(bus.ctx, 8192, &ring) == 0, "three buffers");
    uint32_t beat = 1u << ((bus.rd(bus.ctx, FPGAMR_REG_DESIGN_PARAMS) & FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >>
                           FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT);
    fpgamr_dmabuf foreign = out;
    foreign.bus += 8192;  /* memory the bus never gave out */
    struct { fpgamr_job j; const char *why; } bad[] = {
        {{FPGAMR_OP_HASH, 4, 0, 16, &in, 0, &foreign, 0, 0}, "a buffer not of this device"},
        {{FPGAMR_OP_HASH, 4, 0, 4096 / 16 + 1, &in, 0, &out, 0, 0}, "a range outside its buffer"},
        {{FPGAMR_OP_HASH, 4, 0, 16, &in, 0, &out, 4096 - 16 * 16 + beat, 0}, "a range outside its buffer"},
        {{FPGAMR_OP_HASH, 4, 0, UINT64_MAX / 4, &in, 0, &out, 0, 0}, "a range outside its buffer"},
        {{FPGAMR_OP_HASH, 4, 0, 16, &in, beat / 2, &out, 0, 0}, "alignment"},
        {{FPGAMR_OP_HASH, 9, 0, 16, &in, 0, &out, 0, 0}, "op or width"},
        {{FPGAMR_OP_SEARCH, 4, 0, 1 << 20, NULL, 0, &ring, 0, 8192 / 32 + 1}, "a range outside its buffer"},
        {{FPGAMR_OP_SEARCH, 4, 0, 1 << 20, NULL, 0, &ring, 16, 4}, "alignment"},
        {{FPGAMR_OP_SEARCH, 4, 0, 1 << 20, &in, 0, &ring, 0, 4}, "alignment or fields"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        rc = bus.submit(bus.ctx, &bad[i].j, err, sizeof err);
        CHECK(rc == FPGAMR_EINVAL && strstr(err, bad[i].why), "bad job %zu refused (%s): rc %d: %s", i, bad[i].why, rc, err);
    }
    CHECK(bus.rd(bus.ctx, FPGAMR_REG_JOBS_STARTED) == 0, "no refused job reached the device");
    /* a good hash job, done; then a search held running by the hang */
    bus.wr(bus.ctx, FPGAMR_REG_IRQ_ENABLE, FPGAMR_IRQ_ENABLE_DONE_MASK | FPGAMR_IRQ_ENABLE_ERROR_MASK);
    fpgamr_job ok = {FPGAMR_OP_HASH, 4, 0, 16, &in, 0, &out, 0, 0};
    rc = bus.submit(bus.ctx, &ok, err, sizeof err);
    CHECK(rc == 0 && bus.wait_irq(bus.ctx, 60000) == 1 && bus.rd(bus.ctx, FPGAMR_REG_DONE_LO) == 16 &&
          bus.rd(bus.ctx, FPGAMR_REG_JOBS_STARTED) == 1, "hash job by buffer: rc %d: %s", rc, err);
    bus.wr(bus.ctx, FPGAMR_REG_IRQ_STATUS, 7);
    fpgamr_job hold = {FPGAMR_OP_SEARCH, 4, 0, 1 << 20, NULL, 0, &ring, 0, 8192 / 32};
    rc = bus.submit(bus.ctx, &hold, err, sizeof err);
    CHECK(rc == 0 && (bus.rd(bus.ctx, FPGAMR_REG_STATUS) & FPGAMR_STATUS_BUSY_MASK), "search job running: rc %d", rc);
    rc = bus.submit(bus.ctx, &ok, err, sizeof err);
    CHECK(rc == FPGAMR_EBUSY && strstr(err, "busy"), "a second job while one runs: rc %d: %s", rc, err);
    /* the kernel page reads as nothing and ignores writes from user space */
    bus.wr(bus.ctx, FPGAMR_REG_CTRL, FPGAMR_CTRL_ABORT_MASK);
    bus.wr(bus.ctx, FPGAMR_REG_DST_LO, 0x1000);
    CHECK(bus.rd(bus.ctx, FPGAMR_REG_MODE) == 0 && bus.rd(bus.ctx, FPGAMR_REG_DST_LO) == 0 &&
          bus.rd(bus.ctx, FPGAMR_REG_MATCH_CAP) == 0, "kernel page unreachable");
    CHECK(bus.rd(bus.ctx, FPGAMR_REG_STATUS) & FPGAMR_STATUS_BUSY_MASK, "an ABORT written to CTRL (kernel page) from user space did nothing");
    /* freeing the running job's ring stops the device first */
    bus.dma_free(bus.ctx, &ring);
    uint32_t st = bus.rd(bus.ctx, FPGAMR_REG_STATUS);
    CHECK(!(st & FPGAMR_STATUS_BUSY_MASK) && (st & FPGAMR_STATUS_ABORTED_MASK) && ring.host == NULL,
          "free of a running job's buffer: stopped first (STATUS 0x%08x)", st);
    bus.dma_free(bus.ctx, &in);
    bus.dma_free(bus.ctx, &out);
    bus.close(bus.ctx);
}

/* A lock file another user made (0644 by umask; 0444 here, so that not even its owner may write it)
 * still locks the device for this opener: flock needs no write access. As root the opener is nobody
 * (root may write anything). The model named cannot load, so getting that far means the lock was taken. */
static void test_foreign_lock_file(unsigned p)
{
    char dir[] = "/tmp/fpgamr-lock-XXXXXX", path[64], spec[256];
    CHECK(mkdtemp(dir) != NULL && chmod(dir, 01777) == 0, "a sticky lock folder");
    snprintf(path, sizeof path, "%s/vsim.lock", dir);
    int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0444);
    CHECK(fd >= 0, "lock file %s", path);
    if (fd >= 0) close(fd);
    snprintf(spec, sizeof spec, "vsim:pipelines=%u,lock=%s,lib=/nonexistent/libx.so", p, path);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char err[512] = "";
        if (geteuid() == 0 && (setgid(65534) || setuid(65534))) _exit(3);
        fpgamr_dev *d = fpgamr_open(spec, err, sizeof err);
        printf("test_fpga: the lock file's other user opened it: %s\n", d ? "the device" : err);
        fflush(stdout);
        _exit(!d && strstr(err, "cannot load") ? 0 : 1);
    }
    int st = 0;
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "a lock file of another user, mode 0444: taken by this opener (status %d)", st);
    unlink(path);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    unsigned p = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    char spec[256], err[512];
    /* small batches so that ranges cross several batch boundaries quickly */
    snprintf(spec, sizeof spec, "vsim:pipelines=%u,mhz=50,batch=4096,stall=5,seed=7", p);
    fpgamr_dev *d = fpgamr_open(spec, err, sizeof err);
    CHECK(d != NULL, "open %s: %s", spec, err);
    if (!d) {
        printf("%d passed, %d failed\n", passed, failed);
        return 1;
    }
    fpgamr_dev_info info;
    fpgamr_get_info(d, &info);
    CHECK(info.pipelines == p && strcmp(info.bus, "vsim") == 0, "info %u %s", info.pipelines, info.bus);
    size_t bus = (size_t)1 << ((info.design_params & FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >>
                               FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT);
    CHECK(bus >= 16 && bus <= 64, "bus width %zu bytes", bus);
    printf("test_fpga: vsim, %u pipeline(s), %zu-bit data bus, widths %u..%u\n", info.pipelines, 8 * bus,
           info.min_width, info.max_width);

    /* second opener: busy, and the first one keeps working */
    int rc2 = 0;
    fpgamr_dev *d2 = fpgamr_open_rc(spec, &rc2, err, sizeof err);
    CHECK(d2 == NULL && rc2 == FPGAMR_EBUSY && strstr(err, "busy"), "second open rc %d: %s", rc2, err);
    if (d2) fpgamr_close(d2);
    {  /* with wait_ms the second opener polls, then gives up with the same error */
        char spec3[300];
        snprintf(spec3, sizeof spec3, "%s,wait_ms=150", spec);
        double t0 = now_ms();
        d2 = fpgamr_open_rc(spec3, &rc2, err, sizeof err);
        double ms = now_ms() - t0;
        CHECK(d2 == NULL && rc2 == FPGAMR_EBUSY && strstr(err, "busy") && strstr(err, "waited") && ms >= 150,
              "waiting second open rc %d after %.0f ms: %s", rc2, ms, err);
        if (d2) fpgamr_close(d2);
    }

    /* zero copy: digests straight into the caller's DMA buffer, across batches */
    {
        uint64_t count = 4096 * 2 + 777, start = 0xABC000;
        uint8_t *buf = fpgamr_dma_alloc(d, 16 * count + bus);  /* a bus-aligned offset, odd count */
        CHECK(buf != NULL && ((uintptr_t)buf & 4095) == 0, "dma_alloc: %s", fpgamr_last_error(d));
        if (buf) {
            fpgamr_reset_stats(d);
            uint64_t done = 0;
            int rc = fpgamr_hash_range(d, start, count, 4, buf + bus, &done);
            fpgamr_stats st;
            fpgamr_get_stats(d, &st);
            CHECK(rc == 0 && check_range(buf + bus, start, count, 4) == 0, "zero-copy digests rc %d", rc);
            CHECK(done == count && st.values == count && st.short_batches == 0, "the device wrote %llu of %llu digests",
                  (unsigned long long)done, (unsigned long long)count);
            CHECK(st.batches == 3 && st.zero_copy_batches == 3, "zero-copy batches %llu of %llu",
                  (unsigned long long)st.zero_copy_batches, (unsigned long long)st.batches);
            /* inside the buffer but not bus aligned: the copying path, same digests */
            fpgamr_reset_stats(d);
            rc = fpgamr_hash_range(d, start + 5, 5000, 6, buf + 8, NULL);
            fpgamr_get_stats(d, &st);
            CHECK(rc == 0 && check_range(buf + 8, start + 5, 5000, 6) == 0 && st.zero_copy_batches == 0,
                  "unaligned caller buffer rc %d zc %llu", rc, (unsigned long long)st.zero_copy_batches);
            fpgamr_dma_free(d, buf);
        }
        void *bufs[9];
        int got = 0;
        for (int i = 0; i < 9; i++) got += (bufs[i] = fpgamr_dma_alloc(d, 4096)) != NULL;
        CHECK(got == 8, "8 caller buffers per device, got %d", got);
        for (int i = 0; i < 9; i++) fpgamr_dma_free(d, bufs[i]);
    }

    /* hash path: every width 4..8 (and 1..3), ranges across batch boundaries */
    for (int w = 1; w <= 8; w++) {
        uint64_t count = 4096 * 2 + 1234 + (uint64_t)w;
        uint64_t start = (w >= 5) ? 0xFFFFFF000ull + (uint64_t)w * 777 : (w == 4 ? 0xFFFFF000u : 0);
        if (w < 4) { start = 0; count = (1ull << (8 * w)) < count ? (1ull << (8 * w)) : count; }
        uint8_t *dig = malloc(count * 16);
        uint64_t done = 0;
        int rc = fpgamr_hash_range(d, start, count, w, dig, &done);
        CHECK(rc == 0 && done == count, "hash w%d rc %d, %llu of %llu done: %s", w, rc, (unsigned long long)done,
              (unsigned long long)count, fpgamr_last_error(d));
        CHECK(check_range(dig, start, count, w) == 0, "hash w%d digests", w);
        free(dig);
    }
    {
        uint8_t dig[16];
        static const uint8_t want[16] = {0x09, 0x68, 0x22, 0x47, 0x5d, 0xd5, 0x17, 0xc1,
                                         0x08, 0x9f, 0x4b, 0x58, 0xc7, 0xf3, 0x46, 0xef};
        uint64_t done = 7;
        CHECK(fpgamr_hash_range(d, 0x123, 1, 4, dig, &done) == 0 && memcmp(dig, want, 16) == 0 && done == 1,
              "MD5(00 00 01 23)");
        CHECK(fpgamr_hash_range(d, 0, 0, 4, dig, &done) == 0 && done == 0, "empty hash range");
        CHECK(fpgamr_hash_range(d, 0, 1, 9, dig, &done) == FPGAMR_EINVAL && done == 0, "width 9 rejected");
    }

    /* search path: planted preimages across batch boundaries, exact counts */
    {
        uint64_t start = 0x12340000ull, count = 4096 * 3 + 100;
        uint64_t planted[] = {start, start + 4095, start + 4096, start + 9000, start + count - 1};
        size_t np = sizeof planted / sizeof planted[0];
        uint8_t *tg = malloc((np + 2) * 16);
        for (size_t i = 0; i < np; i++) ref_value(planted[i], 5, tg + 16 * i);
        ref_value(start - 1, 5, tg + 16 * np);          /* just outside the range */
        ref_value(start + count, 5, tg + 16 * (np + 1));
        uint64_t m[16];
        size_t nm = 0;
        uint64_t done = 0;
        fpgamr_reset_stats(d);
        size_t nt = fpgamr_targets_sort(tg, np + 2);
        {   /* unsorted targets are refused: a set is sorted once, where it is made */
            uint8_t two[32];
            memcpy(two, tg + 16, 16);
            memcpy(two + 16, tg, 16);
            CHECK(fpgamr_search_range(d, start, count, 5, two, 2, m, 16, &nm, &done) == FPGAMR_EINVAL &&
                      strstr(fpgamr_last_error(d), "sorted"),
                  "unsorted targets: %s", fpgamr_last_error(d));
        }
        int rc = fpgamr_search_range(d, start, count, 5, tg, nt, m, 16, &nm, &done);
        CHECK(rc == 0, "search rc %d: %s", rc, fpgamr_last_error(d));
        CHECK(done == count, "values_done %llu", (unsigned long long)done);
        CHECK(nm == np, "nmatches %zu", nm);
        int all = 1;
        for (size_t i = 0; i < np && i < nm; i++) all &= m[i] == planted[i];
        CHECK(all, "matches are the planted values, in order");
        fpgamr_stats st;
        fpgamr_get_stats(d, &st);
        CHECK(st.batches == 4 && st.values == count, "stats batches %llu values %llu", (unsigned long long)st.batches,
              (unsigned long long)st.values);
        /* the thesis example in the 28-bit domain */
        uint8_t t1[16];
        ref_value(0x123, 4, t1);
        rc = fpgamr_search_range(d, 0, 10000, 4, t1, 1, m, 16, &nm, &done);
        CHECK(rc == 0 && nm == 1 && m[0] == 0x123 && done == 10000, "find 0x123: rc %d nm %zu", rc, nm);
        /* more matches than max_matches: total still counted */
        uint8_t *many = malloc(40 * 16);
        for (int i = 0; i < 40; i++) ref_value(1000 + (uint64_t)i * 3, 4, many + 16 * i);
        rc = fpgamr_search_range(d, 1000, 200, 4, many, fpgamr_targets_sort(many, 40), m, 16, &nm, &done);
        CHECK(rc == 0 && nm == 40 && done == 200 && m[0] == 1000 && m[15] == 1045, "truncated matches nm %zu", nm);
        free(many);
        free(tg);
    }

    fpgamr_close(d);

    /* after close the device can be opened again */
    d = fpgamr_open(spec, err, sizeof err);
    CHECK(d != NULL, "reopen: %s", err);

    /* an opener with wait_ms gets the device once its owner closes it */
    if (d) {
        waiter w;
        memset(&w, 0, sizeof w);
        snprintf(w.spec, sizeof w.spec, "%s,wait_ms=20000", spec);
        pthread_t th;
        pthread_create(&th, NULL, open_waiting, &w);
        struct timespec tick = {0, 1000000L}, held = {0, 300 * 1000000L};
        while (!atomic_load(&w.opening)) nanosleep(&tick, NULL);
        nanosleep(&held, NULL);   /* the opener's chance to get a device that is not free */
        CHECK(!atomic_load(&w.opened), "the opener returned while the owner held the device: rc %d: %s", w.rc, w.err);
        double t_close = now_ms();
        fpgamr_close(d);
        pthread_join(th, NULL);
        CHECK(w.dev != NULL && w.t_opened >= t_close, "waiting opener rc %d, %.0f ms after the owner's close: %s",
              w.rc, w.t_opened - t_close, w.err);
        if (w.dev) {
            uint8_t dig[16];
            static const uint8_t want[16] = {0x09, 0x68, 0x22, 0x47, 0x5d, 0xd5, 0x17, 0xc1,
                                             0x08, 0x9f, 0x4b, 0x58, 0xc7, 0xf3, 0x46, 0xef};
            CHECK(fpgamr_hash_range(w.dev, 0x123, 1, 4, dig, NULL) == 0 && memcmp(dig, want, 16) == 0,
                  "the waiter's device works");
            fpgamr_close(w.dev);
        }
    }

    /* many hits: a hash list hitting 3/4 of a batch (12,288 preimages in
     * 16,384 values, three times the 4096-record match ring): every match
     * comes through the ring drained while the device runs, nothing is
     * hashed twice (no fallback, one batch of device work) */
    {
        char spec2[256];
        snprintf(spec2, sizeof spec2, "vsim:pipelines=%u,batch=16384", p);
        d = fpgamr_open(spec2, err, sizeof err);
        CHECK(d != NULL, "open %s: %s", spec2, err);
        size_t nt = 12288;
        uint8_t *tg = malloc(nt * 16);
        uint64_t *want = malloc(nt * sizeof *want);
        for (size_t i = 0, v = 50000; i < nt; v++)
            if (v % 4 != 3) {
                want[i] = v;
                ref_value(v, 4, tg + 16 * i++);
            }
        uint64_t *m = malloc(nt * sizeof *m);
        size_t nm = 0;
        uint64_t done = 0;
        int rc = d ? fpgamr_search_range(d, 50000, 16384, 4, tg, fpgamr_targets_sort(tg, nt), m, nt, &nm, &done) : -1;
        fpgamr_stats st;
        memset(&st, 0, sizeof st);
        if (d) fpgamr_get_stats(d, &st);
        CHECK(rc == 0 && nm == nt && done == 16384, "many-hits search rc %d nm %zu: %s", rc, nm,
              d ? fpgamr_last_error(d) : "");
        int ok = 1;
        for (size_t i = 0; i < nm && i < nt; i++) ok &= m[i] == want[i];
        CHECK(ok, "many-hits matches exact, in order");
        CHECK(st.fallback_batches == 0 && st.batches == 1 && st.values == 16384 && st.filter_hits >= nt,
              "one batch of device work: batches %llu values %llu hits %llu fallback %llu",
              (unsigned long long)st.batches, (unsigned long long)st.values, (unsigned long long)st.filter_hits,
              (unsigned long long)st.fallback_batches);
        printf("many-hits batch: %llu filter hits through a %u-record ring, %llu device cycles for 16384 values\n",
               (unsigned long long)st.filter_hits, 4096u, (unsigned long long)st.device_cycles);
        free(m);
        free(want);
        free(tg);
        if (d) fpgamr_close(d);
    }

    /* without mhz= the modelled device time runs at the design's clock (CLOCK_KHZ) */
    {
        char spec3[64];
        snprintf(spec3, sizeof spec3, "vsim:pipelines=%u", p);
        d = fpgamr_open(spec3, err, sizeof err);
        fpgamr_dev_info info;
        CHECK(d && fpgamr_get_info(d, &info) == 0 && info.mhz == FPGAMR_CLOCK_MHZ, "design clock %g MHz",
              d ? info.mhz : 0.0);
        if (d) fpgamr_close(d);
    }

    test_faults(p);
    if (p == 1) test_wedge(p);  /* 5 s of the driver's stop: once */
    test_kernel_part(p);
    test_foreign_lock_file(p);

    /* a bad spec and a missing library */
    CHECK(fpgamr_open("pcie:0", err, sizeof err) == NULL, "bad spec");
    CHECK(fpgamr_open("vsim:pipelines=3,lib=/nonexistent/libx.so", err, sizeof err) == NULL && strstr(err, "cannot load"),
          "missing library: %s", err);

    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
