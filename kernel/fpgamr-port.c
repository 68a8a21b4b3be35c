// SPDX-License-Identifier: GPL-2.0
/*
 * fpgamr-port.c - the FPGA-to-SDRAM port's state at probe, before each job,
 * and in sysfs
 *
 * On a Cyclone V SoC (a device tree with the altr,sdr-ctl and altr,sys-mgr
 * syscons, as socfpga.dtsi has and altera-fpga2sdram uses) the probe logs
 * the port's state in one line (fpgamr-port.h) and the configuration the
 * bootloader applied; SUBMIT reads it again and refuses a job on a port that
 * could not carry its DMA (ENOLINK, the line logged); the attribute
 * fpga2sdram reads the registers again each time, so user space can name
 * what it found when a DMA never completes. The fpga2sdram bridge's state is
 * the port's reset (the bridge driver writes fpgaportrst). An enabled port
 * narrower or wider than the design's bus (DESIGN_PARAMS) is refused the
 * same way.
 *
 * Before the probe reads the accelerator's registers through the lightweight
 * HPS-to-FPGA bridge, it reads the FPGA manager's stat and the reset
 * manager's brgmodrst (fpgamr-port.h): an FPGA not in user mode or that
 * bridge in reset fails the probe with one line (those reads would not
 * answer). The driver's attributes fpga_manager, lw_bridge and fpga2sdram
 * (/sys/bus/platform/drivers/fpgamr-md5/) read the same registers each time,
 * bound or not, for the doctor. Elsewhere (no SDRAM controller, FPGA
 * manager or reset manager of a Cyclone V) the probe says so once and
 * nothing is read.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/mfd/syscon.h>
#include <linux/regmap.h>
#include <linux/sysfs.h>

#include "fpgamr-port.h"
#include "fpgamr-priv.h"

#define FPGAMR_PORT_LINE	256

static int fpgamr_port_lookup(struct fpgamr_port *port)
{
	port->sdrctl = syscon_regmap_lookup_by_compatible("altr,sdr-ctl");
	if (IS_ERR(port->sdrctl))
		return PTR_ERR(port->sdrctl);
	port->sysmgr = syscon_regmap_lookup_by_compatible("altr,sys-mgr");
	if (IS_ERR(port->sysmgr))
		return PTR_ERR(port->sysmgr);
	return 0;
}

static int fpgamr_port_read(const struct fpgamr_port *port,
			    struct fpgamr_port_regs *r)
{
	static const struct {
		unsigned int off;
		size_t field;
	} sdr[] = {
		{ FPGAMR_SDR_FPGAPORTRST, offsetof(struct fpgamr_port_regs, fpgaportrst) },
		{ FPGAMR_SDR_STATICCFG, offsetof(struct fpgamr_port_regs, staticcfg) },
		{ FPGAMR_SDR_CPORTWIDTH, offsetof(struct fpgamr_port_regs, cportwidth) },
		{ FPGAMR_SDR_CPORTWMAP, offsetof(struct fpgamr_port_regs, cportwmap) },
		{ FPGAMR_SDR_CPORTRMAP, offsetof(struct fpgamr_port_regs, cportrmap) },
		{ FPGAMR_SDR_RFIFOCMAP, offsetof(struct fpgamr_port_regs, rfifocmap) },
		{ FPGAMR_SDR_WFIFOCMAP, offsetof(struct fpgamr_port_regs, wfifocmap) },
		{ FPGAMR_SDR_CPORTRDWR, offsetof(struct fpgamr_port_regs, cportrdwr) },
		{ FPGAMR_SDR_PORTCFG, offsetof(struct fpgamr_port_regs, portcfg) },
		{ FPGAMR_SDR_FIFOCFG, offsetof(struct fpgamr_port_regs, fifocfg) },
	};
	unsigned int val, i;
	int ret;

	ret = regmap_read(port->sysmgr, FPGAMR_SYSMGR_HANDOFF3, &val);
	if (ret)
		return ret;
	r->handoff = val;
	for (i = 0; i < ARRAY_SIZE(sdr); i++) {
		ret = regmap_read(port->sdrctl, sdr[i].off, &val);
		if (ret)
			return ret;
		*(__u32 *)((char *)r + sdr[i].field) = val;
	}
	return 0;
}

/* the port's line for a design of bus_bits (0: not known) into line */
static int fpgamr_port_line(unsigned int bus_bits, char *line, size_t len)
{
	struct fpgamr_port_regs r;
	struct fpgamr_port port;
	int ret;

	/* the syscons outlive the device: no state of ours to outlive here */
	ret = fpgamr_port_lookup(&port) ?: fpgamr_port_read(&port, &r);
	if (ret)
		return ret;
	fpgamr_port_describe_for(&r, bus_bits, line, len);
	return 0;
}

static ssize_t fpga2sdram_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct fpgamr_dev *fdev = dev_get_drvdata(dev);
	char line[FPGAMR_PORT_LINE];
	int ret;

	if (!fdev)
		return -ENODEV;	/* a probe failing after it made the file */
	ret = fpgamr_port_line(fdev->port.bus_bits, line, sizeof(line));
	if (ret)
		return ret;
	return sysfs_emit(buf, "%s\n", line);
}
static DEVICE_ATTR_RO(fpga2sdram);

/* ---- the FPGA manager and the lightweight bridge ------------------------ */

static int fpgamr_hps_read(struct fpgamr_hps_regs *r)
{
	struct regmap *fpgamgr, *rstmgr;
	unsigned int val;
	int ret;

	ret = fpgamr_hps_regmaps(&fpgamgr, &rstmgr);
	if (ret)
		return ret;
	ret = regmap_read(fpgamgr, FPGAMR_FPGAMGR_STAT, &val);
	if (ret)
		return ret;
	r->fpgamgr_stat = val;
	ret = regmap_read(rstmgr, FPGAMR_RSTMGR_BRGMODRST, &val);
	if (ret)
		return ret;
	r->brgmodrst = val;
	return 0;
}

