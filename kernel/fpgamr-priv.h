/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fpgamr-priv.h - shared state of the fpgamr accelerator driver
 */
#ifndef FPGAMR_PRIV_H
#define FPGAMR_PRIV_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/uio_driver.h>

#define FPGAMR_REG_DESIGN_ID		0x000
#define FPGAMR_REG_REGMAP_VERSION	0x004
#define FPGAMR_REG_IRQ_ENABLE		0x018
#define FPGAMR_REG_IRQ_STATUS		0x01c

#define FPGAMR_DESIGN_MAGIC		0x4d443541	/* "MD5A" */
#define FPGAMR_REGMAP_MAJOR		2	/* register map 2.0: the match ring */

/**
 * struct fpgamr_dev - one accelerator
 * @ref:	held by the platform binding, every open DMA file and every
 *		buffer; the last put frees the structure
 * @dev:	the platform device (a reference is held while @ref lives)
 * @regs:	register window
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
 * @uio:	UIO half (registers and interrupt)
 * @misc:	DMA half
 * @misc_name:	"fpgamr-dmaK"
 */
struct fpgamr_dev {
	struct kref ref;
	struct device *dev;
	void __iomem *regs;
	struct rw_semaphore lock;
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
extern unsigned int fpgamr_dma_bits;

void fpgamr_dev_get(struct fpgamr_dev *fdev);
void fpgamr_dev_put(struct fpgamr_dev *fdev);
unsigned int fpgamr_sync_align(void);

int fpgamr_dma_register(struct fpgamr_dev *fdev);
void fpgamr_dma_unregister(struct fpgamr_dev *fdev);

#endif /* FPGAMR_PRIV_H */
