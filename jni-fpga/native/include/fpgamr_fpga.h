/* fpgamr_fpga.h: driver of the fpgamr MD5 accelerator (hdl/rtl/md5acc_top).
 *
 * One call per range, never per value: the driver cuts the range into
 * batches (2^18 values by default), keeps two batches in flight with
 * ping-pong DMA buffers (the host fills batch i+1 and drains batch i-1 while
 * the device works on batch i), waits for the completion interrupt with a
 * timeout and checks every batch's status.
 *
 * Buses:
 *   "uio:/dev/uioN[,timeout_ms=T][,wait_ms=W]"
 *                                    the real device (UIO registers/IRQ,
 *                                    DMA buffers from /dev/fpgamr-dmaK,
 *                                    kernel/include/uapi/linux/fpgamr.h)
 *   "vsim:pipelines=N[,mhz=F][,stall=P][,seed=S][,lib=PATH][,lock=PATH]
 *        [,state=PATH][,timeout_ms=T][,batch=B][,wait_ms=W][,fault=KIND@K][,regmap=M.N]"
 *                                    the Verilated model of the same HDL,
 *                                    libfpgamr-vsim-pN.so, found at lib=, in
 *                                    $FPGAMR_VSIM_DIR, beside the library
 *                                    holding this driver, or on the loader
 *                                    path; mhz (default: the design clock,
 *                                    the CLOCK_KHZ register) only scales the
 *                                    modelled device time. state=PATH: the
 *                                    file where the bus keeps the device's
 *                                    state as the kernel's sysfs `state`
 *                                    does ("wedged: REASON" once a job did
 *                                    not stop; a wedged device takes no job
 *                                    until the file says otherwise).
 *
 * Fault injection (vsim only: the simulated device is a test device, and
 * injecting faults is part of what it simulates; the real device's bus, uio,
 * takes no fault option and no production path reads one, which
 * mr-md5's ProductionCodeTest checks; the simulation harness does it, the RTL
 * is the same): fault=KIND@K makes the K-th device batch since open (counted
 * from 1, over both paths) fail:
 *   dma_error@K  the batch's DMA gets SLVERR responses: the call returns
 *                FPGAMR_EIO ("read/write response error"); the next batch
 *                works again
 *   hang@K       the batch never raises its interrupt: after timeout_ms the
 *                driver aborts it and returns FPGAMR_ETIMEDOUT (give a short
 *                timeout_ms: the vsim default is 120000)
 *   drop@K       the device silently does only the first half of the batch:
 *                the call succeeds, values_done (the device's own count)
 *                falls short, and short_batches counts it
 *   irq_lost@K   from batch K on the interrupt never reaches the host
 *                (the batches complete; the driver times out as for hang)
 *   dma_stall@K  from batch K on the device's memory answers no handshake:
 *                a hash batch never completes until the driver aborts it
 *                (FPGAMR_ETIMEDOUT); a search without hits moves no data
 *   wedge@K      the memory takes the requests and answers none, whatever ABORT (a
 *                search gets an all-hit filter, so it writes): the driver's
 *                stop times out after 5 s, the device is wedged (state=),
 *                fpgamr_close_rc says so and every later job gets FPGAMR_EIO
 *   (and regmap=MAJOR[.MINOR]: the device reports that register map
 *   version, which the driver refuses at open unless MAJOR is its own and MINOR no lower)
 * These two and regmap= are the board's broken wiring, for fpgamr-doctor's
 * tests (tools/fpgamr-doctor.c).
 * values_done of a failing call counts the batches done before the fault.
 * A device belongs to one process (flock on the UIO node, or on the vsim
 * lock file, default $TMPDIR/fpgamr-vsim-pN.lock, /tmp without TMPDIR); a
 * second opener gets FPGAMR_EBUSY at once, or, with wait_ms=W, when the
 * device is still owned after W milliseconds (it polls the lock meanwhile).
 * Calls on one device are not thread-safe.
 *
 * Zero copy: fpgamr_dma_alloc() hands out DMA memory of the device; when
 * fpgamr_hash_range()'s digests_out lies inside such a buffer (16-byte
 * aligned), the device writes the digests there itself and the host copies
 * nothing.
 */
#ifndef FPGAMR_FPGA_H
#define FPGAMR_FPGA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fpgamr_dev fpgamr_dev;

/* return codes (negative) */
#define FPGAMR_OK 0
#define FPGAMR_EINVAL (-1)    /* bad argument (width, count, spec) */
#define FPGAMR_EBUSY (-2)     /* device owned by another opener */
#define FPGAMR_ENODEV (-3)    /* no such device, wrong design id/version, library missing */
#define FPGAMR_ENOMEM (-4)    /* DMA or host memory */
#define FPGAMR_EIO (-5)       /* the device reported an error (see fpgamr_last_error) */
#define FPGAMR_ETIMEDOUT (-6) /* no interrupt within the timeout; the job was aborted */

