/* fpgamr_vsim.h: C ABI of the simulated accelerator libraries
 * libfpgamr-vsim-pN.so (the Verilated hdl/rtl/md5acc_top with N pipelines,
 * an AXI memory model in front of host memory and a clock thread).
 * The fpga driver loads a library with dlopen() and looks these symbols up;
 * FPGAMR_VSIM_ABI changes whenever a signature does. */
#ifndef FPGAMR_VSIM_H
#define FPGAMR_VSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FPGAMR_VSIM_ABI 2

typedef struct fpgamr_vsim fpgamr_vsim;

/* ABI version of the library (FPGAMR_VSIM_ABI) and its pipeline count. */
unsigned fpgamr_vsim_abi(void);
unsigned fpgamr_vsim_pipelines(void);

/* opts: comma-separated key=value, all optional:
 *   stall=P   withhold each AXI ready/valid in P% of the cycles (default 0)
 *   seed=S    seed of the stall pattern
 *   fault=KIND@K   make the K-th job (START) since create go wrong, through
 *             the model's own paths (the harness, not the RTL, arranges it):
 *               dma_error  every mapped region answers SLVERR (a search job
 *                          also gets an all-hit filter, so it writes match
 *                          records): the job ends with a bus error; the
 *                          next START restores memory and the host's filter
 *               hang       the clock stops after START: no interrupt, until
 *                          the host writes ABORT (the job then ends aborted)
 *               drop       the job starts with half its COUNT: it completes,
 *                          and DONE shows fewer values than the host asked
 *               irq_lost   from job K on, the interrupt line never reaches the
 *                          host (wait_irq times out; the jobs complete and
 *                          STATUS says so): an interrupt that is not wired
 *               dma_stall  from job K on, the memory withholds every AXI
 *                          handshake: a job that moves data never ends,
 *                          until the host writes ABORT (its bursts then
 *                          drain and it ends aborted): a port not enabled
 *               wedge      from job K on, the memory takes the requests
 *                          (AR, AW) and answers none, and no ABORT changes
 *                          that (a search job also gets an all-hit filter,
 *                          so that it writes): the job never ends, the
 *                          driver's stop times out and marks the device
 *                          wedged (the bus's state=, fpgamr_fpga.h)
 *   regmap=MAJOR[.MINOR]  REGMAP_VERSION reads so: a design of another
 *             register map (the driver refuses it at open)
 * Starts the clock thread. NULL on error, with a message in err. */
fpgamr_vsim *fpgamr_vsim_create(const char *opts, char *err, size_t errlen);
void fpgamr_vsim_destroy(fpgamr_vsim *v);

/* AXI4-Lite register access (byte offset in the 8 KiB window: both pages of
 * register map 3; the vsim bus lets user space reach only the user page). */
uint32_t fpgamr_vsim_reg_read(fpgamr_vsim *v, uint32_t off);
void fpgamr_vsim_reg_write(fpgamr_vsim *v, uint32_t off, uint32_t val);

/* Make host memory [host, host+size) visible to the DMA masters; returns 0
 * and its bus address (page aligned, unmapped guard pages between regions,
 * so overruns answer DECERR). resp != 0 makes the region answer with that
 * AXI response (2 = SLVERR) for error-path tests. */
int fpgamr_vsim_map(fpgamr_vsim *v, void *host, uint64_t size, uint64_t *bus_addr);
void fpgamr_vsim_unmap(fpgamr_vsim *v, uint64_t bus_addr);
void fpgamr_vsim_set_region_resp(fpgamr_vsim *v, uint64_t bus_addr, int resp);

/* Wait until the interrupt line is high: 1, or 0 after timeout_ms. */
int fpgamr_vsim_wait_irq(fpgamr_vsim *v, int timeout_ms);

/* Clock cycles simulated so far, and nanoseconds the calling threads spent
 * inside fpgamr_vsim_reg_read/_write (simulator time, lock waits included),
 * which the driver subtracts from its host-time figures. */
uint64_t fpgamr_vsim_cycles(fpgamr_vsim *v);
uint64_t fpgamr_vsim_api_ns(fpgamr_vsim *v);

#ifdef __cplusplus
}
#endif
#endif
