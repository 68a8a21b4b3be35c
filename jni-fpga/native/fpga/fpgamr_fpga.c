/* fpgamr_fpga.c: driver of the fpgamr MD5 accelerator, common to the uio and
 * vsim buses (see fpgamr_fpga.h). Batches of dev->batch values; two batches
 * in flight with ping-pong buffers; completion by interrupt with a timeout;
 * the design id and register-map version are checked at open. Jobs go to
 * the bus by buffer (fpgamr_bus.h: the kernel, or the vsim bus in its place,
 * checks them and programs the kernel page of register map 3); this driver
 * reads and writes only the user page. The AXI data
 * bus width comes from DESIGN_PARAMS.LOG2_BUS_BYTES (16, 32 or 64 bytes):
 * SRC/DST alignment, DMA buffer sizes (whole beats: the device reads the
 * last message beat whole) and the batch size (a multiple of the digests per
 * beat, so each batch's digests start bus-aligned in a zero-copy buffer). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>

#include "fpgamr_bus.h"
#include "fpgamr_fpga.h"
#include "fpgamr_regs.h"
#include "fpgamr_targets.h"

#define DEFAULT_BATCH ((uint64_t)FPGAMR_BATCH_VALUES)
#define MATCH_CAP 4096u   /* records per match ring (regmap 2.0: drained while the device runs) */
#define FILTER_TOTAL_WORDS (FPGAMR_FILTER_ARRAYS * FPGAMR_FILTER_WORDS)
#define USER_BUFS 8

struct fpgamr_dev {
    fpgamr_bus bus;
    unsigned npipe, minw, maxw;
    size_t bus_bytes;               /* AXI data beat: 2^LOG2_BUS_BYTES */
    uint32_t params, version;
    int timeout_ms;
    uint64_t batch;
    fpgamr_dmabuf in[2], out[2], mbuf[2];
    fpgamr_dmabuf user[USER_BUFS];  /* fpgamr_dma_alloc: the caller's zero-copy buffers */
    uint32_t filter[FILTER_TOTAL_WORDS];
    int filter_loaded;
    fpgamr_stats st;
    double t_host0;
    uint64_t sim0;
    char err[512];
};

typedef struct job_result {
    uint32_t status;
    uint32_t match_count;
    uint64_t done;
    uint64_t cycles;
} job_result;

/* ------------------------------------------------------------------ utils */
int fpgamr_opt(const char *opts, const char *key, char *val, size_t vallen)
{
    size_t kl = strlen(key);
    if (!opts) return 0;
    for (const char *p = opts; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
            size_t vl = len - kl - 1;
            if (vl >= vallen) vl = vallen - 1;
            memcpy(val, p + kl + 1, vl);
            val[vl] = 0;
            return 1;
        }
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the flock, waiting up to wait_ms: 0, FPGAMR_EBUSY (*waited_ms: how long)
 * or FPGAMR_ENODEV */
static int lock_device(int fd, const char *opts, long *waited_ms)
{
    char val[32];
    long wait = 0;
    if (fpgamr_opt(opts, "wait_ms", val, sizeof val)) wait = strtol(val, NULL, 0);
    double t0 = now_s();
    *waited_ms = 0;
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
        if (errno == EINTR) continue;
        if (errno != EWOULDBLOCK) return FPGAMR_ENODEV;
        long spent = (long)(1e3 * (now_s() - t0));
        *waited_ms = spent;
        if (spent >= wait) return FPGAMR_EBUSY;
        long nap = wait - spent < 20 ? wait - spent : 20;  /* poll every 20 ms */
        struct timespec ts = {0, nap * 1000000L};
        nanosleep(&ts, NULL);
    }
}

int fpgamr_bus_lock(int fd, const char *opts, const char *bus, const char *what, char *err, size_t errlen)
{
    long waited = 0;
    int rc = lock_device(fd, opts, &waited);
    if (rc == FPGAMR_EBUSY && waited > 0)
        snprintf(err, errlen, "%s: device busy: %s is locked by another opener (waited %ld ms)", bus, what, waited);
    else if (rc == FPGAMR_EBUSY)
        snprintf(err, errlen, "%s: device busy: %s is locked by another opener", bus, what);
    else if (rc)
        snprintf(err, errlen, "%s: cannot lock %s: %s", bus, what, strerror(errno));
    return rc;
}

void fpgamr_bus_err_where(const fpgamr_bus *bus, char *buf, size_t len)
{
    uint64_t a;
    if (bus->err_addr(bus->ctx, &a))
        snprintf(buf, len, "at bus address 0x%llx", (unsigned long long)a);
    else
        snprintf(buf, len, "(its bus address: in the kernel's log, from fpgamr.ko)");
}

