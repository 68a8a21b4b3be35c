/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fpgamr-priv.h - shared state of the fpgamr accelerator driver
 */
#ifndef FPGAMR_PRIV_H
#define FPGAMR_PRIV_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/uio_driver.h>

/* register map 3, generated from hdl/regmap/md5acc.json */
#include "fpgamr-regs.h"
#include "fpgamr-port.h"

struct fpgamr_buf;
struct fpgamr_file;

/**
 * struct fpgamr_job - the job the driver last started on the device
 * @owner:	the open file that submitted it, NULL: none
 * @src:	its source buffer (a reference), or NULL
 * @dst:	its destination buffer or match ring (a reference)
 * @seq:	JOBS_STARTED once the device has taken its START
 */
struct fpgamr_job {
	struct fpgamr_file *owner;
	struct fpgamr_buf *src;
	struct fpgamr_buf *dst;
	u32 seq;
};

/**
 * struct fpgamr_dev - one accelerator
 * @ref:	held by the platform binding, every open DMA file and every
 *		buffer; the last put frees the structure
 * @dev:	the platform device (a reference is held while @ref lives)
 * @regs:	register window: the user page (the one UIO maps) and the kernel
 *		page (the job's registers, never mapped to user space)
 * @lock:	read side held by the DMA ioctls, write side by probe and
 *		removal; never taken under mmap_lock
 * @gone:	set under @lock (write) when the platform device goes away
 * @coherent:	the sync ioctls need no cache maintenance
 * @has_rmem:	a reserved-memory (CMA) region was attached to @dev
 * @id:		K of /dev/fpgamr-dmaK
 * @irq_masked:	bit 0: the interrupt line is disabled until user space
 *		re-enables it through the UIO device
 * @design_id:	DESIGN_ID read at probe
 * @regmap_version: REGMAP_VERSION read at probe
 * @buffers:	buffers whose memory is not yet returned
 * @bytes:	bytes of those buffers
 * @job_lock:	serialises SUBMIT, ABORT and stopping the device (taken
 *		under @lock)
 * @job:	the job last started (under @job_lock)
 * @wedged:	the device did not stop a job: its buffers stay allocated and
 *		no job is started any more, until the device is probed again
 *		(the FPGA reprogrammed, or the module reloaded)
 * @wedged_why: what it did not do, for sysfs `state` (under @job_lock)
 * @bus_bytes:	the device's data bus in bytes (DESIGN_PARAMS)
 * @min_width:	smallest message width (DESIGN_PARAMS)
 * @max_width:	largest message width
 * @port:	where the FPGA-to-SDRAM port's state is read before each job
 * @uio:	UIO half (registers and interrupt)
 * @misc:	DMA half
 * @misc_name:	"fpgamr-dmaK"
 */
struct fpgamr_dev {
	struct kref ref;
	struct device *dev;
	void __iomem *regs;
	struct rw_semaphore lock;
	struct mutex job_lock;
	struct fpgamr_job job;
	bool wedged;
	char wedged_why[128];
	u32 bus_bytes;
	u32 min_width;
	u32 max_width;
	struct fpgamr_port port;
	bool gone;
	bool coherent;
	bool has_rmem;
	int id;
	unsigned long irq_masked;
	u32 design_id;
	u32 regmap_version;
	atomic_long_t buffers;
	atomic_long_t bytes;
	struct uio_info uio;
	struct miscdevice misc;
	char misc_name[32];
};

extern unsigned long fpgamr_max_buf_bytes;
extern unsigned long fpgamr_max_dev_bytes;
extern unsigned long fpgamr_max_user_bytes;
extern unsigned int fpgamr_dma_bits;

void fpgamr_dev_get(struct fpgamr_dev *fdev);
void fpgamr_dev_put(struct fpgamr_dev *fdev);
unsigned int fpgamr_sync_align(void);

int fpgamr_dma_register(struct fpgamr_dev *fdev);
void fpgamr_dma_unregister(struct fpgamr_dev *fdev);
void fpgamr_job_stop_all(struct fpgamr_dev *fdev);
ssize_t fpgamr_state_show(struct fpgamr_dev *fdev, char *buf);

#endif /* FPGAMR_PRIV_H */
