// SPDX-License-Identifier: GPL-2.0
/*
 * fpgamr-core.c - platform driver of the fpgamr MD5 accelerator
 *
 * Binds to the device-tree node "fpgamr,md5-accel-1.0" of the FPGA overlay,
 * checks the design id, and gives user space
 *  - the register window's user page and the interrupt through UIO
 *    ("fpgamr-md5"); the kernel page (where and how much the device reads
 *    and writes, and START) is the driver's alone,
 *  - cacheable DMA buffers and the jobs that use them through
 *    /dev/fpgamr-dmaK (fpgamr-dma.c),
 *  - design id, register map version and buffer counters in sysfs.
 *
 * Without a device tree the driver also binds, by name, to a platform device
 * called "fpgamr-md5" with the same resources (one MEM, one optional IRQ).
 */

#include <linux/dma-mapping.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include <linux/fpgamr.h>

#include "fpgamr-port.h"
#include "fpgamr-priv.h"

#define FPGAMR_DRV_NAME		"fpgamr-md5"
#define FPGAMR_MAX_BUF_LIMIT	SZ_1G

static int fpgamr_coherent = -1;
module_param_named(coherent, fpgamr_coherent, int, 0444);
MODULE_PARM_DESC(coherent,
		 "1: DMA port is cache coherent (ACP), syncs do no cache work; 0: never coherent; -1: from the device tree \"dma-coherent\" (default)");

unsigned long fpgamr_max_buf_bytes = SZ_64M;
module_param_named(max_buf_bytes, fpgamr_max_buf_bytes, ulong, 0444);
MODULE_PARM_DESC(max_buf_bytes, "largest DMA buffer in bytes (default: 64 MiB, at most 1 GiB)");

unsigned long fpgamr_max_dev_bytes = SZ_256M;
module_param_named(max_dev_bytes, fpgamr_max_dev_bytes, ulong, 0444);
MODULE_PARM_DESC(max_dev_bytes, "all DMA buffers of one device together, in bytes (default: 256 MiB)");

unsigned long fpgamr_max_user_bytes = SZ_256M;
module_param_named(max_user_bytes, fpgamr_max_user_bytes, ulong, 0444);
MODULE_PARM_DESC(max_user_bytes, "all DMA buffers of one user (uid) on every device, in bytes (default: 256 MiB)");

unsigned int fpgamr_dma_bits = 32;
module_param_named(dma_bits, fpgamr_dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits, "width of the accelerator's bus addresses (default: 32)");

static DEFINE_IDA(fpgamr_ida);

unsigned int fpgamr_sync_align(void)
{
	return max_t(unsigned int, FPGAMR_SYNC_ALIGN_MIN,
		     dma_get_cache_alignment());
}

void fpgamr_dev_get(struct fpgamr_dev *fdev)
{
	kref_get(&fdev->ref);
}

static void fpgamr_dev_release(struct kref *ref)
{
	struct fpgamr_dev *fdev = container_of(ref, struct fpgamr_dev, ref);

	/* only now: buffers freed after unbind still needed the CMA region */
	if (fdev->has_rmem)
		of_reserved_mem_device_release(fdev->dev);
	ida_free(&fpgamr_ida, fdev->id);
	put_device(fdev->dev);
	kfree(fdev);
}

void fpgamr_dev_put(struct fpgamr_dev *fdev)
{
	kref_put(&fdev->ref, fpgamr_dev_release);
}

static struct fpgamr_dev *fpgamr_dev_alloc(struct device *dev)
{
	struct fpgamr_dev *fdev;

	fdev = kzalloc(sizeof(*fdev), GFP_KERNEL);
	if (!fdev)
		return ERR_PTR(-ENOMEM);

	fdev->id = ida_alloc(&fpgamr_ida, GFP_KERNEL);
	if (fdev->id < 0) {
		int ret = fdev->id;

		kfree(fdev);
		return ERR_PTR(ret);
	}
	kref_init(&fdev->ref);
	init_rwsem(&fdev->lock);
	mutex_init(&fdev->job_lock);
	atomic_long_set(&fdev->buffers, 0);
	atomic_long_set(&fdev->bytes, 0);
	fdev->dev = get_device(dev);
	return fdev;
}

/* ---- sysfs ------------------------------------------------------------ */

/* One read-only attribute: NAME's show prints FMT of EXPR, with fdev in scope. */
#define FPGAMR_ATTR_RO(_name, _fmt, _expr)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct fpgamr_dev *fdev = dev_get_drvdata(dev);			\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static DEVICE_ATTR_RO(_name)