int fpgamr_bus_fail(void (*close)(void *ctx), void *ctx, int rc, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    if (close) close(ctx);
    return rc;
}

void fpgamr_bus_setup(fpgamr_bus *bus, const fpgamr_bus *ops, void *ctx, const char *opts)
{
    char val[32];
    *bus = *ops;
    bus->ctx = ctx;
    bus->mhz = 50.0;
    if (fpgamr_opt(opts, "mhz", val, sizeof val)) bus->mhz = strtod(val, NULL);
}

/* host time outside the simulator: wall time minus time inside vsim calls */
static void host_begin(fpgamr_dev *d)
{
    d->t_host0 = now_s();
    d->sim0 = d->bus.sim_ns(d->bus.ctx);
}
static double host_end(fpgamr_dev *d)
{
    double dt = now_s() - d->t_host0 - 1e-9 * (double)(d->bus.sim_ns(d->bus.ctx) - d->sim0);
    if (dt < 0) dt = 0;
    d->st.host_seconds += dt;
    return dt;
}

static uint32_t rd(fpgamr_dev *d, uint32_t off) { return d->bus.rd(d->bus.ctx, off); }
static void wr(fpgamr_dev *d, uint32_t off, uint32_t v) { d->bus.wr(d->bus.ctx, off, v); }
static uint64_t rd64(fpgamr_dev *d, uint32_t off)
{
    uint64_t lo = rd(d, off);
    return lo | (uint64_t)rd(d, off + 4) << 32;
}

const char *fpgamr_strerror(int rc)
{
    switch (rc) {
    case FPGAMR_OK: return "ok";
    case FPGAMR_EINVAL: return "invalid argument";
    case FPGAMR_EBUSY: return "device busy (owned by another opener)";
    case FPGAMR_ENODEV: return "no such device";
    case FPGAMR_ENOMEM: return "out of memory";
    case FPGAMR_EIO: return "device error";
    case FPGAMR_ETIMEDOUT: return "timed out";
    default: return "unknown error";
    }
}

const char *fpgamr_last_error(fpgamr_dev *dev) { return dev ? dev->err : ""; }

static int fail(fpgamr_dev *d, int rc, const char *msg)
{
    snprintf(d->err, sizeof d->err, "%s", msg);
    return rc;
}

