/* bus_uio.c: the "uio" bus: the real accelerator through the kernel driver
 * (kernel/include/uapi/linux/fpgamr.h): the user page of the registers by
 * mmap of /dev/uioN, the interrupt by read() on it (re-armed by writing 1),
 * DMA buffers and jobs (FPGAMR_IOC_SUBMIT: the kernel checks the buffers and
 * programs the kernel page) on the paired /dev/fpgamr-dmaK, with explicit
 * cache syncs. Ownership: flock on the UIO node (LOCK_EX | LOCK_NB). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/fpgamr.h>

#include "fpgamr_bus.h"
#include "fpgamr_fpga.h"
#include "fpgamr_regs.h"
#include "port_diag.h"

#define FPGA_BRIDGES "/sys/class/fpga_bridge"
#define FPGA_MANAGERS "/sys/class/fpga_manager"

typedef struct uio_ctx {
    int uio_fd;
    int dma_fd;
    volatile uint32_t *regs;
    size_t map_size;
    struct fpgamr_info info;
    char devdir[64];  /* the platform device in sysfs: /sys/class/uio/uioN/device */
} uio_ctx;

static uint32_t u_rd(void *c, uint32_t off)
{
    uio_ctx *x = c;
    return off < x->map_size ? x->regs[off / 4] : 0;  /* the kernel page is not mapped */
}
static void u_wr(void *c, uint32_t off, uint32_t val)
{
    uio_ctx *x = c;
    if (off < x->map_size) x->regs[off / 4] = val;
}
static int u_submit(void *c, const fpgamr_job *j, char *err, size_t errlen)
{
    uio_ctx *x = c;
    struct fpgamr_submit s;
    memset(&s, 0, sizeof s);
    s.op = j->op == FPGAMR_OP_SEARCH ? FPGAMR_JOB_SEARCH : FPGAMR_JOB_HASH;
    s.width = (uint32_t)j->width;
    s.first = j->first;
    s.count = j->count;
    s.src_handle = j->src ? j->src->handle : 0;
    s.src_offset = j->src_off;
    s.dst_handle = j->dst->handle;
    s.dst_offset = j->dst_off;
    s.match_cap = j->cap;
    if (ioctl(x->dma_fd, FPGAMR_IOC_SUBMIT, &s) == 0) return 0;
    int e = errno;
    if (e == ENOLINK) {  /* the port the job's DMA goes through cannot carry it */
        char why[384];
        fpgamr_port_diagnose(x->devdir, FPGA_BRIDGES, FPGA_MANAGERS, why, sizeof why);
        snprintf(err, errlen, "uio: the kernel refused the job: %s", why);
        return FPGAMR_EIO;
    }
    snprintf(err, errlen, "uio: the kernel refused the job (FPGAMR_IOC_SUBMIT): %s", strerror(e));
    return e == EBUSY ? FPGAMR_EBUSY : e == EIO ? FPGAMR_EIO : FPGAMR_EINVAL;
}
static void u_abort(void *c)
{
    uio_ctx *x = c;
    ioctl(x->dma_fd, FPGAMR_IOC_ABORT);  /* ENOENT: no job of ours runs */
}
static int u_alloc(void *c, size_t size, fpgamr_dmabuf *b)
{
    uio_ctx *x = c;
    struct fpgamr_alloc a;
    memset(&a, 0, sizeof a);
    a.size = size;
    if (ioctl(x->dma_fd, FPGAMR_IOC_ALLOC, &a) != 0) return FPGAMR_ENOMEM;
    void *p = mmap(NULL, (size_t)a.size, PROT_READ | PROT_WRITE, MAP_SHARED, x->dma_fd, (off_t)a.mmap_offset);
    if (p == MAP_FAILED) {
        struct fpgamr_free f = {a.handle, 0};
        ioctl(x->dma_fd, FPGAMR_IOC_FREE, &f);
        return FPGAMR_ENOMEM;
    }
    b->host = p;  /* b->bus stays 0: the kernel keeps the bus address (API 3) */
    b->size = (size_t)a.size;
    b->handle = a.handle;
    return 0;
}
static void u_free(void *c, fpgamr_dmabuf *b)
{
    uio_ctx *x = c;
    if (!b->host) return;
    munmap(b->host, b->size);
    struct fpgamr_free f = {b->handle, 0};
    ioctl(x->dma_fd, FPGAMR_IOC_FREE, &f);
    memset(b, 0, sizeof *b);
}
static int u_sync(void *c, fpgamr_dmabuf *b, int for_cpu, int dir, size_t off, size_t len)
{
    uio_ctx *x = c;
    if (x->info.flags & FPGAMR_INFO_COHERENT) return 0;
    size_t al = x->info.sync_align ? x->info.sync_align : FPGAMR_SYNC_ALIGN_MIN;
    size_t start = off / al * al;
    size_t end = (off + len + al - 1) / al * al;
    if (end > b->size) end = b->size;
    struct fpgamr_sync s;
    memset(&s, 0, sizeof s);
    s.handle = b->handle;
    s.direction = dir == FPGAMR_SYNC_TO_DEVICE ? FPGAMR_DMA_TO_DEVICE : FPGAMR_DMA_FROM_DEVICE;
    s.offset = start;
    s.length = end - start;
    if (s.length == 0) return 0;
    return ioctl(x->dma_fd, for_cpu ? FPGAMR_IOC_SYNC_FOR_CPU : FPGAMR_IOC_SYNC_FOR_DEVICE, &s) == 0 ? 0 : FPGAMR_EIO;
}
static int u_wait(void *c, int timeout_ms)
{
    uio_ctx *x = c;
    struct pollfd p = {x->uio_fd, POLLIN, 0};
    int r = poll(&p, 1, timeout_ms);
    if (r < 0) return errno == EINTR ? 0 : FPGAMR_EIO;
    if (r == 0) return 0;
    uint32_t events;
    if (read(x->uio_fd, &events, sizeof events) != (ssize_t)sizeof events) return FPGAMR_EIO;
    return 1;
}
static void u_irq_done(void *c)
{
    uio_ctx *x = c;
    uint32_t one = 1;  /* unmask the line again (after IRQ_STATUS was cleared) */
    if (write(x->uio_fd, &one, sizeof one) != (ssize_t)sizeof one) { /* nothing to do */ }
}
static void u_diagnose(void *c, char *buf, size_t len)
{
    uio_ctx *x = c;
    fpgamr_port_diagnose(x->devdir, FPGA_BRIDGES, FPGA_MANAGERS, buf, len);
}
/* the kernel page is the kernel's: fpgamr.ko logs the address */
static int u_err_addr(void *c, uint64_t *addr)
{
    (void)c;
    *addr = 0;
    return 0;
}
static uint64_t u_sim_ns(void *c) { (void)c; return 0; }
static void u_close(void *c)
{
    uio_ctx *x = c;
    if (x->regs) munmap((void *)x->regs, x->map_size);
    if (x->dma_fd >= 0) close(x->dma_fd);
    if (x->uio_fd >= 0) close(x->uio_fd);
    free(x);
}

