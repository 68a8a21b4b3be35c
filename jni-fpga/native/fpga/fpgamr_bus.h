/* fpgamr_bus.h: the small interface the driver needs from a bus: register
 * read/write, DMA memory alloc/free/sync, wait for the interrupt. */
#ifndef FPGAMR_BUS_H
#define FPGAMR_BUS_H

#include <stddef.h>
#include <stdint.h>

typedef struct fpgamr_dmabuf {
    void *host;       /* CPU view */
    uint64_t bus;     /* address the device uses */
    size_t size;
    uint32_t handle;  /* bus-private */
} fpgamr_dmabuf;

enum { FPGAMR_SYNC_TO_DEVICE = 1, FPGAMR_SYNC_FROM_DEVICE = 2 };

typedef struct fpgamr_bus {
    const char *name;
    void *ctx;
    double mhz;        /* clock for modelled/nominal device time */
    int timeout_ms;    /* default wait per batch */
    uint32_t (*rd)(void *ctx, uint32_t off);
    void (*wr)(void *ctx, uint32_t off, uint32_t val);
    int (*dma_alloc)(void *ctx, size_t size, fpgamr_dmabuf *out);
    void (*dma_free)(void *ctx, fpgamr_dmabuf *b);
    /* for_cpu = 0: before the device uses [off, off+len); 1: before the CPU reads it */
    int (*dma_sync)(void *ctx, fpgamr_dmabuf *b, int for_cpu, int dir, size_t off, size_t len);
    /* 1: interrupt seen (line masked until irq_done), 0: timeout, < 0: error */
    int (*wait_irq)(void *ctx, int timeout_ms);
    void (*irq_done)(void *ctx);
    /* ns the host spent inside the simulator (0 for real hardware) */
    uint64_t (*sim_ns)(void *ctx);
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

/* *bus = *ops (a bus's name, default timeout and functions) on context ctx,
 * with the clock of the spec's mhz= (50 MHz until the device's CLOCK_KHZ is read at open). */
void fpgamr_bus_setup(fpgamr_bus *bus, const fpgamr_bus *ops, void *ctx, const char *opts);

#endif