/* ------------------------------------------------------------------ open/close */
fpgamr_dev *fpgamr_open_rc(const char *spec, int *rcp, char *err, size_t errlen)
{
    char dummy[8];
    int rc;
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = 0;
    if (!spec) spec = "";
    fpgamr_dev *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        if (rcp) *rcp = FPGAMR_ENOMEM;
        return NULL;
    }
    if (strncmp(spec, "vsim:", 5) == 0 || strcmp(spec, "vsim") == 0) {
        rc = fpgamr_bus_vsim_open(spec[4] ? spec + 5 : "", &d->bus, err, errlen);
    } else if (strncmp(spec, "uio:", 4) == 0) {
        rc = fpgamr_bus_uio_open(spec + 4, &d->bus, err, errlen);
    } else {
        snprintf(err, errlen, "unknown device spec '%s' (want uio:/dev/uioN or vsim:pipelines=N)", spec);
        rc = FPGAMR_EINVAL;
    }
    if (rc != 0) {
        free(d);
        if (rcp) *rcp = rc;
        return NULL;
    }
    const char *opts = strchr(spec, ':') ? strchr(spec, ':') + 1 : "";
    char val[64];
    d->timeout_ms = d->bus.timeout_ms;
    if (fpgamr_opt(opts, "timeout_ms", val, sizeof val)) d->timeout_ms = atoi(val);
    d->batch = DEFAULT_BATCH;
    if (fpgamr_opt(opts, "batch", val, sizeof val)) d->batch = strtoull(val, NULL, 0);
    if (d->batch < 1 || d->batch > (1u << 24)) d->batch = DEFAULT_BATCH;

    uint32_t id = rd(d, FPGAMR_REG_DESIGN_ID);
    d->version = rd(d, FPGAMR_REG_REGMAP_VERSION);
    d->params = rd(d, FPGAMR_REG_DESIGN_PARAMS);
    rc = 0;
    if (id != FPGAMR_DESIGN_ID) {
        snprintf(err, errlen, "%s: design id 0x%08x, not an fpgamr MD5 accelerator (0x%08x)", d->bus.name, id,
                 FPGAMR_DESIGN_ID);
        rc = FPGAMR_ENODEV;
    } else if ((d->version >> 16) != FPGAMR_REGMAP_MAJOR || (d->version & 0xFFFF) < FPGAMR_REGMAP_MINOR) {
        /* a lower minor lacks what this release relies on (3.1: an ABORT that always ends the job) */
        snprintf(err, errlen, "%s: register map version %u.%u, driver speaks %u.%u or a later %u.x", d->bus.name,
                 d->version >> 16, d->version & 0xFFFF, FPGAMR_REGMAP_MAJOR, FPGAMR_REGMAP_MINOR, FPGAMR_REGMAP_MAJOR);
        rc = FPGAMR_ENODEV;
    } else if (!(d->params & FPGAMR_DESIGN_PARAMS_MODE_HASH_MASK) || !(d->params & FPGAMR_DESIGN_PARAMS_MODE_SEARCH_MASK)) {
        snprintf(err, errlen, "%s: design lacks the hash or search path (params 0x%08x)", d->bus.name, d->params);
        rc = FPGAMR_ENODEV;
    } else {
        unsigned lb = (d->params & FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >> FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT;
        if (lb < 4 || lb > 6) {
            snprintf(err, errlen, "%s: unsupported data bus of 2^%u bytes (params 0x%08x)", d->bus.name, lb, d->params);
            rc = FPGAMR_ENODEV;
        }
        d->bus_bytes = (size_t)1 << lb;
    }
    if (rc != 0) {
        d->bus.close(d->bus.ctx);
        free(d);
        if (rcp) *rcp = rc;
        return NULL;
    }
    d->npipe = (d->params & FPGAMR_DESIGN_PARAMS_PIPELINES_MASK) >> FPGAMR_DESIGN_PARAMS_PIPELINES_SHIFT;
    d->minw = (d->params & FPGAMR_DESIGN_PARAMS_MIN_WIDTH_MASK) >> FPGAMR_DESIGN_PARAMS_MIN_WIDTH_SHIFT;
    d->maxw = (d->params & FPGAMR_DESIGN_PARAMS_MAX_WIDTH_MASK) >> FPGAMR_DESIGN_PARAMS_MAX_WIDTH_SHIFT;
    {   /* whole beats of digests per batch */
        uint64_t dpb = d->bus_bytes / 16;
        d->batch = (d->batch + dpb - 1) / dpb * dpb;
    }
    /* the modelled device time runs at the clock the design was built for,
     * unless the spec says mhz= */
    if (!fpgamr_opt(opts, "mhz", val, sizeof val)) {
        uint32_t khz = rd(d, FPGAMR_REG_CLOCK_KHZ);
        if (khz) d->bus.mhz = khz / 1e3;
    }
    /* a clean slate: no stale interrupt, the line unmasked (a process killed
     * mid-job never acknowledged its interrupt, and the kernel keeps the line
     * masked until someone does), interrupts on */
    wr(d, FPGAMR_REG_IRQ_STATUS,
       FPGAMR_IRQ_STATUS_DONE_MASK | FPGAMR_IRQ_STATUS_ERROR_MASK | FPGAMR_IRQ_STATUS_MATCH_MASK);
    d->bus.irq_done(d->bus.ctx);
    wr(d, FPGAMR_REG_IRQ_ENABLE,
       FPGAMR_IRQ_ENABLE_DONE_MASK | FPGAMR_IRQ_ENABLE_ERROR_MASK | FPGAMR_IRQ_ENABLE_MATCH_MASK);
    if (rcp) *rcp = 0;
    return d;
}

fpgamr_dev *fpgamr_open(const char *spec, char *err, size_t errlen) { return fpgamr_open_rc(spec, NULL, err, errlen); }

void fpgamr_close(fpgamr_dev *d) { (void)fpgamr_close_rc(d, NULL, 0); }

