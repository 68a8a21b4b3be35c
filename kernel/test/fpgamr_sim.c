// SPDX-License-Identifier: GPL-2.0
/*
 * fpgamr_sim.c - test-only module: the FPGA side of the bus, for the tests of
 * fpgamr.ko.  Never built into the DKMS tree, never loaded on a node.
 *
 * It gives user space what the FPGA fabric has on a board, so that a test
 * program or a process running the Verilated accelerator can play the device
 * the real driver binds to:
 *
 *  - the device: on a device-tree machine the accelerator's node
 *    (FPGAMR_OF_COMPATIBLE) is already there and fpgamr.ko binds to it as on
 *    the board; its register window is memory the tree reserves for it.
 *    Without a device tree (x86-64) this module registers a platform device
 *    named "fpgamr-md5" with the window given as regs= (memory the kernel
 *    command line reserved with memmap=) and an interrupt of its own.
 *  - DESIGN_ID and REGMAP_VERSION in the window at load (design_id=, 0 leaves
 *    the window to the device model);
 *  - the interrupt line: writing 1 to raise_irq pends the accelerator's
 *    interrupt once, in its interrupt controller (the GIC on ARM) or, for the
 *    platform device, through the generic IRQ layer.  The line is level-high
 *    and a pend is one shot: whoever plays the device pends it again after
 *    an unmask while its line is still high, as the line would fire again;
 *  - bus-master access: mmap of /dev/fpgamr-sim at offset = bus address maps
 *    the register window (uncached) or pages of allocated low memory
 *    (cached), as the accelerator's AXI master and register slave see them;
 *  - the bus address behind the caller's mapping of a DMA buffer
 *    (FPGAMR_SIM_IOC_BUS_ADDR, fpgamr_sim.h), which fpgamr.ko keeps from
 *    user space;
 *  - removal: writing 1 to unplug removes the device, as removing the
 *    FPGA overlay would;
 *  - the FPGA-to-SDRAM port: where the tree has the Cyclone V's SDRAM
 *    controller and system manager (on the ARM test machine syscons over
 *    memory, test/vexpress-board.dtsi), their registers as the bootloader
 *    and the bridge driver leave them: fpga2sdram=enabled (at load),
 *    reset, unconfigured or narrow (the fixtures of test/port_state.c);
 *  - the FPGA manager's stat and the reset manager's brgmodrst, where the
 *    tree has those blocks (memory on the ARM test machine,
 *    test/virt-board.dtsi): hps=ready (at load: user mode, bridges out of
 *    reset), unprogrammed (configuration phase, every bridge in reset, as
 *    a cold boot without the .rbf leaves them) or bridge-reset (user mode,
 *    every bridge in reset).
 */

#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/mfd/syscon.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/of_irq.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>

#include <linux/fpgamr.h>

#include "../fpgamr-priv.h"
#include "fpgamr_sim.h"

static unsigned long sim_regs;
module_param_named(regs, sim_regs, ulong, 0444);
MODULE_PARM_DESC(regs,
		 "bus address of the register window (default: the window of the device-tree node " FPGAMR_OF_COMPATIBLE ")");

/* what a 4-pipeline, 256-bit build of hdl/rtl reports (widths 1..8) */
#define SIM_DESIGN_PARAMS	0x4581e304

static uint sim_design_id = FPGAMR_DESIGN_ID;
module_param_named(design_id, sim_design_id, uint, 0444);
MODULE_PARM_DESC(design_id,
		 "DESIGN_ID written to the window at load, with REGMAP_VERSION and DESIGN_PARAMS of hdl/regmap/md5acc.json's map (0: leave the window alone)");

static unsigned int sim_irq;
module_param_named(irq, sim_irq, uint, 0444);
MODULE_PARM_DESC(irq, "Linux interrupt number of the accelerator (read only)");

static DEFINE_MUTEX(sim_lock);
static struct resource sim_window;
static struct device_node *sim_np;		/* device-tree node, or NULL */
static struct platform_device *sim_pdev;	/* our platform device, or NULL */
static bool sim_present;

