/* bus_vsim.c: the "vsim" bus: the Verilated accelerator in
 * libfpgamr-vsim-pN.so, loaded with dlopen. DMA buffers are page-aligned
 * host memory registered with the model at fake bus addresses. This bus
 * plays the kernel driver's part of register map 3 as well: user-page
 * registers only through rd/wr; a job is checked against this bus's own
 * buffers (width, alignment, ranges, idle: what FPGAMR_IOC_SUBMIT checks)
 * before the bus writes the kernel page and START; a buffer of the running
 * job is freed only after the device was stopped and seen idle. A device
 * that does not stop is wedged, as the kernel's: no more jobs; with
 * state=PATH the bus keeps that where the NodeManager reads it (the
 * simulated counterpart of the kernel's sysfs `state`: "wedged: REASON",
 * which the next opener honours too, until the NodeManager's reload of
 * the model writes "idle"). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "../vsim/fpgamr_vsim.h"
#include "fpgamr_bus.h"
#include "fpgamr_fpga.h"
#include "fpgamr_regs.h"

#define VSIM_BUFS 64
#define STOP_TIMEOUT_MS 5000  /* as the kernel driver's */

typedef struct vsim_ctx {
    uint64_t bufs[VSIM_BUFS];   /* bus addresses of this bus's buffers (0: free slot) */
    size_t buf_size[VSIM_BUFS];
    uint64_t job_src, job_dst;  /* the running job's buffers (bus addresses), 0: none */
    int job_live;
    uint32_t job_seq;           /* JOBS_STARTED once the device took its START */
    int wedged;
    char why[256];              /* a wedged device's state line, "wedged: REASON" */
    char state_path[4096];      /* state=: where the device's state is kept ("" : nowhere) */
    void *lib;
    fpgamr_vsim *v;
    int lock_fd;
    unsigned (*abi)(void);
    unsigned (*pipelines)(void);
    fpgamr_vsim *(*create)(const char *, char *, size_t);
    void (*destroy)(fpgamr_vsim *);
    uint32_t (*reg_read)(fpgamr_vsim *, uint32_t);
    void (*reg_write)(fpgamr_vsim *, uint32_t, uint32_t);
    int (*map)(fpgamr_vsim *, void *, uint64_t, uint64_t *);
    void (*unmap)(fpgamr_vsim *, uint64_t);
    int (*wait_irq)(fpgamr_vsim *, int);
    uint64_t (*api_ns)(fpgamr_vsim *);
} vsim_ctx;

static uint32_t v_rd(void *c, uint32_t off)
{
    vsim_ctx *x = c;
    return off < FPGAMR_USER_PAGE_BYTES ? x->reg_read(x->v, off) : 0;  /* the kernel page is not mapped */
}
static void v_wr(void *c, uint32_t off, uint32_t val)
{
    vsim_ctx *x = c;
    if (off < FPGAMR_USER_PAGE_BYTES) x->reg_write(x->v, off, val);
}

/* ---- the kernel driver's part ---------------------------------------------------- */
static int own_buf(const vsim_ctx *x, const fpgamr_dmabuf *b)
{
    if (!b) return 0;
    for (int i = 0; i < VSIM_BUFS; i++)
        if (x->bufs[i] && x->bufs[i] == b->bus && x->buf_size[i] == b->size) return 1;
    return 0;
}
/* [off, off + n * unit rounded up to whole beats) inside b */
static int in_buf(const fpgamr_dmabuf *b, uint64_t off, uint64_t n, uint64_t unit, uint64_t beat)
{
    if (n > (UINT64_MAX - beat) / unit) return 0;
    uint64_t bytes = (n * unit + beat - 1) / beat * beat;
    return off <= b->size && bytes <= b->size - off;
}
static int job_idle(vsim_ctx *x)
{
    if (x->job_live && x->reg_read(x->v, FPGAMR_REG_JOBS_STARTED) != x->job_seq) return 0;
    return !(x->reg_read(x->v, FPGAMR_REG_STATUS) & FPGAMR_STATUS_BUSY_MASK);
}
/* the device is wedged: its state line, as the kernel's sysfs `state` says
 * it ("wedged: REASON"), kept for the close's error and at state=, written
 * whole (a new file renamed over the old one) */
