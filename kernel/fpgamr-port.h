/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fpgamr-port.h - the state of the Cyclone V FPGA-to-SDRAM port the
 * accelerator's DMA goes through, from the SDRAM controller's and the system
 * manager's registers.
 *
 * The port's configuration is written by the bootloader's first stage (U-Boot
 * SPL, built from the design's handoff), never by Linux. The SPL leaves the
 * mask of the ports it configured in the system manager's handoff register 3;
 * the fpga2sdram bridge driver releases exactly those ports in the SDRAM
 * controller's fpgaportrst when the overlay enables the bridge. A DMA through
 * a port that is not configured or still in reset never completes, with no
 * error anywhere: hence this one line at probe and before each job
 * (hdl/README.md, "On a DE10-Nano").
 *
 * No kernel API here: the driver (fpgamr-port.c) and its user-space test
 * (test/port_state.c) share it.
 */
#ifndef FPGAMR_PORT_H
#define FPGAMR_PORT_H

#include <linux/types.h>
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#else
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#endif

/* the SDRAM controller's registers, offsets in its altr,sdr-ctl syscon (0xffc25000) */
#define FPGAMR_SDR_STATICCFG	0x5c
#define FPGAMR_SDR_CPORTWIDTH	0x64
#define FPGAMR_SDR_CPORTWMAP	0x68
#define FPGAMR_SDR_CPORTRMAP	0x6c
#define FPGAMR_SDR_RFIFOCMAP	0x70
#define FPGAMR_SDR_WFIFOCMAP	0x74
#define FPGAMR_SDR_CPORTRDWR	0x78
#define FPGAMR_SDR_PORTCFG	0x7c
#define FPGAMR_SDR_FPGAPORTRST	0x80
#define FPGAMR_SDR_FIFOCFG	0x88
/* the system manager's handoff register 3, in its altr,sys-mgr syscon (0xffd08000) */
#define FPGAMR_SYSMGR_HANDOFF3	0x8c

/* fpgaportrst (1 = out of reset): read data ports 3:0, write data ports 7:4, command ports 13:8 */
#define FPGAMR_PORTRST_MASK	0x3fffu
#define FPGAMR_PORTRST_RD(m)	((m) & 0xfu)
#define FPGAMR_PORTRST_WR(m)	(((m) >> 4) & 0xfu)
#define FPGAMR_PORTRST_CMD(m)	(((m) >> 8) & 0x3fu)
/* each read or write data port carries 64 bits */
#define FPGAMR_PORT_DATA_BITS	64

struct fpgamr_port_regs {
	__u32 handoff;		/* the ports the SPL configured (fpgaportrst's form) */
	__u32 fpgaportrst;	/* the ports out of reset now */
	/* the configuration the SPL applied, reported as read */
	__u32 staticcfg, cportwidth, cportwmap, cportrmap, rfifocmap,
		wfifocmap, cportrdwr, portcfg, fifocfg;
};

enum fpgamr_port_state {
	FPGAMR_PORT_NO_HANDOFF,	/* the SPL configured no port */
	FPGAMR_PORT_RESET,	/* some configured port is held in reset */
	FPGAMR_PORT_ENABLED,	/* every configured port is out of reset */
	FPGAMR_PORT_WIDTH,	/* enabled, but not as wide as the design's bus */
};

static inline unsigned int fpgamr_port_count(__u32 bits)
{
	unsigned int n = 0;

	for (; bits; bits &= bits - 1)
		n++;
	return n;
}

/* the widest bus the configured ports carry: a read and a write data port per 64 bits */
static inline unsigned int fpgamr_port_bits(const struct fpgamr_port_regs *r)
{
	__u32 want = r->handoff & FPGAMR_PORTRST_MASK;
	unsigned int rd = fpgamr_port_count(FPGAMR_PORTRST_RD(want));
	unsigned int wr = fpgamr_port_count(FPGAMR_PORTRST_WR(want));

	return (rd < wr ? rd : wr) * FPGAMR_PORT_DATA_BITS;
}

static inline enum fpgamr_port_state
fpgamr_port_state(const struct fpgamr_port_regs *r)
{
	__u32 want = r->handoff & FPGAMR_PORTRST_MASK;

	if (!want)
		return FPGAMR_PORT_NO_HANDOFF;
	if ((r->fpgaportrst & want) != want)
		return FPGAMR_PORT_RESET;
	return FPGAMR_PORT_ENABLED;
}

/*
 * One line (no newline) saying the state and what to do about it into buf;
 * returns the state.
 */
static inline enum fpgamr_port_state
fpgamr_port_describe(const struct fpgamr_port_regs *r, char *buf, size_t len)
{
	enum fpgamr_port_state state = fpgamr_port_state(r);
	__u32 want = r->handoff & FPGAMR_PORTRST_MASK;
	__u32 held = want & ~r->fpgaportrst;
	unsigned int rd = fpgamr_port_count(FPGAMR_PORTRST_RD(want));
	unsigned int wr = fpgamr_port_count(FPGAMR_PORTRST_WR(want));

	switch (state) {
	case FPGAMR_PORT_NO_HANDOFF:
		snprintf(buf, len,
			 "FPGA-to-SDRAM port not configured (handoff 0x%08x, fpgaportrst 0x%08x): the bootloader's SPL was not built from this design's handoff; DMA cannot complete",
			 r->handoff, r->fpgaportrst);
		break;
	case FPGAMR_PORT_RESET:
		snprintf(buf, len,
			 "FPGA-to-SDRAM port in reset (fpgaportrst 0x%08x, handoff 0x%08x: %u command, %u read, %u write data ports held): the fpga2sdram bridge is not enabled; DMA cannot complete",
			 r->fpgaportrst, r->handoff,
			 fpgamr_port_count(FPGAMR_PORTRST_CMD(held)),
			 fpgamr_port_count(FPGAMR_PORTRST_RD(held)),
			 fpgamr_port_count(FPGAMR_PORTRST_WR(held)));
		break;
	default:
		snprintf(buf, len,
			 "FPGA-to-SDRAM port enabled (fpgaportrst 0x%08x, handoff 0x%08x: %u command, %u read, %u write data ports, up to %u bits)",
			 r->fpgaportrst, r->handoff,
			 fpgamr_port_count(FPGAMR_PORTRST_CMD(want)), rd, wr,
			 fpgamr_port_bits(r));
		break;
	}
	return state;
}

/*
 * The same, for a design whose data bus is bus_bits wide (DESIGN_PARAMS; 0:
 * not known): an enabled port of another width is FPGAMR_PORT_WIDTH, its
 * line naming both widths.
 */
static inline enum fpgamr_port_state
fpgamr_port_describe_for(const struct fpgamr_port_regs *r,
			 unsigned int bus_bits, char *buf, size_t len)
{
	enum fpgamr_port_state state = fpgamr_port_describe(r, buf, len);

	if (state != FPGAMR_PORT_ENABLED || !bus_bits ||
	    fpgamr_port_bits(r) == bus_bits)
		return state;
	snprintf(buf, len,
		 "FPGA-to-SDRAM port %u bits wide, the design's bus %u bits (fpgaportrst 0x%08x, handoff 0x%08x, cportwidth 0x%08x): the bootloader's SPL was built from another design's handoff; build it from this design's; DMA cannot complete",
		 fpgamr_port_bits(r), bus_bits, r->fpgaportrst, r->handoff,
		 r->cportwidth);
	return FPGAMR_PORT_WIDTH;
}

/*
 * Whether a job may start on a port in this state: 0, or the errno
 * FPGAMR_IOC_SUBMIT refuses it with (negated in the kernel; the UAPI's
 * ENOLINK): its DMA could never complete.
 */
#define FPGAMR_PORT_ERRNO	ENOLINK

static inline int fpgamr_port_job_ok(enum fpgamr_port_state state)
{
	return state == FPGAMR_PORT_ENABLED;
}

/*
 * What must hold before the lightweight HPS-to-FPGA bridge's window (the
 * accelerator's registers) is read: a read through a bridge held in reset,
 * or into an FPGA not in user mode, does not answer. From the Cyclone V
 * Hard Processor System Technical Reference Manual (Intel, cv_5v4):
 *  - FPGA Manager, register "stat" at offset 0x0 of its block (0xff706000,
 *    altr,socfpga-fpga-mgr): field "mode" bits 2:0, 0 FPGA powered off,
 *    1 reset phase, 2 configuration phase, 3 initialization phase, 4 user
 *    mode, 5 undetermined; field "msel" bits 7:3, the MSEL pins;
 *  - Reset Manager, register "brgmodrst" at offset 0x1c of its block
 *    (0xffd05000, altr,rst-mgr): bit 0 hps2fpga, bit 1 lwhps2fpga, bit 2
 *    fpga2hps, 1 = the bridge is held in reset.
 */
#define FPGAMR_FPGAMGR_STAT		0x0
#define FPGAMR_FPGAMGR_MODE(s)		((s) & 0x7u)
#define FPGAMR_FPGAMGR_MSEL(s)		(((s) >> 3) & 0x1fu)
#define FPGAMR_FPGAMGR_MODE_USER	4u
#define FPGAMR_RSTMGR_BRGMODRST		0x1c
#define FPGAMR_BRGMODRST_LWHPS2FPGA	0x2u

struct fpgamr_hps_regs {
	__u32 fpgamgr_stat;	/* the FPGA manager's stat */
	__u32 brgmodrst;	/* the reset manager's bridge resets */
};

/* One line (no newline) on the FPGA's state into buf; 1: in user mode. */
static inline int fpgamr_fpga_describe(const struct fpgamr_hps_regs *r,
				       char *buf, size_t len)
{
	static const char *const modes[] = {
		"powered off", "in its reset phase",
		"in its configuration phase", "in its initialization phase",
		"in user mode", "in an undetermined state",
	};
	unsigned int mode = FPGAMR_FPGAMGR_MODE(r->fpgamgr_stat);
	const char *what = mode < 6 ? modes[mode] : "in an unknown mode";

	if (mode == FPGAMR_FPGAMGR_MODE_USER) {
		snprintf(buf, len,
			 "FPGA in user mode (FPGA manager stat 0x%08x, msel 0x%02x)",
			 r->fpgamgr_stat, FPGAMR_FPGAMGR_MSEL(r->fpgamgr_stat));
		return 1;
	}
	snprintf(buf, len,
		 "FPGA not in user mode: %s (FPGA manager stat 0x%08x, mode %u, msel 0x%02x): it is not programmed; load this design's .rbf before Linux boots (the boot script, hdl/README.md, On a DE10-Nano)",
		 what, r->fpgamgr_stat, mode,
		 FPGAMR_FPGAMGR_MSEL(r->fpgamgr_stat));
	return 0;
}

/* One line on the lightweight bridge's reset into buf; 1: out of reset. */
static inline int fpgamr_lwbridge_describe(const struct fpgamr_hps_regs *r,
					   char *buf, size_t len)
{
	if (!(r->brgmodrst & FPGAMR_BRGMODRST_LWHPS2FPGA)) {
		snprintf(buf, len,
			 "lightweight HPS-to-FPGA bridge out of reset (brgmodrst 0x%08x)",
			 r->brgmodrst);
		return 1;
	}
	snprintf(buf, len,
		 "lightweight HPS-to-FPGA bridge in reset (brgmodrst 0x%08x): the accelerator's registers cannot be read; release it after loading the .rbf (U-Boot's 'bridge enable', hdl/README.md, On a DE10-Nano)",
		 r->brgmodrst);
	return 0;
}

#ifdef __KERNEL__
#include <linux/err.h>
#include <linux/mfd/syscon.h>
#include <linux/of.h>

struct attribute_group;
struct device;
struct regmap;

/*
 * A register block of the HPS by its node's compatible (the FPGA manager and
 * the reset manager are no syscons: no "syscon" compatible needed). The
 * driver reads through it; the test module writes its fake registers so.
 */
static inline struct regmap *fpgamr_hps_regmap(const char *compatible)
{
	struct device_node *np;
	struct regmap *map;

	np = of_find_compatible_node(NULL, NULL, compatible);
	if (!np)
		return ERR_PTR(-ENODEV);
	map = device_node_to_regmap(np);
	of_node_put(np);
	return map;
}

/* the FPGA manager's and the reset manager's blocks: 0, -ENODEV off a Cyclone V */
static inline int fpgamr_hps_regmaps(struct regmap **fpgamgr,
				     struct regmap **rstmgr)
{
	*fpgamgr = fpgamr_hps_regmap("altr,socfpga-fpga-mgr");
	if (IS_ERR(*fpgamgr))
		return PTR_ERR(*fpgamgr);
	*rstmgr = fpgamr_hps_regmap("altr,rst-mgr");
	return PTR_ERR_OR_ZERO(*rstmgr);
}

/**
 * struct fpgamr_port - the registers the port's state is read from
 * @sdrctl:	the SDRAM controller's syscon, NULL: not a Cyclone V
 * @sysmgr:	the system manager's syscon
 * @bus_bits:	the design's data bus (DESIGN_PARAMS), the width the port needs
 */
struct fpgamr_port {
	struct regmap *sdrctl;
	struct regmap *sysmgr;
	unsigned int bus_bits;
};

/* the driver's attributes: fpga_manager, lw_bridge, fpga2sdram */
extern const struct attribute_group *fpgamr_hps_groups[];

int fpgamr_hps_probe(struct device *dev);
int fpgamr_port_probe(struct device *dev, struct fpgamr_port *port,
		      unsigned int bus_bits);
int fpgamr_port_check(struct device *dev, const struct fpgamr_port *port);
#endif

#endif /* FPGAMR_PORT_H */
