/* bus_vsim.c: the "vsim" bus: the Verilated accelerator in
 * libfpgamr-vsim-pN.so, loaded with dlopen. DMA buffers are page-aligned
 * host memory registered with the model at fake bus addresses. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "../vsim/fpgamr_vsim.h"
#include "fpgamr_bus.h"
#include "fpgamr_fpga.h"

typedef struct vsim_ctx {
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
    return x->reg_read(x->v, off);
}
static void v_wr(void *c, uint32_t off, uint32_t val)
{
    vsim_ctx *x = c;
    x->reg_write(x->v, off, val);
}
static int v_alloc(void *c, size_t size, fpgamr_dmabuf *b)
{
    vsim_ctx *x = c;
    size_t span = (size + 4095) & ~(size_t)4095;
    void *p = aligned_alloc(4096, span);
    if (!p) return FPGAMR_ENOMEM;
    memset(p, 0, span);
    if (x->map(x->v, p, span, &b->bus) != 0) {
        free(p);
        return FPGAMR_ENOMEM;
    }
    b->host = p;
    b->size = span;
    b->handle = 0;
    return 0;
}
static void v_free(void *c, fpgamr_dmabuf *b)
{
    vsim_ctx *x = c;
    if (!b->host) return;
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
static void v_close(void *c)
{
    vsim_ctx *x = c;
    if (x->v) x->destroy(x->v);
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

static const fpgamr_bus vsim_ops = {
    .name = "vsim",
    .timeout_ms = 120000,  /* a simulator is slow, and shares 2 cores */
    .rd = v_rd,
    .wr = v_wr,
    .dma_alloc = v_alloc,
    .dma_free = v_free,
    .dma_sync = v_sync,
    .wait_irq = v_wait,
    .irq_done = v_irq_done,
    .sim_ns = v_sim_ns,
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
    x->lock_fd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (x->lock_fd < 0)
        return fpgamr_bus_fail(v_close, x, FPGAMR_ENODEV, err, errlen, "vsim: cannot open lock file %s: %s", lockpath,
                               strerror(errno));
    int rc = fpgamr_bus_lock(x->lock_fd, spec, "vsim", lockpath, err, errlen);
    if (rc) {
        v_close(x);
        return rc;
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
