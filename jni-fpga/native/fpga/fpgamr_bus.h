/* fpgamr_bus.h: the small interface the driver needs from a bus: register
 * read/write (the user page of register map 3), DMA memory alloc/free/sync,
 * jobs submitted by buffer (the bus, as the kernel driver does, checks them
 * and programs the kernel page), wait for the interrupt. */
#ifndef FPGAMR_BUS_H
#define FPGAMR_BUS_H

#include <stddef.h>
#include <stdint.h>

typedef struct fpgamr_dmabuf {
    void *host;       /* CPU view */
    uint64_t bus;     /* vsim: the model's address (that bus plays the kernel);
                         uio: 0, the kernel keeps it from user space */
    size_t size;
    uint32_t handle;  /* bus-private */
} fpgamr_dmabuf;

enum { FPGAMR_SYNC_TO_DEVICE = 1, FPGAMR_SYNC_FROM_DEVICE = 2 };

/* One job, by buffer: what FPGAMR_IOC_SUBMIT takes (kernel/include/uapi/linux/fpgamr.h). */
typedef struct fpgamr_job {
    int op;               /* FPGAMR_OP_HASH or FPGAMR_OP_SEARCH */
    int width;            /* message width in bytes */
    uint64_t first;       /* search: the first value */
    uint64_t count;       /* values (hash: messages) */
    fpgamr_dmabuf *src;   /* hash: the messages; search: NULL */
    size_t src_off;
    fpgamr_dmabuf *dst;   /* hash: the digests; search: the match ring */
    size_t dst_off;
    uint32_t cap;         /* search: records in the ring */
} fpgamr_job;

typedef struct fpgamr_bus {
    const char *name;
    void *ctx;
    double mhz;        /* clock for modelled/nominal device time */
    int timeout_ms;    /* default wait per batch */
    /* registers of the user page; the kernel page is not reachable */
    uint32_t (*rd)(void *ctx, uint32_t off);
    void (*wr)(void *ctx, uint32_t off, uint32_t val);
    /* checks the job against this bus's buffers and starts it: 0, or
     * FPGAMR_EINVAL / FPGAMR_EBUSY / FPGAMR_EIO with a message in err */
    int (*submit)(void *ctx, const fpgamr_job *job, char *err, size_t errlen);
    /* asks the device to stop the running job (no wait) */
    void (*abort)(void *ctx);
    int (*dma_alloc)(void *ctx, size_t size, fpgamr_dmabuf *out);
    void (*dma_free)(void *ctx, fpgamr_dmabuf *b);
    /* for_cpu = 0: before the device uses [off, off+len); 1: before the CPU reads it */
    int (*dma_sync)(void *ctx, fpgamr_dmabuf *b, int for_cpu, int dir, size_t off, size_t len);
    /* 1: interrupt seen (line masked until irq_done), 0: timeout, < 0: error */
    int (*wait_irq)(void *ctx, int timeout_ms);
    void (*irq_done)(void *ctx);
    /* a DMA that did not complete (a job without its interrupt, or one the
     * kernel refused for its port): one line, no newline, naming what the bus
     * finds on the way to memory (the FPGA-to-SDRAM port, the bridges) */
    void (*diagnose)(void *ctx, char *buf, size_t len);
    /* the last job's failing burst (ERR_ADDR, on the kernel page since
     * register map 3.2: a bus address is the kernel's): 1 with *addr where
     * this bus plays the kernel (vsim); 0 where the kernel keeps it (uio:
     * fpgamr.ko logs it when it retires the job) */
    int (*err_addr)(void *ctx, uint64_t *addr);
    /* ns the host spent inside the simulator (0 for real hardware) */
    uint64_t (*sim_ns)(void *ctx);
    /* once the driver freed its buffers (which stops the device's job): 1
     * when the device is wedged (a job it did not stop: it takes no job until
     * it is reprogrammed, or its model loaded again), with its state line as
     * the kernel's sysfs `state` says it ("wedged: REASON") in why; else 0 */
    int (*wedged)(void *ctx, char *why, size_t len);
    void (*close)(void *ctx);
} fpgamr_bus;

/* spec is the part after "uio:" / "vsim:"; 0 or FPGAMR_E* */
int fpgamr_bus_uio_open(const char *spec, fpgamr_bus *bus, char *err, size_t errlen);
int fpgamr_bus_vsim_open(const char *spec, fpgamr_bus *bus, char *err, size_t errlen);

/* What the buses share (in fpgamr_fpga.c), so that each bus file keeps only
 * what differs. */

/* "key=value,key=value" lookup; returns 1 and copies the value if present */
int fpgamr_opt(const char *opts, const char *key, char *val, size_t vallen);

/* Takes the exclusive flock on fd that makes `what` (the device node, the
 * lock file) one process's, waiting up to the spec's wait_ms (default 0: no
 * wait) while another process holds it. 0, or FPGAMR_EBUSY (still held) or
 * FPGAMR_ENODEV (flock failed) with a message "<bus>: ..." in err. */
int fpgamr_bus_lock(int fd, const char *opts, const char *bus, const char *what, char *err, size_t errlen);

/* An open that failed: the message in err, the bus context closed (close
 * may be NULL), rc returned. */
int fpgamr_bus_fail(void (*close)(void *ctx), void *ctx, int rc, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Where the last job's DMA failed, for a message: "at bus address 0xA"
 * where the bus has it (err_addr), else where to find it (the kernel's log). */
void fpgamr_bus_err_where(const fpgamr_bus *bus, char *buf, size_t len);

/* *bus = *ops (a bus's name, default timeout and functions) on context ctx,
 * with the clock of the spec's mhz= (50 MHz until the device's CLOCK_KHZ is read at open). */
void fpgamr_bus_setup(fpgamr_bus *bus, const fpgamr_bus *ops, void *ctx, const char *opts);

#endif