static void keep_wedged(vsim_ctx *x)
{
    x->wedged = 1;
    snprintf(x->why, sizeof x->why,
             "wedged: the device did not stop its job within %d ms (JOBS_STARTED 0x%08x of 0x%08x, STATUS 0x%08x)",
             STOP_TIMEOUT_MS, x->reg_read(x->v, FPGAMR_REG_JOBS_STARTED), x->job_seq, x->reg_read(x->v, FPGAMR_REG_STATUS));
    if (!x->state_path[0]) return;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.%ld", x->state_path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) return;  /* the process's own refusal still holds; the NodeManager then sees the job's failure */
    fprintf(f, "%s\n", x->why);
    if (fclose(f) != 0 || rename(tmp, x->state_path) != 0) unlink(tmp);
}
/* abort the running job and wait until the device is idle; 0, or -1 (the
 * device is wedged: its buffers are never freed) */
static int job_stop(vsim_ctx *x)
{
    if (!x->job_live) return 0;
    if (x->wedged) return -1;  /* waited once: its buffers stay, as the kernel's */
    if (x->reg_read(x->v, FPGAMR_REG_STATUS) & FPGAMR_STATUS_BUSY_MASK)
        x->reg_write(x->v, FPGAMR_REG_CTRL, FPGAMR_CTRL_ABORT_MASK);
    /* 5 s of the wall clock, as the kernel's readl_poll_timeout: a model that keeps ticking on a
     * loaded machine makes each 1 ms sleep much longer */
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (!job_idle(x)) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >= STOP_TIMEOUT_MS) {
            keep_wedged(x);
            return -1;
        }
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    x->job_live = 0;
    x->job_src = x->job_dst = 0;
    return 0;
}
static int v_submit(void *c, const fpgamr_job *j, char *err, size_t errlen)
{
    vsim_ctx *x = c;
    uint32_t params = x->reg_read(x->v, FPGAMR_REG_DESIGN_PARAMS);
    uint64_t beat = 1ull << ((params & FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >> FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT);
    unsigned minw = (params & FPGAMR_DESIGN_PARAMS_MIN_WIDTH_MASK) >> FPGAMR_DESIGN_PARAMS_MIN_WIDTH_SHIFT;
    unsigned maxw = (params & FPGAMR_DESIGN_PARAMS_MAX_WIDTH_MASK) >> FPGAMR_DESIGN_PARAMS_MAX_WIDTH_SHIFT;
    int search = j->op == FPGAMR_OP_SEARCH;
    const char *bad = NULL;
    if ((j->op != FPGAMR_OP_HASH && !search) || j->width < (int)minw || j->width > (int)maxw)
        bad = "op or width";
    else if (search ? (j->src || j->cap == 0 || j->dst_off % FPGAMR_MATCH_RECORD_BYTES)
                    : (j->cap || j->first || j->src_off % beat || j->dst_off % beat))
        bad = "alignment or fields of its op";
    else if (!own_buf(x, j->dst) || (!search && !own_buf(x, j->src)))
        bad = "a buffer not of this device";
    else if (search ? !in_buf(j->dst, j->dst_off, j->cap, FPGAMR_MATCH_RECORD_BYTES, beat)
                    : !in_buf(j->src, j->src_off, j->count, j->width > 4 ? 8 : 4, beat) ||
                          !in_buf(j->dst, j->dst_off, j->count, FPGAMR_DIGEST_BYTES, beat))
        bad = "a range outside its buffer";
    if (bad) {
        snprintf(err, errlen, "vsim: job refused as the kernel would: %s", bad);
        return FPGAMR_EINVAL;
    }
    if (x->wedged || !job_idle(x)) {
        snprintf(err, errlen, "vsim: job refused: the device %s", x->wedged ? "did not stop a job" : "is busy");
        return x->wedged ? FPGAMR_EIO : FPGAMR_EBUSY;
    }
    uint64_t src = search ? 0 : j->src->bus + j->src_off, dst = j->dst->bus + j->dst_off;
    x->reg_write(x->v, FPGAMR_REG_MODE, (uint32_t)j->op << FPGAMR_MODE_OP_SHIFT | (uint32_t)j->width << FPGAMR_MODE_WIDTH_SHIFT);
    x->reg_write(x->v, FPGAMR_REG_START_LO, (uint32_t)j->first);
    x->reg_write(x->v, FPGAMR_REG_START_HI, (uint32_t)(j->first >> 32));
    x->reg_write(x->v, FPGAMR_REG_COUNT_LO, (uint32_t)j->count);
    x->reg_write(x->v, FPGAMR_REG_COUNT_HI, (uint32_t)(j->count >> 32));
    x->reg_write(x->v, FPGAMR_REG_SRC_LO, (uint32_t)src);
    x->reg_write(x->v, FPGAMR_REG_SRC_HI, (uint32_t)(src >> 32));
    x->reg_write(x->v, FPGAMR_REG_DST_LO, (uint32_t)dst);
    x->reg_write(x->v, FPGAMR_REG_DST_HI, (uint32_t)(dst >> 32));
    x->reg_write(x->v, FPGAMR_REG_MATCH_CAP, j->cap);
    x->job_seq = x->reg_read(x->v, FPGAMR_REG_JOBS_STARTED) + 1;
    x->reg_write(x->v, FPGAMR_REG_CTRL, FPGAMR_CTRL_START_MASK);
    x->job_live = 1;
    x->job_src = search ? 0 : j->src->bus;
    x->job_dst = j->dst->bus;
    return 0;
}
static void v_abort(void *c)
{
    vsim_ctx *x = c;
    if (x->job_live) x->reg_write(x->v, FPGAMR_REG_CTRL, FPGAMR_CTRL_ABORT_MASK);
}
static int v_alloc(void *c, size_t size, fpgamr_dmabuf *b)
{
    vsim_ctx *x = c;
    size_t span = (size + 4095) & ~(size_t)4095;
    void *p = aligned_alloc(4096, span);
    if (!p) return FPGAMR_ENOMEM;
    memset(p, 0, span);
    int slot = 0;
    while (slot < VSIM_BUFS && x->bufs[slot]) slot++;
    if (slot == VSIM_BUFS || x->map(x->v, p, span, &b->bus) != 0) {
        free(p);
        return FPGAMR_ENOMEM;
    }
    x->bufs[slot] = b->bus;
    x->buf_size[slot] = span;
    b->host = p;
    b->size = span;
    b->handle = (uint32_t)slot + 1;
    return 0;
}
static void v_free(void *c, fpgamr_dmabuf *b)
{
    vsim_ctx *x = c;
    if (!b->host) return;
    /* the device stops before the memory of its job goes back */
    if (x->job_live && (b->bus == x->job_src || b->bus == x->job_dst) && job_stop(x) != 0) {
        memset(b, 0, sizeof *b);  /* wedged: leaked, never reused */
        return;
    }
    for (int i = 0; i < VSIM_BUFS; i++)
        if (x->bufs[i] == b->bus) x->bufs[i] = 0;
    x->unmap(x->v, b->bus);
    free(b->host);
    memset(b, 0, sizeof *b);
}
static int v_sync(void *c, fpgamr_dmabuf *b, int for_cpu, int dir, size_t off, size_t len)
{
    (void)c; (void)b; (void)for_cpu; (void)dir; (void)off; (void)len;
    return 0;  /* host memory: coherent */
}
static int v_wait(void *c, int timeout_ms)
{
    vsim_ctx *x = c;
    return x->wait_irq(x->v, timeout_ms);
}
static void v_irq_done(void *c) { (void)c; }
static uint64_t v_sim_ns(void *c)
{
    vsim_ctx *x = c;
    return x->api_ns(x->v);
}
static int v_wedged(void *c, char *why, size_t len)
{
    vsim_ctx *x = c;
    if (x->wedged) snprintf(why, len, "%s", x->why);
    return x->wedged;
}
static void v_close(void *c)
{
    vsim_ctx *x = c;
    if (x->v) {  /* stopped, or its clock with it: no DMA after this */
        job_stop(x);
        x->destroy(x->v);
    }
    if (x->lib) dlclose(x->lib);
    if (x->lock_fd >= 0) close(x->lock_fd);
    free(x);
}

static void *try_open(const char *dir, const char *name, char *tried, size_t tlen)
{
    char path[4096];
    int n = (dir && *dir) ? snprintf(path, sizeof path, "%s/%s", dir, name) : snprintf(path, sizeof path, "%s", name);
    if (n < 0 || (size_t)n >= sizeof path) return NULL;
    size_t l = strlen(tried);
    if (l + 2 < tlen && snprintf(tried + l, tlen - l, "%s%s", l ? ", " : "", path) < 0) tried[l] = 0;
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* the simulated device's memory is the model's: no port or bridge to read */
static void v_diagnose(void *c, char *buf, size_t len)
{
    (void)c;
    snprintf(buf, len, "a simulated device has no FPGA-to-SDRAM port or bridges to read: the design or its memory did not answer");
}

/* this bus plays the kernel, whose page holds ERR_ADDR */
static int v_err_addr(void *c, uint64_t *addr)
{
    vsim_ctx *x = c;
    *addr = x->reg_read(x->v, FPGAMR_REG_ERR_ADDR_LO) | (uint64_t)x->reg_read(x->v, FPGAMR_REG_ERR_ADDR_HI) << 32;
    return 1;
}

static const fpgamr_bus vsim_ops = {
    .name = "vsim",
    .timeout_ms = 120000,  /* a simulator is slow, and shares 2 cores */
    .rd = v_rd,
    .wr = v_wr,
    .submit = v_submit,
    .abort = v_abort,
    .dma_alloc = v_alloc,
    .dma_free = v_free,
    .dma_sync = v_sync,
    .wait_irq = v_wait,
    .irq_done = v_irq_done,
    .diagnose = v_diagnose,
    .err_addr = v_err_addr,
    .sim_ns = v_sim_ns,
    .wedged = v_wedged,
    .close = v_close,
};

/* the model library: lib=, else libfpgamr-vsim-pN.so in $FPGAMR_VSIM_DIR,
 * beside the library holding this driver, or on the loader path */
static void *open_model(const char *spec, const char *name, char *tried, size_t tlen)
{
    char val[4096];
    if (fpgamr_opt(spec, "lib", val, sizeof val)) return try_open(NULL, val, tried, tlen);
    void *lib = NULL;
    const char *env = getenv("FPGAMR_VSIM_DIR");
    if (env && *env) lib = try_open(env, name, tried, tlen);
    Dl_info di;
    if (!lib && dladdr((void *)&fpgamr_bus_vsim_open, &di) && di.dli_fname) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", di.dli_fname);
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = 0;
            lib = try_open(dir, name, tried, tlen);
        }
    }
    return lib ? lib : try_open(NULL, name, tried, tlen);
}

