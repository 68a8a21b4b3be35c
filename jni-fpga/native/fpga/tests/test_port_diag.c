/* test_port_diag.c: port_diag.c's one line for each state of the path to
 * memory. The fixtures are a sysfs tree as the kernel writes it: the
 * accelerator's fpga2sdram is what fpgamr.ko writes for register fixtures of
 * the SDRAM controller and system manager (kernel/fpgamr-port.h's decoding,
 * the driver's own, on the register values of kernel/test/port_state.c), the
 * bridges are the fpga_bridge class (brN/name, brN/state) as the Cyclone V
 * bridge drivers name them. Each case checks the exact line and the verdict.
 * usage: test_port_diag    prints "N passed, M failed" */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../../kernel/fpgamr-port.h"
#include "../port_diag.h"
#include "testing.h"

static char root[256];

static void put(const char *rel, const char *text)
{
    char path[600], dir[600];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = 0;
        mkdir(dir, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "fixture %s", path);
    if (!f) return;
    fprintf(f, "%s\n", text);
    fclose(f);
}

/* the device's fpga2sdram as fpgamr.ko writes it for these registers */
static void port(uint32_t handoff, uint32_t fpgaportrst)
{
    struct fpgamr_port_regs r = {.handoff = handoff, .fpgaportrst = fpgaportrst};
    char line[256];
    fpgamr_port_describe(&r, line, sizeof line);
    put("device/fpga2sdram", line);
}

/* the three bridges socfpga.dtsi has drivers for, in probe order */
static void bridges(const char *lw, const char *f2s)
{
    put("bridges/br0/name", "lwhps2fpga");
    put("bridges/br0/state", lw);
    put("bridges/br1/name", "hps2fpga");
    put("bridges/br1/state", "disabled");  /* the design does not use it: never named */
    put("bridges/br2/name", "fpga2sdram");
    put("bridges/br2/state", f2s);
}

static void expect(const char *what, int verdict, const char *line)
{
    char dev[300], br[300], mgr[300], got[1024];
    snprintf(dev, sizeof dev, "%s/device", root);
    snprintf(br, sizeof br, "%s/bridges", root);
    snprintf(mgr, sizeof mgr, "%s/managers", root);
    int v = fpgamr_port_diagnose(dev, br, mgr, got, sizeof got);
    CHECK(v == verdict && strcmp(got, line) == 0, "%s: verdict %d (want %d)\n  got  %s\n  want %s", what, v, verdict, got,
          line);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/device' '%s/bridges' '%s/managers'", root, root, root);
    CHECK(system(cmd) == 0, "%s", cmd);
}

int main(void)
{
    char want[1024];
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/port-diag-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        printf("test_port_diag: no temporary folder %s\n", root);
        return 1;
    }

    port(0, 0);  /* a stock SPL */
    bridges("enabled", "enabled");
    expect("stock SPL", FPGAMR_PATH_PORT,
           "FPGA-to-SDRAM port not configured (handoff 0x00000000, fpgaportrst 0x00000000): the bootloader's SPL was not "
           "built from this design's handoff; DMA cannot complete (see hdl/README.md, On a DE10-Nano)");

    port(0x3ff, 0);  /* the design's port 0, held in reset */
    bridges("enabled", "disabled");
    expect("port in reset", FPGAMR_PATH_PORT,
           "FPGA-to-SDRAM port in reset (fpgaportrst 0x00000000, handoff 0x000003ff: 2 command, 4 read, 4 write data ports "
           "held): the fpga2sdram bridge is not enabled; DMA cannot complete (see hdl/README.md, On a DE10-Nano)");

    port(0x3ff, 0x3ff);  /* port out of reset, the register bridge disabled */
    bridges("disabled", "enabled");
    expect("lightweight bridge disabled", FPGAMR_PATH_BRIDGE,
           "FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, 4 read, 4 write data ports, "
           "up to 256 bits), bridge br0 (lwhps2fpga) disabled: the overlay enables the design's bridges (see hdl/README.md, "
           "On a DE10-Nano)");

    port(0x3ff, 0x3ff);  /* the fpga2sdram bridge driver not loaded */
    put("bridges/br0/name", "lwhps2fpga");
    put("bridges/br0/state", "enabled");
    snprintf(want, sizeof want,
             "FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, 4 read, 4 write data ports, "
             "up to 256 bits), bridge fpga2sdram not registered (no %s/bridges/br*/name reads fpga2sdram): the overlay "
             "enables the design's bridges (see hdl/README.md, On a DE10-Nano)",
             root);
    expect("fpga2sdram bridge not registered", FPGAMR_PATH_BRIDGE, want);

    port(0x3ff, 0x3ff);  /* everything as it should be */
    bridges("enabled", "enabled");
    expect("port and bridges fine", FPGAMR_PATH_FINE,
           "FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, 4 read, 4 write data ports, "
           "up to 256 bits) and bridges lwhps2fpga, fpga2sdram enabled: the design did not answer");

    port(0x3ff, 0x3ff);  /* everything as it should be, on a kernel that can reprogram the FPGA */
    bridges("enabled", "enabled");
    put("managers/fpga0/name", "Altera SOCFPGA FPGA Manager");
    snprintf(want, sizeof want,
             "FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, 4 read, 4 write data ports, "
             "up to 256 bits) and bridges lwhps2fpga, fpga2sdram enabled: the design did not answer, or the port stalled "
             "because Linux reprogrammed the FPGA (%s/managers/fpga0): the SDRAM controller applies the port's configuration "
             "only when the bootloader sets staticcfg.applycfg; load the design at boot and reboot (see hdl/README.md, On a "
             "DE10-Nano)",
             root);
    expect("a kernel with an FPGA manager: the stall after a reprogram", FPGAMR_PATH_FINE, want);

    put("device/uevent", "");  /* not a Cyclone V: no fpga2sdram, no bridge class */
    snprintf(want, sizeof want,
             "FPGA-to-SDRAM port not readable here (no fpga2sdram in the device's sysfs: not a Cyclone V), no FPGA bridges "
             "in sysfs (no %s/bridges): the design did not answer",
             root);
    expect("nothing exposed", FPGAMR_PATH_FINE, want);

    rmdir(root);
    printf("test_port_diag: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