/* pend the line once; a level-high SPI pended in the GIC clears on ack */
static int sim_raise(void)
{
	if (!sim_present)
		return -ENODEV;
	if (sim_np)
		return irq_set_irqchip_state(sim_irq, IRQCHIP_STATE_PENDING,
					     true);
	return generic_handle_irq_safe(sim_irq);
}

static int sim_remove_device(void)
{
	struct platform_device *pdev;

	if (!sim_present)
		return 0;
	sim_present = false;
	if (sim_pdev) {
		platform_device_unregister(sim_pdev);
		sim_pdev = NULL;
		return 0;
	}
	pdev = of_find_device_by_node(sim_np);
	if (pdev) {
		of_platform_device_destroy(&pdev->dev, NULL);
		put_device(&pdev->dev);
	}
	return 0;
}

/* a write-only parameter: writing a true value runs fn under sim_lock */
static int sim_trigger(const char *val, int (*fn)(void))
{
	bool on;
	int ret;

	ret = kstrtobool(val, &on);
	if (ret || !on)
		return ret;
	mutex_lock(&sim_lock);
	ret = fn();
	mutex_unlock(&sim_lock);
	return ret;
}

static int sim_raise_irq(const char *val, const struct kernel_param *kp)
{
	return sim_trigger(val, sim_raise);
}

static const struct kernel_param_ops sim_raise_irq_ops = {
	.set = sim_raise_irq,
};
module_param_cb(raise_irq, &sim_raise_irq_ops, NULL, 0200);
MODULE_PARM_DESC(raise_irq, "write 1 to raise the accelerator's interrupt once");

/* the port's registers in each state, for the design's 256-bit port 0 */
static const struct {
	const char *name;
	u32 handoff;		/* the ports the SPL configured */
	u32 fpgaportrst;	/* the ports out of reset */
} sim_ports[] = {
	{ "enabled", 0x3ff, 0x3ff },
	{ "reset", 0x3ff, 0 },		/* the fpga2sdram bridge not enabled */
	{ "unconfigured", 0, 0 },	/* a stock SPL */
	{ "narrow", 0x311, 0x3fff },	/* an SPL of a 64-bit port's design */
};

static int sim_port_write(unsigned int i)
{
	struct regmap *sdr, *sys;

	sdr = syscon_regmap_lookup_by_compatible("altr,sdr-ctl");
	if (IS_ERR(sdr))
		return PTR_ERR(sdr);
	sys = syscon_regmap_lookup_by_compatible("altr,sys-mgr");
	if (IS_ERR(sys))
		return PTR_ERR(sys);
	return regmap_write(sys, FPGAMR_SYSMGR_HANDOFF3, sim_ports[i].handoff) ?:
	       regmap_write(sdr, FPGAMR_SDR_FPGAPORTRST, sim_ports[i].fpgaportrst);
}

static int sim_set_port(const char *val, const struct kernel_param *kp)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_ports); i++)
		if (sysfs_streq(val, sim_ports[i].name))
			return sim_port_write(i);
	return -EINVAL;
}

static const struct kernel_param_ops sim_port_ops = {
	.set = sim_set_port,
};
module_param_cb(fpga2sdram, &sim_port_ops, NULL, 0200);
MODULE_PARM_DESC(fpga2sdram,
		 "the FPGA-to-SDRAM port's registers: enabled (at load), reset, unconfigured or narrow (a tree with the altr,sdr-ctl and altr,sys-mgr syscons only)");

/* the FPGA manager's stat and brgmodrst in each state (test/port_state.c's fixtures) */
static const struct {
	const char *name;
	struct fpgamr_hps_regs regs;
} sim_hps[] = {
	{ "ready", { 0x54, 0x0 } },
	{ "unprogrammed", { 0x52, 0x7 } },
	{ "bridge-reset", { 0x54, 0x7 } },
};

