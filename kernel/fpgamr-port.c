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
 * the port's reset (the bridge driver writes fpgaportrst); the lightweight
 * HPS-to-FPGA bridge's is not read: with it in reset the probe's register
 * reads would not have answered. Elsewhere (no SDRAM controller of a
 * Cyclone V) the probe says so once and nothing is read.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/mfd/syscon.h>
#include <linux/regmap.h>
#include <linux/sysfs.h>

#include "fpgamr-port.h"

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

static ssize_t fpga2sdram_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct fpgamr_port_regs r;
	struct fpgamr_port port;
	char line[FPGAMR_PORT_LINE];
	int ret;

	/* the syscons outlive the device: no state of ours to outlive here */
	ret = fpgamr_port_lookup(&port) ?: fpgamr_port_read(&port, &r);
	if (ret)
		return ret;
	fpgamr_port_describe(&r, line, sizeof(line));
	return sysfs_emit(buf, "%s\n", line);
}
static DEVICE_ATTR_RO(fpga2sdram);

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
	state = fpgamr_port_describe(&r, line, sizeof(line));
	if (fpgamr_port_job_ok(state))
		return 0;
	dev_err_ratelimited(dev, "job refused: %s\n", line);
	return -FPGAMR_PORT_ERRNO;
}

int fpgamr_port_probe(struct device *dev, struct fpgamr_port *port)
{
	struct fpgamr_port_regs r;
	char line[FPGAMR_PORT_LINE];
	int ret;

	ret = fpgamr_port_lookup(port) ?: fpgamr_port_read(port, &r);
	if (ret) {
		/* the x86 test machine: not a Cyclone V */
		port->sdrctl = NULL;
		dev_info(dev,
			 "no Cyclone V SDRAM controller (altr,sdr-ctl, altr,sys-mgr: %d): FPGA-to-SDRAM port not read\n",
			 ret);
		return 0;
	}
	if (fpgamr_port_describe(&r, line, sizeof(line)) == FPGAMR_PORT_ENABLED)
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