int fpgamr_close_rc(fpgamr_dev *d, char *err, size_t errlen)
{
    if (!d) return 0;
    if (rd(d, FPGAMR_REG_STATUS) & FPGAMR_STATUS_BUSY_MASK) {
        d->bus.abort(d->bus.ctx);
        for (int i = 0; i < 100 && (rd(d, FPGAMR_REG_STATUS) & FPGAMR_STATUS_BUSY_MASK); i++) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    wr(d, FPGAMR_REG_IRQ_ENABLE, 0);
    for (int i = 0; i < USER_BUFS; i++) d->bus.dma_free(d->bus.ctx, &d->user[i]);
    for (int i = 0; i < 2; i++) {
        d->bus.dma_free(d->bus.ctx, &d->in[i]);
        d->bus.dma_free(d->bus.ctx, &d->out[i]);
        d->bus.dma_free(d->bus.ctx, &d->mbuf[i]);
    }
    /* the frees stopped the device's job, within the driver's stop timeout, or left it wedged */
    char why[256];
    int rc = d->bus.wedged(d->bus.ctx, why, sizeof why) ? FPGAMR_EIO : 0;
    if (rc && err && errlen) snprintf(err, errlen, "%s: %s", d->bus.name, why);
    d->bus.close(d->bus.ctx);
    free(d);
    return rc;
}

int fpgamr_get_info(fpgamr_dev *d, fpgamr_dev_info *info)
{
    if (!d || !info) return FPGAMR_EINVAL;
    memset(info, 0, sizeof *info);
    info->pipelines = d->npipe;
    info->min_width = d->minw;
    info->max_width = d->maxw;
    info->design_params = d->params;
    info->regmap_version = d->version;
    info->mhz = d->bus.mhz;
    snprintf(info->bus, sizeof info->bus, "%s", d->bus.name);
    return 0;
}

/* size rounded up to whole bus beats */
static size_t bus_round(const fpgamr_dev *d, size_t size) { return (size + d->bus_bytes - 1) & ~(d->bus_bytes - 1); }

void *fpgamr_dma_alloc(fpgamr_dev *d, size_t size)
{
    if (!d || size == 0) return NULL;
    size = bus_round(d, size);  /* the last beat is written with strobes, but it must exist */
    for (int i = 0; i < USER_BUFS; i++) {
        if (d->user[i].host) continue;
        if (d->bus.dma_alloc(d->bus.ctx, size, &d->user[i]) != 0) {
            snprintf(d->err, sizeof d->err, "%s: cannot allocate %zu bytes of DMA memory", d->bus.name, size);
            return NULL;
        }
        memset(d->user[i].host, 0, d->user[i].size);
        return d->user[i].host;
    }
    snprintf(d->err, sizeof d->err, "all %d caller DMA buffers are in use", USER_BUFS);
    return NULL;
}

void fpgamr_dma_free(fpgamr_dev *d, void *host)
{
    if (!d || !host) return;
    for (int i = 0; i < USER_BUFS; i++)
        if (d->user[i].host == host) d->bus.dma_free(d->bus.ctx, &d->user[i]);
}

/* the caller's DMA buffer holding [p, p+len) rounded up to whole bus beats,
 * p bus-aligned, or NULL */
static fpgamr_dmabuf *user_buf(fpgamr_dev *d, const uint8_t *p, size_t len)
{
    if (((uintptr_t)p & (d->bus_bytes - 1)) != 0) return NULL;
    len = bus_round(d, len);
    for (int i = 0; i < USER_BUFS; i++) {
        const uint8_t *h = d->user[i].host;
        if (h && p >= h && len <= d->user[i].size && (size_t)(p - h) <= d->user[i].size - len) return &d->user[i];
    }
    return NULL;
}

void fpgamr_get_stats(fpgamr_dev *d, fpgamr_stats *st)
{
    if (d && st) *st = d->st;
}
void fpgamr_reset_stats(fpgamr_dev *d)
{
    if (d) memset(&d->st, 0, sizeof d->st);
}

/* ------------------------------------------------------------------ jobs */
/* a job by buffer: the bus checks it and starts the device */
static int start_job(fpgamr_dev *d, int op, int width, uint64_t start, uint64_t count, fpgamr_dmabuf *src,
                     size_t src_off, fpgamr_dmabuf *dst, size_t dst_off, uint32_t cap)
{
    fpgamr_job j = {op, width, start, count, src, src_off, dst, dst_off, cap};
    return d->bus.submit(d->bus.ctx, &j, d->err, sizeof d->err);
}

/* A search job's match ring (regmap 2.0): record i at DST + 32 * (i % cap);
 * the device never runs more than cap records ahead of MATCH_ACK, so the
 * host drains it while the job runs, on MATCH interrupts, and once more
 * after DONE. */
typedef struct match_ring match_ring;
static void ring_drain(fpgamr_dev *d, match_ring *g, uint32_t upto, int ack);

/* no interrupt ended the job (w: the wait's 0 or error): abort it, and say
 * what was found: a job the device finished lost its interrupt; one it did
 * not finish is a DMA that did not complete, named by the bus (the port, the
 * bridges) */
static int job_timed_out(fpgamr_dev *d, int w)
{
    uint32_t status = rd(d, FPGAMR_REG_STATUS);
    char why[384];
    if (status & FPGAMR_STATUS_DONE_MASK)
        snprintf(why, sizeof why, "the device finished the job (STATUS.DONE) but its interrupt did not arrive");
    else
        d->bus.diagnose(d->bus.ctx, why, sizeof why);
    d->bus.abort(d->bus.ctx);
    d->bus.wait_irq(d->bus.ctx, d->timeout_ms);
    wr(d, FPGAMR_REG_IRQ_STATUS, FPGAMR_IRQ_STATUS_DONE_MASK | FPGAMR_IRQ_STATUS_ERROR_MASK);
    d->bus.irq_done(d->bus.ctx);
    snprintf(d->err, sizeof d->err, "%s: no interrupt within %d ms (status 0x%08x); job aborted: %s", d->bus.name,
             d->timeout_ms, status, why);
    return w < 0 ? FPGAMR_EIO : FPGAMR_ETIMEDOUT;
}

/* wait for the interrupt that ends the running job (draining its match ring
 * on the MATCH interrupts before it, when ring is given), then read and
 * clear its status */
static int wait_job(fpgamr_dev *d, job_result *r, match_ring *ring)
{
    int w;
    while ((w = d->bus.wait_irq(d->bus.ctx, d->timeout_ms)) > 0 && ring) {
        uint32_t sts = rd(d, FPGAMR_REG_IRQ_STATUS);
        if (sts & (FPGAMR_IRQ_STATUS_DONE_MASK | FPGAMR_IRQ_STATUS_ERROR_MASK)) break;
        ring_drain(d, ring, rd(d, FPGAMR_REG_MATCH_COUNT), 1);
        wr(d, FPGAMR_REG_IRQ_STATUS, FPGAMR_IRQ_STATUS_MATCH_MASK);
        d->bus.irq_done(d->bus.ctx);
    }
    if (w <= 0) return job_timed_out(d, w);
    r->status = rd(d, FPGAMR_REG_STATUS);
    r->done = rd64(d, FPGAMR_REG_DONE_LO);
    r->cycles = rd64(d, FPGAMR_REG_CYCLES_LO);
    r->match_count = rd(d, FPGAMR_REG_MATCH_COUNT);
    wr(d, FPGAMR_REG_IRQ_STATUS,
       FPGAMR_IRQ_STATUS_DONE_MASK | FPGAMR_IRQ_STATUS_ERROR_MASK | FPGAMR_IRQ_STATUS_MATCH_MASK);
    d->bus.irq_done(d->bus.ctx);
    if (r->status & FPGAMR_STATUS_ERROR_MASK) {
        char where[96];
        fpgamr_bus_err_where(&d->bus, where, sizeof where);
        unsigned code = (r->status & FPGAMR_STATUS_ERR_CODE_MASK) >> FPGAMR_STATUS_ERR_CODE_SHIFT;
        static const char *names[] = {"none", "read response error", "write response error", "bad width",
                                      "bad alignment", "no match ring"};
        snprintf(d->err, sizeof d->err, "%s: device error %u (%s) %s after %llu values", d->bus.name, code,
                 code < 6 ? names[code] : "?", where, (unsigned long long)r->done);
        return FPGAMR_EIO;
    }
    if (!(r->status & FPGAMR_STATUS_DONE_MASK)) {
        snprintf(d->err, sizeof d->err, "%s: interrupt without DONE (status 0x%08x)", d->bus.name, r->status);
        return FPGAMR_EIO;
    }
    d->st.device_cycles += r->cycles;
    d->st.device_seconds += (double)r->cycles / (d->bus.mhz * 1e6);
    d->st.last_batch_cycles = r->cycles;
    return 0;
}

/* Waits for batch k (from 0; messages count from 1), then starts the host's time on it; an error ends that
 * host time. What the batch did is the device's own count (r->done), which
 * the callers report: a batch that did fewer than the `expected` values it
 * was given is no error here but counted (short_batches) and described in
 * the last error, and shows as fewer values done. */
static int finish_batch(fpgamr_dev *d, job_result *r, uint64_t k, uint64_t expected, const char *verb,
                        match_ring *ring)
{
    int rc = wait_job(d, r, ring);
    host_begin(d);
    if (rc) {
        host_end(d);
        return rc;
    }
    if (r->done > expected) r->done = expected;  /* never count more than was asked */
    if (r->done != expected) {
        d->st.short_batches++;
        snprintf(d->err, sizeof d->err, "batch %llu: device %s %llu of %llu values", (unsigned long long)k + 1, verb,
                 (unsigned long long)r->done, (unsigned long long)expected);
    }
    return 0;
}

/* a batch ended: the values the device counted and the host's time on it */
static void count_batch(fpgamr_dev *d, uint64_t values, double host_seconds)
{
    d->st.batches++;
    d->st.values += values;
    d->st.last_batch_values = values;
    d->st.last_batch_host_seconds = host_seconds;
    if (host_seconds > d->st.max_batch_host_seconds) d->st.max_batch_host_seconds = host_seconds;
}

static int ensure_buf(fpgamr_dev *d, fpgamr_dmabuf *b, size_t size)
{
    if (b->host && b->size >= size) return 0;
    d->bus.dma_free(d->bus.ctx, b);
    int rc = d->bus.dma_alloc(d->bus.ctx, size, b);
    if (rc) snprintf(d->err, sizeof d->err, "%s: cannot allocate %zu bytes of DMA memory", d->bus.name, size);
    return rc;
}

static int check_width(fpgamr_dev *d, int width)
{
    if (width < (int)d->minw || width > (int)d->maxw) {
        snprintf(d->err, sizeof d->err, "width %d outside the device's %u..%u bytes", width, d->minw, d->maxw);
        return FPGAMR_EINVAL;
    }
    return 0;
}

/* messages start..start+n-1 in width bytes, big-endian, 4- or 8-byte slots */
static void fill_messages(void *dst, uint64_t start, uint64_t n, int width)
{
    if (width <= 4) {
        uint32_t *p = dst;
        unsigned sh = 8u * (4u - (unsigned)width);
        for (uint64_t i = 0; i < n; i++) p[i] = __builtin_bswap32((uint32_t)((start + i) << sh));
    } else {
        uint64_t *p = dst;
        unsigned sh = 8u * (8u - (unsigned)width);
        for (uint64_t i = 0; i < n; i++) p[i] = __builtin_bswap64((start + i) << sh);
    }
}

/* ------------------------------------------------------------------ hash path */
/* Where batch k's digests go: the caller's DMA buffer (zero copy) or the
 * driver's ping-pong output buffer (copied to the caller afterwards). */
typedef struct hash_dst {
    fpgamr_dmabuf *buf;
    size_t off;
} hash_dst;

static hash_dst batch_dst(fpgamr_dev *d, fpgamr_dmabuf *ub, const uint8_t *out, uint64_t k, int slot)
{
    hash_dst h;
    if (ub) {
        h.buf = ub;
        h.off = (size_t)(out - (const uint8_t *)ub->host) + (size_t)(k * d->batch * 16);
    } else {
        h.buf = &d->out[slot];
        h.off = 0;
    }
    return h;
}

int fpgamr_hash_range(fpgamr_dev *d, uint64_t start, uint64_t count, int width, uint8_t *digests_out,
                      uint64_t *values_done)
{
    if (values_done) *values_done = 0;
    if (!d) return FPGAMR_EINVAL;
    int rc = check_width(d, width);
    if (rc) return rc;
    if (count == 0) return 0;
    if (!digests_out) return fail(d, FPGAMR_EINVAL, "digests_out is NULL");
    if (count > SIZE_MAX / 16) return fail(d, FPGAMR_EINVAL, "count too large");
    double t0 = now_s();
    uint64_t B = d->batch;
    size_t slot = width > 4 ? 8 : 4;
    fpgamr_dmabuf *ub = user_buf(d, digests_out, (size_t)count * 16);
    for (int i = 0; i < 2; i++) {
        if ((rc = ensure_buf(d, &d->in[i], bus_round(d, (size_t)B * 8))) ||
            (!ub && (rc = ensure_buf(d, &d->out[i], bus_round(d, (size_t)B * 16)))))
            return rc;
    }
    uint64_t nb = (count + B - 1) / B;
    job_result r;

    host_begin(d);
    uint64_t n0 = count < B ? count : B;
    hash_dst h0 = batch_dst(d, ub, digests_out, 0, 0);
    fill_messages(d->in[0].host, start, n0, width);
    d->bus.dma_sync(d->bus.ctx, &d->in[0], 0, FPGAMR_SYNC_TO_DEVICE, 0, bus_round(d, (size_t)n0 * slot));
    d->bus.dma_sync(d->bus.ctx, h0.buf, 0, FPGAMR_SYNC_FROM_DEVICE, h0.off, (size_t)n0 * 16);
    rc = start_job(d, FPGAMR_OP_HASH, width, 0, n0, &d->in[0], 0, h0.buf, h0.off, 0);
    double h = host_end(d);
    if (rc) {
        d->st.wall_seconds += now_s() - t0;
        return rc;
    }

    for (uint64_t k = 0; k < nb; k++) {
        int cur = (int)(k & 1), nxt = cur ^ 1;
        uint64_t nk = (k + 1 < nb) ? B : count - k * B;
        uint64_t nn = 0;
        hash_dst hc = batch_dst(d, ub, digests_out, k, cur);
        hash_dst hn = batch_dst(d, ub, digests_out, k + 1, nxt);
        if (k + 1 < nb) {  /* fill batch k+1 while the device works on batch k */
            host_begin(d);
            nn = (k + 2 < nb) ? B : count - (k + 1) * B;
            fill_messages(d->in[nxt].host, start + (k + 1) * B, nn, width);
            d->bus.dma_sync(d->bus.ctx, &d->in[nxt], 0, FPGAMR_SYNC_TO_DEVICE, 0, bus_round(d, (size_t)nn * slot));
            d->bus.dma_sync(d->bus.ctx, hn.buf, 0, FPGAMR_SYNC_FROM_DEVICE, hn.off, (size_t)nn * 16);
            h += host_end(d);
        }
        if ((rc = finish_batch(d, &r, k, nk, "did", NULL))) {
            d->st.wall_seconds += now_s() - t0;
            return rc;
        }
        if (values_done) *values_done += r.done;
        if (k + 1 < nb &&  /* device on batch k+1 while the host drains batch k */
            (rc = start_job(d, FPGAMR_OP_HASH, width, 0, nn, &d->in[nxt], 0, hn.buf, hn.off, 0))) {
            d->st.wall_seconds += now_s() - t0;
            return rc;
        }
        d->bus.dma_sync(d->bus.ctx, hc.buf, 1, FPGAMR_SYNC_FROM_DEVICE, hc.off, (size_t)nk * 16);
        if (ub)
            d->st.zero_copy_batches++;
        else
            memcpy(digests_out + k * B * 16, d->out[cur].host, (size_t)nk * 16);
        h += host_end(d);
        count_batch(d, r.done, h);
        h = 0;
    }
    d->st.wall_seconds += now_s() - t0;
    return 0;
}

/* ------------------------------------------------------------------ search path */
static int cmpu64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void load_filter(fpgamr_dev *d, const uint8_t *targets, size_t n)
{
    uint32_t f[FILTER_TOTAL_WORDS];
    memset(f, 0, sizeof f);
    for (size_t t = 0; t < n; t++)
        for (unsigned a = 0; a < FPGAMR_FILTER_ARRAYS; a++) {
            const uint8_t *p = targets + 16 * t + 4 * a;
            uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            uint32_t idx = w & ((1u << FPGAMR_FILTER_IDX_BITS) - 1);
            f[a * FPGAMR_FILTER_WORDS + idx / 32] |= 1u << (idx % 32);
        }
    if (d->filter_loaded && memcmp(f, d->filter, sizeof f) == 0) return;
    wr(d, FPGAMR_REG_FILTER_ADDR, 0);
    for (unsigned i = 0; i < FILTER_TOTAL_WORDS; i++) wr(d, FPGAMR_REG_FILTER_DATA, f[i]);
    memcpy(d->filter, f, sizeof f);
    d->filter_loaded = 1;
}

/* Matches reach the host in the device's order (each pipeline's hits in
 * order, the pipelines interleaved): a batch's matches are gathered, sorted,
 * then the first max of all go to out. */
typedef struct match_sink {
    uint64_t *out;
    size_t max, n;
    uint64_t *batch;            /* this batch's matches */
    size_t nb, cap;
    int oom;
} match_sink;

static void sink_add(match_sink *s, uint64_t v)
{
    if (s->nb == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        uint64_t *b = realloc(s->batch, cap * sizeof *b);
        if (!b) {
            s->oom = 1;
            return;
        }
        s->batch = b;
        s->cap = cap;
    }
    s->batch[s->nb++] = v;
}

/* the batch's matches, sorted, after those of the batches before */
static void sink_end_batch(match_sink *s)
{
    qsort(s->batch, s->nb, sizeof *s->batch, cmpu64);
    for (size_t i = 0; i < s->nb; i++, s->n++)
        if (s->n < s->max) s->out[s->n] = s->batch[i];
    s->nb = 0;
}

struct match_ring {
    fpgamr_dmabuf *buf;
    uint32_t consumed;          /* records taken so far */
    uint64_t bstart, n;         /* the batch's values */
    const uint8_t *targets;     /* sorted (fpgamr_targets.h) */
    size_t ntargets;
    match_sink *sink;
};

/* takes the ring's records [consumed, upto): the exact check of each filter
 * hit against the targets; ack: tell the (running) device they are free */
static void ring_drain(fpgamr_dev *d, match_ring *g, uint32_t upto, int ack)
{
    const size_t rb = FPGAMR_MATCH_RECORD_BYTES;
    while (g->consumed != upto) {
        uint32_t at = g->consumed % MATCH_CAP;
        uint32_t n = upto - g->consumed;
        if (n > MATCH_CAP - at) n = MATCH_CAP - at;  /* up to the ring's end */
        d->bus.dma_sync(d->bus.ctx, g->buf, 1, FPGAMR_SYNC_FROM_DEVICE, (size_t)at * rb, (size_t)n * rb);
        const uint8_t *rec = (const uint8_t *)g->buf->host + (size_t)at * rb;
        for (uint32_t i = 0; i < n; i++, rec += rb) {
            uint64_t v;
            memcpy(&v, rec, 8);
            if (v - g->bstart < g->n && fpgamr_targets_contain(g->targets, g->ntargets, rec + 16)) sink_add(g->sink, v);
        }
        /* the device may write these records again once acknowledged */
        if (ack) d->bus.dma_sync(d->bus.ctx, g->buf, 0, FPGAMR_SYNC_FROM_DEVICE, (size_t)at * rb, (size_t)n * rb);
        g->consumed += n;
    }
    if (ack) wr(d, FPGAMR_REG_MATCH_ACK, g->consumed);
}

int fpgamr_search_range(fpgamr_dev *d, uint64_t start, uint64_t count, int width, const uint8_t *targets,
                        size_t ntargets, uint64_t *matches_out, size_t max_matches, size_t *nmatches,
                        uint64_t *values_done)
{
    if (nmatches) *nmatches = 0;
    if (values_done) *values_done = 0;
    if (!d) return FPGAMR_EINVAL;
    int rc = check_width(d, width);
    if (rc) return rc;
    if (ntargets && !targets) return fail(d, FPGAMR_EINVAL, "targets is NULL");
    if (!fpgamr_targets_sorted(targets, ntargets))
        return fail(d, FPGAMR_EINVAL, "targets must be sorted ascending without duplicates (fpgamr_targets.h)");
    if (max_matches && !matches_out) return fail(d, FPGAMR_EINVAL, "matches_out is NULL");
    if (count == 0) return 0;
    if (ntargets == 0) return 0;  /* nothing can match: nothing is checked */
    double t0 = now_s();
    uint64_t B = d->batch;
    for (int i = 0; i < 2; i++)
        if ((rc = ensure_buf(d, &d->mbuf[i], bus_round(d, (size_t)MATCH_CAP * FPGAMR_MATCH_RECORD_BYTES)))) return rc;

    host_begin(d);
    load_filter(d, targets, ntargets);
    uint64_t nb = (count + B - 1) / B;
    match_sink sink = {matches_out, max_matches, 0, NULL, 0, 0, 0};
    match_ring ring[2];
    uint64_t done = 0;
    job_result r;
    uint64_t n0 = count < B ? count : B;
    ring[0] = (match_ring){&d->mbuf[0], 0, start, n0, targets, ntargets, &sink};
    d->bus.dma_sync(d->bus.ctx, &d->mbuf[0], 0, FPGAMR_SYNC_FROM_DEVICE, 0, d->mbuf[0].size);
    rc = start_job(d, FPGAMR_OP_SEARCH, width, start, n0, NULL, 0, &d->mbuf[0], 0, MATCH_CAP);
    double h = host_end(d);

    for (uint64_t k = 0; k < nb && !rc; k++) {
        int cur = (int)(k & 1), nxt = cur ^ 1;
        uint64_t bstart = start + k * B;
        uint64_t nk = (k + 1 < nb) ? B : count - k * B;
        if ((rc = finish_batch(d, &r, k, nk, "checked", &ring[cur])))
            break;
        if (k + 1 < nb) {  /* the device checks batch k+1 while the host confirms batch k */
            uint64_t nn = (k + 2 < nb) ? B : count - (k + 1) * B;
            ring[nxt] = (match_ring){&d->mbuf[nxt], 0, bstart + B, nn, targets, ntargets, &sink};
            d->bus.dma_sync(d->bus.ctx, &d->mbuf[nxt], 0, FPGAMR_SYNC_FROM_DEVICE, 0, d->mbuf[nxt].size);
            rc = start_job(d, FPGAMR_OP_SEARCH, width, bstart + B, nn, NULL, 0, &d->mbuf[nxt], 0, MATCH_CAP);
        }
        d->st.filter_hits += r.match_count;
        ring_drain(d, &ring[cur], r.match_count, 0);  /* the rest of batch k's records */
        sink_end_batch(&sink);
        if (sink.oom) {
            rc = fail(d, FPGAMR_ENOMEM, "out of memory for the matches");
            break;
        }
        done += r.done;
        h += host_end(d);
        count_batch(d, r.done, h);
        h = 0;
    }
    free(sink.batch);
    if (values_done) *values_done = done;
    if (nmatches) *nmatches = sink.n;
    d->st.wall_seconds += now_s() - t0;
    return rc;
}