typedef struct fpgamr_stats {
    uint64_t batches;             /* batches completed */
    uint64_t values;              /* values hashed or searched, as the device counted
                                     them (its DONE register), never as asked */
    uint64_t device_cycles;       /* sum of the CYCLES register over batches */
    double device_seconds;        /* device_cycles / (mhz * 1e6): modelled device time */
    double host_seconds;          /* driver time on the host outside the simulator:
                                     filling, draining, programming, confirming */
    double wall_seconds;          /* wall time inside fpgamr_hash/search_range */
    uint64_t last_batch_values;
    uint64_t last_batch_cycles;
    double last_batch_host_seconds;
    double max_batch_host_seconds;
    uint64_t filter_hits;         /* search: filter hits reported by the device */
    uint64_t fallback_batches;    /* search: batches re-checked through the hash path;
                                     always 0 since register map 2.0 (the device's
                                     match ring is drained while it runs) */
    uint64_t zero_copy_batches;   /* hash: batches written straight into the caller's
                                     buffer (fpgamr_dma_alloc memory), no copy */
    uint64_t short_batches;       /* batches whose device counter shows fewer values
                                     than the batch was given (not an error: the
                                     values done say so; see fpgamr_last_error) */
} fpgamr_stats;

typedef struct fpgamr_dev_info {
    unsigned pipelines;
    unsigned min_width, max_width;
    uint32_t design_params;
    uint32_t regmap_version;
    double mhz;                   /* clock used for device_seconds */
    char bus[8];                  /* "uio" or "vsim" */
} fpgamr_dev_info;

/* Open a device; NULL on failure with a message in err (and *rc if given). */
fpgamr_dev *fpgamr_open(const char *spec, char *err, size_t errlen);
fpgamr_dev *fpgamr_open_rc(const char *spec, int *rc, char *err, size_t errlen);
void fpgamr_close(fpgamr_dev *dev);
/* fpgamr_close, and whether the device stopped: 0, or FPGAMR_EIO when it is
 * wedged (a job it did not stop within the driver's stop timeout, 5 s, or
 * found so at open), with "<bus>: wedged: REASON" in err; the device takes
 * no job until it is reprogrammed (uio) or its model loaded again (vsim). */
int fpgamr_close_rc(fpgamr_dev *dev, char *err, size_t errlen);

int fpgamr_get_info(fpgamr_dev *dev, fpgamr_dev_info *info);

/* Hash path: digests_out[16*i .. 16*i+15] = MD5(big-endian encoding of
 * start+i in width bytes), for i < count. Messages are DMA'd to the device.
 * *values_done (when not NULL) gets the digests the device wrote, from its
 * own counter (DONE: digests written with an OKAY response), summed over the
 * batches: count when all is well; fewer when a batch came back short (no
 * error: only those digests are valid) or, with an error, the batches done
 * before it. */
int fpgamr_hash_range(fpgamr_dev *dev, uint64_t start, uint64_t count, int width, uint8_t *digests_out,
                      uint64_t *values_done);

/* Search path: values start .. start+count-1 are generated on the device;
 * every value whose MD5 equals one of the ntargets 16-byte digests (sorted
 * ascending without duplicates, fpgamr_targets.h: a set is sorted once
 * where it is made, e.g. fpgamr_md5_targets_digests; else FPGAMR_EINVAL) is
 * reported (filter on chip, exact confirmation on the host). The first
 * max_matches go to matches_out (in increasing order within a batch);
 * *nmatches gets the total number found, *values_done the values the device
 * checked, from its own counter (DONE) summed over the batches: count when
 * all is well, fewer when a batch came back short, the batches done before
 * an error, 0 without targets (nothing is checked). */
int fpgamr_search_range(fpgamr_dev *dev, uint64_t start, uint64_t count, int width,
                        const uint8_t *targets, size_t ntargets,
                        uint64_t *matches_out, size_t max_matches, size_t *nmatches,
                        uint64_t *values_done);

/* DMA memory the device can write (page aligned, zeroed), for the caller's
 * digest buffers; NULL when none is left (at most 8 buffers per device).
 * Valid until fpgamr_dma_free() or fpgamr_close(). */
void *fpgamr_dma_alloc(fpgamr_dev *dev, size_t size);
void fpgamr_dma_free(fpgamr_dev *dev, void *host);

void fpgamr_get_stats(fpgamr_dev *dev, fpgamr_stats *st);
void fpgamr_reset_stats(fpgamr_dev *dev);
const char *fpgamr_last_error(fpgamr_dev *dev);
const char *fpgamr_strerror(int rc);

#ifdef __cplusplus
}
#endif
#endif
