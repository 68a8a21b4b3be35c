// SPDX-License-Identifier: GPL-2.0
/*
 * port_state.c - the FPGA-to-SDRAM port's state (fpgamr-port.h) against
 * register fixtures of each state, as the driver reads them at probe: the
 * system manager's handoff register 3 and the SDRAM controller's fpgaportrst.
 * The fixtures are the design's port (256-bit AXI port 0: two command ports,
 * four read and four write data ports, mask 0x3ff) after a stock SPL (no
 * handoff), with the bridge not enabled (in reset), with its write ports left
 * in reset, enabled, and a narrower port's (64-bit AXI: mask 0x311) enabled,
 * for a design of unknown bus and for one whose bus is 256 bits wide (the
 * 64-bit port is then the wrong width). Each case checks the state, the exact
 * line and whether FPGAMR_IOC_SUBMIT starts a job on it (else ENOLINK).
 * Then the FPGA manager's stat and the reset manager's brgmodrst (the values
 * are fixtures; msel 0x0a is any MSEL setting): the probe's line and whether
 * it reads the registers behind the lightweight bridge. Exit status 1 on a
 * failure.
 */
#include <stdio.h>
#include <string.h>

#include "../fpgamr-port.h"

struct fixture {
	const char *name;
	struct fpgamr_port_regs regs;
	unsigned int bus_bits;	/* the design's, 0: not known */
	enum fpgamr_port_state state;
	int job_ok;
	const char *line;
};

static const struct fixture fixtures[] = {
	{ "stock SPL: no port configured", { .handoff = 0, .fpgaportrst = 0 }, 0,
	  FPGAMR_PORT_NO_HANDOFF, 0,
	  "FPGA-to-SDRAM port not configured (handoff 0x00000000, fpgaportrst 0x00000000): the bootloader's SPL was not built from this design's handoff; DMA cannot complete" },
	{ "port in reset: bridge not enabled", { .handoff = 0x3ff, .fpgaportrst = 0 }, 0,
	  FPGAMR_PORT_RESET, 0,
	  "FPGA-to-SDRAM port in reset (fpgaportrst 0x00000000, handoff 0x000003ff: 2 command, 4 read, 4 write data ports held): the fpga2sdram bridge is not enabled; DMA cannot complete" },
	{ "write data ports in reset", { .handoff = 0x3ff, .fpgaportrst = 0x30f }, 0,
	  FPGAMR_PORT_RESET, 0,
	  "FPGA-to-SDRAM port in reset (fpgaportrst 0x0000030f, handoff 0x000003ff: 0 command, 0 read, 4 write data ports held): the fpga2sdram bridge is not enabled; DMA cannot complete" },
	{ "port enabled", { .handoff = 0x3ff, .fpgaportrst = 0x3ff, .portcfg = 0x10 }, 0,
	  FPGAMR_PORT_ENABLED, 1,
	  "FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, 4 read, 4 write data ports, up to 256 bits)" },
	{ "64-bit port enabled", { .handoff = 0x311, .fpgaportrst = 0x3fff }, 0,
	  FPGAMR_PORT_ENABLED, 1,
	  "FPGA-to-SDRAM port enabled (fpgaportrst 0x00003fff, handoff 0x00000311: 2 command, 1 read, 1 write data ports, up to 64 bits)" },
	{ "256-bit port, 256-bit design", { .handoff = 0x3ff, .fpgaportrst = 0x3ff }, 256,
	  FPGAMR_PORT_ENABLED, 1,
	  "FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, 4 read, 4 write data ports, up to 256 bits)" },
	{ "64-bit port, 256-bit design", { .handoff = 0x311, .fpgaportrst = 0x3fff, .cportwidth = 0x44555 }, 256,
	  FPGAMR_PORT_WIDTH, 0,
	  "FPGA-to-SDRAM port 64 bits wide, the design's bus 256 bits (fpgaportrst 0x00003fff, handoff 0x00000311, cportwidth 0x00044555): the bootloader's SPL was built from another design's handoff; build it from this design's; DMA cannot complete" },
	{ "port in reset, 256-bit design: the reset first", { .handoff = 0x311, .fpgaportrst = 0 }, 256,
	  FPGAMR_PORT_RESET, 0,
	  "FPGA-to-SDRAM port in reset (fpgaportrst 0x00000000, handoff 0x00000311: 2 command, 1 read, 1 write data ports held): the fpga2sdram bridge is not enabled; DMA cannot complete" },
	{ "handoff bits above the mask ignored", { .handoff = 0xffffc000, .fpgaportrst = 0 }, 0,
	  FPGAMR_PORT_NO_HANDOFF, 0,
	  "FPGA-to-SDRAM port not configured (handoff 0xffffc000, fpgaportrst 0x00000000): the bootloader's SPL was not built from this design's handoff; DMA cannot complete" },
};