FPGAMR_ATTR_RO(design_id, "0x%08x", fdev->design_id);
FPGAMR_ATTR_RO(regmap_version, "0x%08x", fdev->regmap_version);
FPGAMR_ATTR_RO(dma_dev, "%s", fdev->misc_name);
FPGAMR_ATTR_RO(uio_dev, "uio%d", fdev->uio.uio_dev->minor);
FPGAMR_ATTR_RO(coherent, "%d", fdev->coherent);
FPGAMR_ATTR_RO(buffers_in_use, "%ld", atomic_long_read(&fdev->buffers));
FPGAMR_ATTR_RO(bytes_in_use, "%ld", atomic_long_read(&fdev->bytes));

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return fpgamr_state_show(dev_get_drvdata(dev), buf);
}
static DEVICE_ATTR_RO(state);

static struct attribute *fpgamr_attrs[] = {
	&dev_attr_design_id.attr,
	&dev_attr_regmap_version.attr,
	&dev_attr_dma_dev.attr,
	&dev_attr_uio_dev.attr,
	&dev_attr_coherent.attr,
	&dev_attr_buffers_in_use.attr,
	&dev_attr_bytes_in_use.attr,
	&dev_attr_state.attr,
	NULL
};

static const struct attribute_group fpgamr_attr_group = {
	.attrs = fpgamr_attrs,
};

/* ---- UIO: registers and interrupt ------------------------------------- */

static irqreturn_t fpgamr_uio_handler(int irq, struct uio_info *info)
{
	struct fpgamr_dev *fdev = info->priv;
	u32 pending;

	pending = readl(fdev->regs + FPGAMR_REG_IRQ_STATUS) &
		  readl(fdev->regs + FPGAMR_REG_IRQ_ENABLE);
	if (!pending)
		return IRQ_NONE;

	/* level-high line: keep it masked until user space has cleared it */
	if (!test_and_set_bit(0, &fdev->irq_masked))
		disable_irq_nosync(irq);
	return IRQ_HANDLED;
}

static int fpgamr_uio_irqcontrol(struct uio_info *info, s32 on)
{
	struct fpgamr_dev *fdev = info->priv;

	if (on) {
		if (test_and_clear_bit(0, &fdev->irq_masked))
			enable_irq(info->irq);
	} else if (!test_and_set_bit(0, &fdev->irq_masked)) {
		disable_irq(info->irq);
	}
	return 0;
}

static int fpgamr_setup_regs(struct fpgamr_dev *fdev,
			     struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct resource *res;
	int irq;

	fdev->regs = devm_platform_get_and_ioremap_resource(pdev, 0, &res);
	if (IS_ERR(fdev->regs))
		return PTR_ERR(fdev->regs);
	if (!PAGE_ALIGNED(res->start)) {
		dev_err(dev, "register window %pR is not page aligned\n", res);
		return -EINVAL;
	}
	/*
	 * UIO maps whole pages: with pages larger than the user page it would
	 * map the kernel page too, and with it the device's DMA addresses
	 */
	if (PAGE_SIZE > FPGAMR_USER_PAGE_BYTES ||
	    resource_size(res) < FPGAMR_WINDOW_BYTES) {
		dev_err(dev, "register window %pR: need %u bytes in pages of %u\n",
			res, FPGAMR_WINDOW_BYTES, FPGAMR_USER_PAGE_BYTES);
		return -EINVAL;
	}


	irq = platform_get_irq_optional(pdev, 0);
	if (irq == -EPROBE_DEFER)
		return irq;

	fdev->uio.name = FPGAMR_UIO_NAME;
	fdev->uio.version = "1.0";
	fdev->uio.priv = fdev;
	fdev->uio.mem[0].name = "registers";
	fdev->uio.mem[0].addr = res->start;
	fdev->uio.mem[0].size = FPGAMR_USER_PAGE_BYTES;	/* never the kernel page */
	fdev->uio.mem[0].memtype = UIO_MEM_PHYS;
	if (irq > 0) {
		fdev->uio.irq = irq;
		fdev->uio.handler = fpgamr_uio_handler;
		fdev->uio.irqcontrol = fpgamr_uio_irqcontrol;
	} else {
		fdev->uio.irq = UIO_IRQ_NONE;
	}

	fdev->design_id = readl(fdev->regs + FPGAMR_REG_DESIGN_ID);
	fdev->regmap_version = readl(fdev->regs + FPGAMR_REG_REGMAP_VERSION);
	return 0;
}

