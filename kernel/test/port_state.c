// SPDX-License-Identifier: GPL-2.0
/*
 * port_state.c - the FPGA-to-SDRAM port's state (fpgamr-port.h) against
 * register fixtures of each state, as the driver reads them at probe: the
 * system manager's handoff register 3 and the SDRAM controller's fpgaportrst.
 * The fixtures are the design's port (256-bit AXI port 0: two command ports,
 * four read and four write data ports, mask 0x3ff) after a stock SPL (no
 * handoff), with the bridge not enabled (in reset), with its write ports left
 * in reset, enabled, and a narrower port's (64-bit AXI: mask 0x311) enabled.
 * Each case checks the state, the exact line and whether FPGAMR_IOC_SUBMIT
 * starts a job on it (else ENOLINK). Exit status 1 on a failure.
 */
#include <stdio.h>
#include <string.h>

#include "../fpgamr-port.h"

struct fixture {
	const char *name;
	struct fpgamr_port_regs regs;
	enum fpgamr_port_state state;
	int job_ok;
	const char *line;
};

static const struct fixture fixtures[] = {
	{ "stock SPL: no port configured", { .handoff = 0, .fpgaportrst = 0 },
	  FPGAMR_PORT_NO_HANDOFF, 0,
	  "FPGA-to-SDRAM port not configured (handoff 0x00000000, fpgaportrst 0x00000000): the bootloader's SPL was not built from this design's handoff; DMA cannot complete" },
	{ "port in reset: bridge not enabled", { .handoff = 0x3ff, .fpgaportrst = 0 },
	  FPGAMR_PORT_RESET, 0,
	  "FPGA-to-SDRAM port in reset (fpgaportrst 0x00000000, handoff 0x000003ff: 2 command, 4 read, 4 write data ports held): the fpga2sdram bridge is not enabled; DMA cannot complete" },
	{ "write data ports in reset", { .handoff = 0x3ff, .fpgaportrst = 0x30f },
	  FPGAMR_PORT_RESET, 0,
	  "FPGA-to-SDRAM port in reset (fpgaportrst 0x0000030f, handoff 0x000003ff: 0 command, 0 read, 4 write data ports held): the fpga2sdram bridge is not enabled; DMA cannot complete" },
	{ "port enabled", { .handoff = 0x3ff, .fpgaportrst = 0x3ff, .portcfg = 0x10 },
	  FPGAMR_PORT_ENABLED, 1,
	  "FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, 4 read, 4 write data ports, up to 256 bits)" },
	{ "64-bit port enabled", { .handoff = 0x311, .fpgaportrst = 0x3fff },
	  FPGAMR_PORT_ENABLED, 1,
	  "FPGA-to-SDRAM port enabled (fpgaportrst 0x00003fff, handoff 0x00000311: 2 command, 1 read, 1 write data ports, up to 64 bits)" },
	{ "handoff bits above the mask ignored", { .handoff = 0xffffc000, .fpgaportrst = 0 },
	  FPGAMR_PORT_NO_HANDOFF, 0,
	  "FPGA-to-SDRAM port not configured (handoff 0xffffc000, fpgaportrst 0x00000000): the bootloader's SPL was not built from this design's handoff; DMA cannot complete" },
};

int main(void)
{
	unsigned int i, failed = 0, n = sizeof(fixtures) / sizeof(fixtures[0]);
	char line[256];

	for (i = 0; i < n; i++) {
		const struct fixture *f = &fixtures[i];
		enum fpgamr_port_state got = fpgamr_port_describe(&f->regs, line, sizeof(line));

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
	printf("port_state: %u passed, %u failed\n", n + 1 - failed, failed);
	return failed != 0;
}