struct hps_fixture {
	const char *name;
	struct fpgamr_hps_regs regs;
	int fpga_ok, bridge_ok;
	const char *line;	/* the probe's: the first that fails, else the bridge's */
};

static const struct hps_fixture hps_fixtures[] = {
	{ "user mode, bridges out of reset", { 0x54, 0x0 }, 1, 1,
	  "lightweight HPS-to-FPGA bridge out of reset (brgmodrst 0x00000000)" },
	{ "user mode, the other bridges in reset", { 0x54, 0x5 }, 1, 1,
	  "lightweight HPS-to-FPGA bridge out of reset (brgmodrst 0x00000005)" },
	{ "user mode, every bridge in reset (cold boot)", { 0x54, 0x7 }, 1, 0,
	  "lightweight HPS-to-FPGA bridge in reset (brgmodrst 0x00000007): the accelerator's registers cannot be read; release it after loading the .rbf (U-Boot's 'bridge enable', hdl/README.md, On a DE10-Nano)" },
	{ "not programmed: configuration phase", { 0x52, 0x7 }, 0, 0,
	  "FPGA not in user mode: in its configuration phase (FPGA manager stat 0x00000052, mode 2, msel 0x0a): it is not programmed; load this design's .rbf before Linux boots (the boot script, hdl/README.md, On a DE10-Nano)" },
	{ "powered off", { 0x50, 0x0 }, 0, 1,
	  "FPGA not in user mode: powered off (FPGA manager stat 0x00000050, mode 0, msel 0x0a): it is not programmed; load this design's .rbf before Linux boots (the boot script, hdl/README.md, On a DE10-Nano)" },
	{ "mode 7: unknown", { 0x57, 0x0 }, 0, 1,
	  "FPGA not in user mode: in an unknown mode (FPGA manager stat 0x00000057, mode 7, msel 0x0a): it is not programmed; load this design's .rbf before Linux boots (the boot script, hdl/README.md, On a DE10-Nano)" },
};

/* the probe's order: the FPGA's line when it fails, else the bridge's */
static unsigned int check_hps(void)
{
	unsigned int i, failed = 0;
	char line[256], other[256];

	for (i = 0; i < sizeof(hps_fixtures) / sizeof(hps_fixtures[0]); i++) {
		const struct hps_fixture *f = &hps_fixtures[i];
		int fpga = fpgamr_fpga_describe(&f->regs, line, sizeof(line));
		int bridge = fpgamr_lwbridge_describe(&f->regs, fpga ? line : other,
						      sizeof(other));

		if (fpga != f->fpga_ok || bridge != f->bridge_ok || strcmp(line, f->line)) {
			printf("FAIL %s: fpga %d (want %d), bridge %d (want %d)\n  got  %s\n  want %s\n",
			       f->name, fpga, f->fpga_ok, bridge, f->bridge_ok, line, f->line);
			failed++;
		} else {
			printf("ok   %s\n", f->name);
		}
	}
	return failed;
}

int main(void)
{
	unsigned int i, failed = 0, n = sizeof(fixtures) / sizeof(fixtures[0]);
	char line[256];

	for (i = 0; i < n; i++) {
		const struct fixture *f = &fixtures[i];
		enum fpgamr_port_state got =
			fpgamr_port_describe_for(&f->regs, f->bus_bits, line, sizeof(line));

		if (got != f->state || strcmp(line, f->line) ||
		    fpgamr_port_job_ok(got) != f->job_ok) {
			printf("FAIL %s: state %d (want %d), job %s (want %s)\n  got  %s\n  want %s\n",
			       f->name, got, f->state,
			       fpgamr_port_job_ok(got) ? "started" : "refused",
			       f->job_ok ? "started" : "refused", line, f->line);
			failed++;
		} else {
			printf("ok   %s\n", f->name);
		}
	}
	/* a line cut short by a small buffer is still terminated */
	fpgamr_port_describe(&fixtures[1].regs, line, 16);
	if (strlen(line) != 15) {
		printf("FAIL a 16-byte buffer holds %zu characters\n", strlen(line));
		failed++;
	}
	failed += check_hps();
	n += sizeof(hps_fixtures) / sizeof(hps_fixtures[0]);
	printf("port_state: %u passed, %u failed\n", n + 1 - failed, failed);
	return failed != 0;
}