static int sim_hps_write(unsigned int i)
{
	struct regmap *fpgamgr, *rstmgr;
	int ret;

	ret = fpgamr_hps_regmaps(&fpgamgr, &rstmgr);
	if (ret)
		return ret;
	return regmap_write(fpgamgr, FPGAMR_FPGAMGR_STAT, sim_hps[i].regs.fpgamgr_stat) ?:
	       regmap_write(rstmgr, FPGAMR_RSTMGR_BRGMODRST, sim_hps[i].regs.brgmodrst);
}

static int sim_set_hps(const char *val, const struct kernel_param *kp)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_hps); i++)
		if (sysfs_streq(val, sim_hps[i].name))
			return sim_hps_write(i);
	return -EINVAL;
}

static const struct kernel_param_ops sim_hps_ops = {
	.set = sim_set_hps,
};
module_param_cb(hps, &sim_hps_ops, NULL, 0200);
MODULE_PARM_DESC(hps,
		 "the FPGA manager's stat and the reset manager's brgmodrst: ready (at load), unprogrammed or bridge-reset (a tree with altr,socfpga-fpga-mgr and altr,rst-mgr only)");

static int sim_unplug(const char *val, const struct kernel_param *kp)
{
	return sim_trigger(val, sim_remove_device);
}

static const struct kernel_param_ops sim_unplug_ops = {
	.set = sim_unplug,
};
module_param_cb(unplug, &sim_unplug_ops, NULL, 0200);
MODULE_PARM_DESC(unplug, "write 1 to remove the accelerator, as removing its overlay would");

/* Every page of [pfn, pfn + n) is allocatable low memory. */
static bool sim_is_ram(unsigned long pfn, unsigned long n)
{
	for (; n; n--, pfn++) {
		struct page *page;

		if (!pfn_valid(pfn))
			return false;
		page = pfn_to_page(pfn);
		if (PageReserved(page) || PageHighMem(page))
			return false;
	}
	return true;
}

static int sim_mmap(struct file *filp, struct vm_area_struct *vma)
{
	unsigned long pages = vma_pages(vma);
	unsigned long pfn = vma->vm_pgoff;
	unsigned long first = PHYS_PFN(sim_window.start);
	unsigned long end = PHYS_PFN(PAGE_ALIGN(sim_window.end + 1));
	unsigned long len = vma->vm_end - vma->vm_start;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (pfn >= first && pages <= end - first && pfn - first <= end - first - pages)
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	else if (!sim_is_ram(pfn, pages))
		return -EINVAL;
	return remap_pfn_range(vma, vma->vm_start, pfn, len,
			       vma->vm_page_prot);
}

/*
 * The bus address behind a user address of the caller's: the page table
 * fpgamr.ko's mmap wrote (a PFN map) gives the page, and a bus address here
 * is the physical one, as sim_mmap's offsets are (neither test machine has
 * an IOMMU or a DMA offset).
 */
static long sim_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	u64 __user *uarg = (u64 __user *)arg;
	struct vm_area_struct *vma;
	unsigned long pfn;
	u64 addr;
	int ret;

	if (cmd != FPGAMR_SIM_IOC_BUS_ADDR)
		return -ENOTTY;
	if (get_user(addr, uarg))
		return -EFAULT;
	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, (unsigned long)addr);
	ret = vma ? follow_pfn(vma, (unsigned long)addr, &pfn) : -EFAULT;
	mmap_read_unlock(current->mm);
	if (ret)
		return ret;
	return put_user((u64)PFN_PHYS(pfn) + offset_in_page(addr), uarg);
}

static const struct file_operations sim_fops = {
	.owner = THIS_MODULE,
	.mmap = sim_mmap,
	.unlocked_ioctl = sim_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice sim_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "fpgamr-sim",
	.fops = &sim_fops,
	.mode = 0600,
};

static int sim_init_window(void)
{
	void __iomem *w;

	if (!sim_design_id)
		return 0;
	w = ioremap(sim_window.start, FPGAMR_WINDOW_BYTES);
	if (!w)
		return -ENOMEM;
	memset_io(w, 0, FPGAMR_WINDOW_BYTES);
	writel(sim_design_id, w + FPGAMR_REG_DESIGN_ID);
	writel(FPGAMR_REGMAP_VERSION, w + FPGAMR_REG_REGMAP_VERSION);
	writel(SIM_DESIGN_PARAMS, w + FPGAMR_REG_DESIGN_PARAMS);
	iounmap(w);
	return 0;
}

