/* port_diag.h: why the accelerator's DMA did not complete (a job that never
 * ended, or one the kernel refused with ENOLINK), from the sysfs the kernel
 * exposes: the FPGA-to-SDRAM port and the design's FPGA bridges. */
#ifndef FPGAMR_PORT_DIAG_H
#define FPGAMR_PORT_DIAG_H

#include <stddef.h>

enum {
    FPGAMR_PATH_FINE = 0,  /* port enabled (or not readable), design bridges enabled (or none in sysfs) */
    FPGAMR_PATH_PORT,      /* the FPGA-to-SDRAM port is not configured or in reset */
    FPGAMR_PATH_BRIDGE,    /* a bridge of the design is disabled or not registered */
};

/* One line (no newline) into out naming what was found: devdir is the
 * accelerator's platform device in sysfs (/sys/class/uio/uioN/device, where
 * fpgamr.ko puts fpga2sdram on a Cyclone V), bridges the fpga_bridge class
 * (/sys/class/fpga_bridge), managers the fpga_manager class
 * (/sys/class/fpga_manager: where it has an FPGA manager, Linux may have
 * reprogrammed the FPGA, after which the port stalls). Returns
 * FPGAMR_PATH_*. */
int fpgamr_port_diagnose(const char *devdir, const char *bridges, const char *managers, char *out, size_t len);

#endif