/* the design's bus width and message widths, for SUBMIT's checks */
static int fpgamr_read_params(struct fpgamr_dev *fdev)
{
	u32 params = readl(fdev->regs + FPGAMR_REG_DESIGN_PARAMS);
	u32 lb = (params & FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >>
		 FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT;

	fdev->min_width = (params & FPGAMR_DESIGN_PARAMS_MIN_WIDTH_MASK) >>
			  FPGAMR_DESIGN_PARAMS_MIN_WIDTH_SHIFT;
	fdev->max_width = (params & FPGAMR_DESIGN_PARAMS_MAX_WIDTH_MASK) >>
			  FPGAMR_DESIGN_PARAMS_MAX_WIDTH_SHIFT;
	if (lb < 4 || lb > 6 || !fdev->min_width ||
	    fdev->min_width > fdev->max_width) {
		dev_err(fdev->dev, "DESIGN_PARAMS 0x%08x: no usable bus or widths\n",
			params);
		return -ENODEV;
	}
	fdev->bus_bytes = 1U << lb;
	return 0;
}

static int fpgamr_check_id(struct fpgamr_dev *fdev)
{
	if (fdev->design_id != FPGAMR_DESIGN_ID) {
		dev_err(fdev->dev,
			"DESIGN_ID is 0x%08x, not 0x%08x: is the fpgamr bitstream loaded?\n",
			fdev->design_id, FPGAMR_DESIGN_ID);
		return -ENODEV;
	}
	/*
	 * the map's major, and no lower minor: a 3.0 design's ABORT can leave a
	 * search running for ever (a full match ring never acknowledged), so
	 * its device would be wedged by the first job that tries; a 3.1 design
	 * shows the bus address of a failing burst on the user page
	 */
	if (fdev->regmap_version >> 16 != FPGAMR_REGMAP_MAJOR ||
	    (fdev->regmap_version & 0xffff) < FPGAMR_REGMAP_MINOR) {
		dev_err(fdev->dev,
			"register map version 0x%08x, need %u.%u or a later %u.x\n",
			fdev->regmap_version, FPGAMR_REGMAP_MAJOR,
			FPGAMR_REGMAP_MINOR, FPGAMR_REGMAP_MAJOR);
		return -ENODEV;
	}
	return 0;
}

/* ---- DMA configuration ------------------------------------------------ */

static bool fpgamr_is_coherent(struct device *dev)
{
	if (fpgamr_coherent >= 0)
		return fpgamr_coherent;
	return device_get_dma_attr(dev) == DEV_DMA_COHERENT;
}

static int fpgamr_setup_dma(struct fpgamr_dev *fdev)
{
	struct device *dev = fdev->dev;
	int ret;

	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(fpgamr_dma_bits));
	if (ret)
		return dev_err_probe(dev, ret, "no %u-bit DMA\n",
				     fpgamr_dma_bits);

	/* optional dedicated CMA pool: memory-region = <&fpgamr_cma>; */
	if (of_find_property(dev->of_node, "memory-region", NULL)) {
		ret = of_reserved_mem_device_init(dev);
		if (ret)
			return dev_err_probe(dev, ret, "memory-region\n");
		fdev->has_rmem = true;
	}
	fdev->coherent = fpgamr_is_coherent(dev);
	return 0;
}

/* ---- binding ------------------------------------------------------------ */

static int fpgamr_register(struct fpgamr_dev *fdev)
{
	int ret;

	/* ioctls wait on the lock until both halves exist */
	down_write(&fdev->lock);
	ret = fpgamr_dma_register(fdev);
	if (!ret) {
		ret = uio_register_device(fdev->dev, &fdev->uio);
		if (ret)
			fpgamr_dma_unregister(fdev);
	}
	WRITE_ONCE(fdev->gone, ret != 0);
	up_write(&fdev->lock);
	return ret;
}

static void fpgamr_unregister(struct fpgamr_dev *fdev)
{
	down_write(&fdev->lock);
	/* while the registers are still mapped: no DMA after removal */
	fpgamr_job_stop_all(fdev);
	WRITE_ONCE(fdev->gone, true);
	up_write(&fdev->lock);
	uio_unregister_device(&fdev->uio);
	fpgamr_dma_unregister(fdev);
}

static int fpgamr_setup(struct fpgamr_dev *fdev, struct platform_device *pdev)
{
	int ret;

	/* the registers answer only in a programmed FPGA, its bridge released */
	ret = fpgamr_hps_probe(&pdev->dev);
	if (ret)
		return ret;
	ret = fpgamr_setup_regs(fdev, pdev);
	if (ret)
		return ret;
	ret = fpgamr_check_id(fdev);
	if (!ret)
		ret = fpgamr_read_params(fdev);
	if (ret)
		return ret;
	return fpgamr_setup_dma(fdev);
}

