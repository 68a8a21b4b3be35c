/* port_diag.c: why the accelerator's DMA did not complete, in one line, from
 * what the kernel exposes about the path to memory: the FPGA-to-SDRAM port
 * (fpgamr.ko's sysfs attribute fpga2sdram, read from the SDRAM controller's
 * registers at each read; only on a Cyclone V, kernel/fpgamr-port.c) and the
 * FPGA bridges the design goes through (the fpga_bridge class: brN/name and
 * brN/state); with both fine, where the kernel has an FPGA manager (the
 * fpga_manager class), the stall of a port after Linux reprograms the FPGA. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port_diag.h"

#define SEE_BOARD "see hdl/README.md, On a DE10-Nano"
/* fpgamr.ko's line for a port that carries DMA (kernel/fpgamr-port.h) */
#define PORT_ENABLED "FPGA-to-SDRAM port enabled"

/* the bridges of the design's overlay (hdl/dts: fpga_bridge0, fpga_bridge3),
 * as their drivers name them (altera-hps2fpga, altera-fpga2sdram) */
static const char *const design_bridges[] = {"lwhps2fpga", "fpga2sdram"};
#define NBRIDGES (sizeof design_bridges / sizeof design_bridges[0])

static int read_line(const char *dir, const char *name, char *buf, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char *got = fgets(buf, (int)len, f);
    fclose(f);
    if (!got) return -1;
    buf[strcspn(buf, "\n")] = 0;
    return 0;
}

/* the state of each design bridge in the class folder: 1 enabled, 0 not
 * enabled (its brN in *br), -1 not registered; returns -1 without the folder */
static int bridge_states(const char *bridges, int state[NBRIDGES], char br[NBRIDGES][32])
{
    DIR *dir = opendir(bridges);
    if (!dir) return -1;
    for (size_t i = 0; i < NBRIDGES; i++) state[i] = -1;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        char sub[512], name[64], st[32];
        if (e->d_name[0] == '.') continue;
        snprintf(sub, sizeof sub, "%s/%s", bridges, e->d_name);
        if (read_line(sub, "name", name, sizeof name) || read_line(sub, "state", st, sizeof st)) continue;
        for (size_t i = 0; i < NBRIDGES; i++)
            if (!strcmp(name, design_bridges[i])) {
                state[i] = !strcmp(st, "enabled");
                snprintf(br[i], sizeof br[i], "%.31s", e->d_name);
            }
    }
    closedir(dir);
    return 0;
}

/* ", <what is wrong with the bridges>" or "" into out; 1 if a design bridge is not enabled */
static int describe_bridges(const char *bridges, char *out, size_t len)
{
    int state[NBRIDGES];
    char br[NBRIDGES][32];
    if (bridge_states(bridges, state, br) != 0) {
        snprintf(out, len, ", no FPGA bridges in sysfs (no %s)", bridges);
        return 0;
    }
    for (size_t i = 0; i < NBRIDGES; i++) {
        if (state[i] == 0) {
            snprintf(out, len, ", bridge %s (%s) disabled", br[i], design_bridges[i]);
            return 1;
        }
        if (state[i] < 0) {
            snprintf(out, len, ", bridge %s not registered (no %s/br*/name reads %s)", design_bridges[i], bridges,
                     design_bridges[i]);
            return 1;
        }
    }
    snprintf(out, len, " and bridges %s, %s enabled", design_bridges[0], design_bridges[1]);
    return 0;
}

/* the first FPGA manager of the class folder (its brN-like name in out); 0 when there is one */
static int first_manager(const char *managers, char *out, size_t len)
{
    DIR *dir = opendir(managers);
    if (!dir) return -1;
    struct dirent *e;
    int found = -1;
    while (found && (e = readdir(dir)) != NULL)
        if (e->d_name[0] != '.') {
            snprintf(out, len, "%s/%.63s", managers, e->d_name);
            found = 0;
        }
    closedir(dir);
    return found;
}

int fpgamr_port_diagnose(const char *devdir, const char *bridges, const char *managers, char *out, size_t len)
{
    char port[256], br[256];
    int have_port = read_line(devdir, "fpga2sdram", port, sizeof port) == 0;

    if (have_port && strncmp(port, PORT_ENABLED, strlen(PORT_ENABLED)) != 0) {
        snprintf(out, len, "%s (%s)", port, SEE_BOARD);
        return FPGAMR_PATH_PORT;
    }
    int bridge_off = describe_bridges(bridges, br, sizeof br);
    const char *what = have_port ? port : "FPGA-to-SDRAM port not readable here (no fpga2sdram in the device's sysfs: not a Cyclone V)";
    if (bridge_off) {
        snprintf(out, len, "%s%s: the overlay enables the design's bridges (%s)", what, br, SEE_BOARD);
        return FPGAMR_PATH_BRIDGE;
    }
    char mgr[600];
    if (have_port && first_manager(managers, mgr, sizeof mgr) == 0) {
        /* the SDRAM controller takes a port's configuration only at staticcfg.applycfg, which only the bootloader sets */
        snprintf(out, len,
                 "%s%s: the design did not answer, or the port stalled because Linux reprogrammed the FPGA (%s): the SDRAM "
                 "controller applies the port's configuration only when the bootloader sets staticcfg.applycfg; load the "
                 "design at boot and reboot (%s)",
                 what, br, mgr, SEE_BOARD);
        return FPGAMR_PATH_FINE;
    }
    snprintf(out, len, "%s%s: the design did not answer", what, br);
    return FPGAMR_PATH_FINE;
}