static int read_sysfs(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    if (!fgets(buf, (int)len, f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    return 0;
}

/* fpgamr.ko's sysfs `state` (a module without it: 0) */
static int u_wedged(void *c, char *why, size_t len)
{
    uio_ctx *x = c;
    char path[128];
    snprintf(path, sizeof path, "%s/state", x->devdir);
    return read_sysfs(path, why, len) == 0 && strncmp(why, "wedged", 6) == 0;
}

static const fpgamr_bus uio_ops = {
    .name = "uio",
    .timeout_ms = 2000,
    .rd = u_rd,
    .wr = u_wr,
    .submit = u_submit,
    .abort = u_abort,
    .dma_alloc = u_alloc,
    .dma_free = u_free,
    .dma_sync = u_sync,
    .wait_irq = u_wait,
    .irq_done = u_irq_done,
    .diagnose = u_diagnose,
    .err_addr = u_err_addr,
    .sim_ns = u_sim_ns,
    .wedged = u_wedged,
    .close = u_close,
};

int fpgamr_bus_uio_open(const char *spec, fpgamr_bus *bus, char *err, size_t errlen)
{
    char node[256], path[512], buf[256];
    size_t nl = strcspn(spec, ",");
    if (nl == 0 || nl >= sizeof node)
        return fpgamr_bus_fail(NULL, NULL, FPGAMR_EINVAL, err, errlen, "uio: spec must name the UIO node, e.g. uio:/dev/uio0");
    memcpy(node, spec, nl);
    node[nl] = 0;
    const char *base = strrchr(node, '/');
    base = base ? base + 1 : node;

    uio_ctx *x = calloc(1, sizeof *x);
    if (!x) return FPGAMR_ENOMEM;
    x->uio_fd = x->dma_fd = -1;
    x->uio_fd = open(node, O_RDWR | O_CLOEXEC);
    if (x->uio_fd < 0)
        return fpgamr_bus_fail(u_close, x, FPGAMR_ENODEV, err, errlen, "uio: cannot open %s: %s", node, strerror(errno));
    int rc = fpgamr_bus_lock(x->uio_fd, spec, "uio", node, err, errlen);
    if (rc) {
        u_close(x);
        return rc;
    }
    snprintf(x->devdir, sizeof x->devdir, "/sys/class/uio/%.32s/device", base);
    snprintf(path, sizeof path, "/sys/class/uio/%s/name", base);
    if (read_sysfs(path, buf, sizeof buf) != 0 || strcmp(buf, FPGAMR_UIO_NAME) != 0)
        return fpgamr_bus_fail(u_close, x, FPGAMR_ENODEV, err, errlen, "uio: %s is not an fpgamr accelerator (%s)", node, path);
    snprintf(path, sizeof path, "/sys/class/uio/%s/maps/map0/size", base);
    if (read_sysfs(path, buf, sizeof buf) != 0)
        return fpgamr_bus_fail(u_close, x, FPGAMR_ENODEV, err, errlen, "uio: cannot read %s", path);
    x->map_size = (size_t)strtoull(buf, NULL, 0);
    if (x->map_size != FPGAMR_USER_PAGE_BYTES)
        return fpgamr_bus_fail(u_close, x, FPGAMR_ENODEV, err, errlen,
                               "uio: %s maps %zu bytes, register map %u's user page is %u", node, x->map_size,
                               FPGAMR_REGMAP_MAJOR, FPGAMR_USER_PAGE_BYTES);
    void *r = mmap(NULL, x->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, x->uio_fd, 0);
    if (r == MAP_FAILED)
        return fpgamr_bus_fail(u_close, x, FPGAMR_ENODEV, err, errlen, "uio: mmap of %s: %s", node, strerror(errno));
    x->regs = r;
    snprintf(path, sizeof path, "/sys/class/uio/%s/device/dma_dev", base);
    if (read_sysfs(path, buf, sizeof buf) != 0)
        return fpgamr_bus_fail(u_close, x, FPGAMR_ENODEV, err, errlen, "uio: cannot read %s", path);
    snprintf(path, sizeof path, "/dev/%s", buf);
    x->dma_fd = open(path, O_RDWR | O_CLOEXEC);
    if (x->dma_fd < 0 || ioctl(x->dma_fd, FPGAMR_IOC_INFO, &x->info) != 0)
        return fpgamr_bus_fail(u_close, x, FPGAMR_ENODEV, err, errlen, "uio: cannot use %s: %s", path, strerror(errno));
    if (x->info.api_version != FPGAMR_API_VERSION)
        return fpgamr_bus_fail(u_close, x, FPGAMR_ENODEV, err, errlen,
                               "uio: %s speaks fpgamr API %u, this driver API %u: install fpgamr.ko and "
                               "libfpgamr of one release",
                               path, x->info.api_version, FPGAMR_API_VERSION);
    if (strncmp(base, "uio", 3) != 0 ||
        x->info.uio_index != (uint32_t)strtoul(base + 3, NULL, 10))
        return fpgamr_bus_fail(u_close, x, FPGAMR_ENODEV, err, errlen, "uio: %s does not pair with %s", path, node);
    fpgamr_bus_setup(bus, &uio_ops, x, spec);
    return 0;
}