int fpgamr_bus_vsim_open(const char *spec, fpgamr_bus *bus, char *err, size_t errlen)
{
    char val[64], name[64], tried[2048] = "";
    unsigned n = 1;
    if (fpgamr_opt(spec, "pipelines", val, sizeof val)) n = (unsigned)strtoul(val, NULL, 0);
    if (n < 1 || n > 64) return fpgamr_bus_fail(NULL, NULL, FPGAMR_EINVAL, err, errlen, "vsim: bad pipelines=%u", n);
    vsim_ctx *x = calloc(1, sizeof *x);
    if (!x) return FPGAMR_ENOMEM;
    x->lock_fd = -1;

    /* ownership: one process per simulated device */
    char lockpath[4096];
    if (!fpgamr_opt(spec, "lock", lockpath, sizeof lockpath)) {
        const char *tmp = getenv("TMPDIR");
        snprintf(lockpath, sizeof lockpath, "%s/fpgamr-vsim-p%u.lock", tmp && *tmp ? tmp : "/tmp", n);
    }
    /* read-only: flock needs no more, so a lock file another user made (0644 by umask: root's speed
     * profile, then the containers' user) is still this device's lock; O_CREAT only when missing, as
     * fs.protected_regular refuses it on another user's file in a sticky /tmp */
    x->lock_fd = open(lockpath, O_RDONLY | O_CLOEXEC);
    if (x->lock_fd < 0 && errno == ENOENT) x->lock_fd = open(lockpath, O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
    if (x->lock_fd < 0)
        return fpgamr_bus_fail(v_close, x, FPGAMR_ENODEV, err, errlen, "vsim: cannot open lock file %s: %s", lockpath,
                               strerror(errno));
    int rc = fpgamr_bus_lock(x->lock_fd, spec, "vsim", lockpath, err, errlen);
    if (rc) {
        v_close(x);
        return rc;
    }

    /* a device its last owner left wedged takes no job until the model is reloaded */
    if (fpgamr_opt(spec, "state", x->state_path, sizeof x->state_path)) {
        FILE *f = fopen(x->state_path, "r");
        if (f) {
            if (!fgets(x->why, sizeof x->why, f)) x->why[0] = 0;
            fclose(f);
        }
        x->why[strcspn(x->why, "\n")] = 0;
        x->wedged = strncmp(x->why, "wedged", 6) == 0;
    }

    snprintf(name, sizeof name, "libfpgamr-vsim-p%u.so", n);
    x->lib = open_model(spec, name, tried, sizeof tried);
    if (!x->lib)
        return fpgamr_bus_fail(v_close, x, FPGAMR_ENODEV, err, errlen, "vsim: cannot load %s (tried %s): %s", name, tried,
                               dlerror());
#define SYM(field, sym)                                                                                   \
    do {                                                                                                  \
        *(void **)(&x->field) = dlsym(x->lib, sym);                                                       \
        if (!x->field) return fpgamr_bus_fail(v_close, x, FPGAMR_ENODEV, err, errlen, "vsim: %s lacks %s", name, sym); \
    } while (0)
    SYM(abi, "fpgamr_vsim_abi");
    SYM(pipelines, "fpgamr_vsim_pipelines");
    SYM(create, "fpgamr_vsim_create");
    SYM(destroy, "fpgamr_vsim_destroy");
    SYM(reg_read, "fpgamr_vsim_reg_read");
    SYM(reg_write, "fpgamr_vsim_reg_write");
    SYM(map, "fpgamr_vsim_map");
    SYM(unmap, "fpgamr_vsim_unmap");
    SYM(wait_irq, "fpgamr_vsim_wait_irq");
    SYM(api_ns, "fpgamr_vsim_api_ns");
#undef SYM
    if (x->abi() != FPGAMR_VSIM_ABI || x->pipelines() != n)
        return fpgamr_bus_fail(v_close, x, FPGAMR_ENODEV, err, errlen,
                               "vsim: %s has ABI %u and %u pipelines, want ABI %u and %u", name, x->abi(), x->pipelines(),
                               FPGAMR_VSIM_ABI, n);
    x->v = x->create(spec, err, errlen);
    if (!x->v) {
        v_close(x);
        return FPGAMR_ENODEV;
    }
    fpgamr_bus_setup(bus, &vsim_ops, x, spec);
    return 0;
}