/*
 * Before the probe's first read of the accelerator's registers: 0 when they
 * can answer (or this is not a Cyclone V), -ENODEV with one line when the
 * FPGA is not in user mode or the lightweight bridge is in reset.
 */
int fpgamr_hps_probe(struct device *dev)
{
	struct fpgamr_hps_regs r;
	char line[FPGAMR_PORT_LINE];
	int ret;

	ret = fpgamr_hps_read(&r);
	if (ret == -ENODEV) {
		dev_info(dev,
			 "no Cyclone V FPGA manager or reset manager (altr,socfpga-fpga-mgr, altr,rst-mgr): FPGA state not read\n");
		return 0;
	}
	if (ret)
		return dev_err_probe(dev, ret, "FPGA manager or reset manager\n");
	if (!fpgamr_fpga_describe(&r, line, sizeof(line)) ||
	    !fpgamr_lwbridge_describe(&r, line, sizeof(line))) {
		dev_err(dev, "%s\n", line);
		return -ENODEV;
	}
	return 0;
}

static ssize_t fpgamr_hps_show(char *buf,
			       int (*describe)(const struct fpgamr_hps_regs *,
					       char *, size_t))
{
	struct fpgamr_hps_regs r;
	char line[FPGAMR_PORT_LINE];
	int ret;

	ret = fpgamr_hps_read(&r);
	if (ret)
		return ret;
	describe(&r, line, sizeof(line));
	return sysfs_emit(buf, "%s\n", line);
}

static ssize_t fpga_manager_show(struct device_driver *drv, char *buf)
{
	return fpgamr_hps_show(buf, fpgamr_fpga_describe);
}
static DRIVER_ATTR_RO(fpga_manager);

static ssize_t lw_bridge_show(struct device_driver *drv, char *buf)
{
	return fpgamr_hps_show(buf, fpgamr_lwbridge_describe);
}
static DRIVER_ATTR_RO(lw_bridge);

/* the port as the SPL left it, whatever design a device has */
static ssize_t fpga2sdram_drv_show(struct device_driver *drv, char *buf)
{
	char line[FPGAMR_PORT_LINE];
	int ret;

	ret = fpgamr_port_line(0, line, sizeof(line));
	if (ret)
		return ret;
	return sysfs_emit(buf, "%s\n", line);
}
static struct driver_attribute driver_attr_fpga2sdram =
	__ATTR(fpga2sdram, 0444, fpga2sdram_drv_show, NULL);

static struct attribute *fpgamr_hps_attrs[] = {
	&driver_attr_fpga_manager.attr,
	&driver_attr_lw_bridge.attr,
	&driver_attr_fpga2sdram.attr,
	NULL
};

static const struct attribute_group fpgamr_hps_group = {
	.attrs = fpgamr_hps_attrs,
};

const struct attribute_group *fpgamr_hps_groups[] = {
	&fpgamr_hps_group,
	NULL
};

static void fpgamr_port_remove(void *data)
{
	device_remove_file(data, &dev_attr_fpga2sdram);
}

/*
 * Before each job (SUBMIT, under the job lock): 0, or -ENOLINK with the
 * port's line logged when it is not configured or in reset.
 */
int fpgamr_port_check(struct device *dev, const struct fpgamr_port *port)
{
	struct fpgamr_port_regs r;
	char line[FPGAMR_PORT_LINE];
	enum fpgamr_port_state state;
	int ret;

	if (!port->sdrctl)
		return 0;	/* not a Cyclone V: nothing to read */
	ret = fpgamr_port_read(port, &r);
	if (ret)
		return ret;
	state = fpgamr_port_describe_for(&r, port->bus_bits, line, sizeof(line));
	if (fpgamr_port_job_ok(state))
		return 0;
	dev_err_ratelimited(dev, "job refused: %s\n", line);
	return -FPGAMR_PORT_ERRNO;
}

int fpgamr_port_probe(struct device *dev, struct fpgamr_port *port,
		      unsigned int bus_bits)
{
	struct fpgamr_port_regs r;
	char line[FPGAMR_PORT_LINE];
	int ret;

	port->bus_bits = bus_bits;
	ret = fpgamr_port_lookup(port) ?: fpgamr_port_read(port, &r);
	if (ret) {
		/* the x86 test machine: not a Cyclone V */
		port->sdrctl = NULL;
		dev_info(dev,
			 "no Cyclone V SDRAM controller (altr,sdr-ctl, altr,sys-mgr: %d): FPGA-to-SDRAM port not read\n",
			 ret);
		return 0;
	}
	if (fpgamr_port_describe_for(&r, bus_bits, line, sizeof(line)) ==
	    FPGAMR_PORT_ENABLED)
		dev_info(dev, "%s\n", line);
	else
		dev_err(dev, "%s\n", line);
	dev_info(dev,
		 "SDRAM port configuration: staticcfg 0x%08x cportwidth 0x%08x cportwmap 0x%08x cportrmap 0x%08x rfifocmap 0x%08x wfifocmap 0x%08x cportrdwr 0x%08x portcfg 0x%08x fifocfg 0x%08x\n",
		 r.staticcfg, r.cportwidth, r.cportwmap, r.cportrmap,
		 r.rfifocmap, r.wfifocmap, r.cportrdwr, r.portcfg, r.fifocfg);

	ret = device_create_file(dev, &dev_attr_fpga2sdram);
	if (ret)
		return ret;
	return devm_add_action_or_reset(dev, fpgamr_port_remove, dev);
}
