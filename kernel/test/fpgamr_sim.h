/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fpgamr_sim.h - the ioctl of the test module fpgamr_sim.ko, shared with the
 * test program (fpgamr_test.c).  Test only: never on a node.
 */
#ifndef FPGAMR_SIM_H
#define FPGAMR_SIM_H

#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * On /dev/fpgamr-sim.  In: an address inside the caller's mapping of a DMA
 * buffer (mmap of /dev/fpgamr-dmaK).  Out: the bus address the device reads
 * and writes for that byte, which fpgamr.ko gives user space no more (issue
 * 39): the test checks what the kernel programs, and plays the device's DMA,
 * without it.  EFAULT: nothing mapped there; EINVAL: not a PFN mapping.
 */
#define FPGAMR_SIM_IOC_BUS_ADDR	_IOWR(0xE9, 0x00, __u64)

#endif /* FPGAMR_SIM_H */