static int fpgamr_probe(struct platform_device *pdev)
{
	struct fpgamr_dev *fdev;
	int ret;

	fdev = fpgamr_dev_alloc(&pdev->dev);
	if (IS_ERR(fdev))
		return PTR_ERR(fdev);
	platform_set_drvdata(pdev, fdev);

	ret = fpgamr_setup(fdev, pdev);
	if (ret)
		goto err_put;
	ret = fpgamr_port_probe(&pdev->dev, &fdev->port, fdev->bus_bytes * 8);
	if (ret)
		goto err_put;
	ret = fpgamr_register(fdev);
	if (ret)
		goto err_put;
	ret = sysfs_create_group(&pdev->dev.kobj, &fpgamr_attr_group);
	if (ret)
		goto err_unregister;

	dev_info(&pdev->dev, "design 0x%08x v0x%08x: uio%d, %s, %s DMA\n",
		 fdev->design_id, fdev->regmap_version,
		 fdev->uio.uio_dev->minor, fdev->misc_name,
		 fdev->coherent ? "coherent" : "streaming");
	return 0;

err_unregister:
	fpgamr_unregister(fdev);
err_put:
	platform_set_drvdata(pdev, NULL);
	fpgamr_dev_put(fdev);
	return ret;
}

static void fpgamr_remove_dev(struct platform_device *pdev)
{
	struct fpgamr_dev *fdev = platform_get_drvdata(pdev);

	sysfs_remove_group(&pdev->dev.kobj, &fpgamr_attr_group);
	fpgamr_unregister(fdev);
	if (atomic_long_read(&fdev->buffers))
		dev_warn(&pdev->dev,
			 "removed with %ld buffers still mapped or open\n",
			 atomic_long_read(&fdev->buffers));
	fpgamr_dev_put(fdev);
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
static void fpgamr_remove(struct platform_device *pdev)
{
	fpgamr_remove_dev(pdev);
}
#else
static int fpgamr_remove(struct platform_device *pdev)
{
	fpgamr_remove_dev(pdev);
	return 0;
}
#endif

static const struct of_device_id fpgamr_of_match[] = {
	{ .compatible = FPGAMR_OF_COMPATIBLE },
	{ }
};
MODULE_DEVICE_TABLE(of, fpgamr_of_match);

static struct platform_driver fpgamr_driver = {
	.probe = fpgamr_probe,
	.remove = fpgamr_remove,
	.driver = {
		.name = FPGAMR_DRV_NAME,
		.of_match_table = fpgamr_of_match,
		/* the FPGA's, the bridge's and the port's state, bound or not */
		.groups = fpgamr_hps_groups,
		/* no unbind from sysfs while user space may hold buffers */
		.suppress_bind_attrs = true,
	},
};

/* ---- module ------------------------------------------------------------- */

static int fpgamr_check_params(void)
{
	if (!fpgamr_max_buf_bytes ||
	    fpgamr_max_buf_bytes > FPGAMR_MAX_BUF_LIMIT) {
		pr_err("fpgamr: max_buf_bytes must be 1..%u\n",
		       FPGAMR_MAX_BUF_LIMIT);
		return -EINVAL;
	}
	if (!fpgamr_max_dev_bytes || !fpgamr_max_user_bytes) {
		pr_err("fpgamr: max_dev_bytes and max_user_bytes must be at least 1\n");
		return -EINVAL;
	}
	if (fpgamr_dma_bits < 24 || fpgamr_dma_bits > 64) {
		pr_err("fpgamr: dma_bits must be 24..64\n");
		return -EINVAL;
	}
	if (fpgamr_coherent < -1 || fpgamr_coherent > 1) {
		pr_err("fpgamr: coherent must be -1, 0 or 1\n");
		return -EINVAL;
	}
	return 0;
}

static int __init fpgamr_init(void)
{
	int ret;

	ret = fpgamr_check_params();
	if (ret)
		return ret;
	return platform_driver_register(&fpgamr_driver);
}
module_init(fpgamr_init);

static void __exit fpgamr_exit(void)
{
	platform_driver_unregister(&fpgamr_driver);
}
module_exit(fpgamr_exit);

MODULE_DESCRIPTION("fpgamr MD5 accelerator: UIO status registers, kernel-checked jobs, cacheable DMA buffers");
MODULE_AUTHOR("fpgamr project");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0.0");