/* device tree: the node is the board's; we only find its window and line */
static int sim_find_node(void)
{
	int ret;

	sim_np = of_find_compatible_node(NULL, NULL, FPGAMR_OF_COMPATIBLE);
	if (!sim_np)
		return -ENODEV;
	ret = of_address_to_resource(sim_np, 0, &sim_window);
	if (ret) {
		pr_err("fpgamr_sim: %pOF has no register window\n", sim_np);
		return ret;
	}
	sim_regs = sim_window.start;
	sim_irq = irq_of_parse_and_map(sim_np, 0);
	if (!sim_irq) {
		pr_err("fpgamr_sim: %pOF has no interrupt\n", sim_np);
		return -EINVAL;
	}
	return 0;
}

/*
 * No device tree: the window is regs=, the line an interrupt of our own that
 * raise_irq runs through the generic IRQ layer (masking and resend included).
 */
static int sim_own_irq(void)
{
	int irq;

	sim_window = (struct resource)DEFINE_RES_MEM(sim_regs, FPGAMR_WINDOW_BYTES);
	irq = irq_alloc_desc(NUMA_NO_NODE);
	if (irq < 0)
		return irq;
	irq_set_chip_and_handler(irq, &dummy_irq_chip, handle_simple_irq);
	/* level, as the accelerator's line: not resent after an unmask */
	irq_set_status_flags(irq, IRQ_LEVEL);
	sim_irq = irq;
	return 0;
}

/* ... and the platform device fpgamr.ko binds to by name */
static int sim_register_pdev(void)
{
	struct resource res[2] = {
		sim_window,
		DEFINE_RES_IRQ(sim_irq),
	};
	struct platform_device_info info = {
		.name = "fpgamr-md5",
		.id = PLATFORM_DEVID_NONE,
		.res = res,
		.num_res = ARRAY_SIZE(res),
		.dma_mask = DMA_BIT_MASK(32),
	};

	sim_pdev = platform_device_register_full(&info);
	return PTR_ERR_OR_ZERO(sim_pdev);
}

static void sim_release(void)
{
	if (sim_np)	/* the node's interrupt mapping is the driver's too */
		of_node_put(sim_np);
	else if (sim_irq)
		irq_free_desc(sim_irq);
	sim_np = NULL;
	sim_irq = 0;
}

static int __init sim_init(void)
{
	int ret;

	if (sim_regs) {
		if (!PAGE_ALIGNED(sim_regs))
			return -EINVAL;
		ret = sim_own_irq();
	} else {
		ret = sim_find_node();
	}
	if (ret)
		goto err;
	ret = sim_init_window();
	if (ret)
		goto err;
	/* the port as a configured board has it, where the tree has one */
	ret = sim_np ? sim_port_write(0) : 0;
	if (ret && ret != -ENODEV)
		goto err;
	/* and the FPGA programmed, its bridges released */
	ret = sim_np ? sim_hps_write(0) : 0;
	if (ret && ret != -ENODEV)
		goto err;
	ret = misc_register(&sim_misc);
	if (ret)
		goto err;
	if (!sim_np) {
		ret = sim_register_pdev();
		if (ret) {
			misc_deregister(&sim_misc);
			goto err;
		}
	}
	sim_present = true;
	pr_info("fpgamr_sim: window %pR, irq %u, %s\n", &sim_window, sim_irq,
		sim_np ? "device-tree node" : "platform device");
	return 0;
err:
	sim_release();
	return ret;
}
module_init(sim_init);

static void __exit sim_exit(void)
{
	misc_deregister(&sim_misc);
	mutex_lock(&sim_lock);
	if (sim_pdev)
		sim_remove_device();
	mutex_unlock(&sim_lock);
	sim_release();
}
module_exit(sim_exit);

MODULE_DESCRIPTION("fpgamr test only: the FPGA side of the accelerator's bus");
MODULE_LICENSE("GPL");
