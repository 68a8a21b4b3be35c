/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * fpgamr.h - user-space interface of the fpgamr MD5 accelerator driver
 *
 * This header is the contract between kernel/fpgamr.ko and the user-space
 * "uio" bus of the accelerator (jni-fpga/native/).  It builds both inside
 * the kernel and as plain user-space C11 (-Wall -Werror), with only the
 * <linux/types.h> and <linux/ioctl.h> of linux-libc-dev.
 *
 * Register and constant names of the accelerator itself live in the
 * generated fpgamr_regs.h; nothing here clashes with them, so a program may
 * include both.
 *
 * 1. Devices
 *
 * Each accelerator (a platform device bound through the device tree
 * compatible FPGAMR_OF_COMPATIBLE) gives user space two character devices:
 *
 *   /dev/uioN          UIO device named FPGAMR_UIO_NAME: map 0 is the
 *                      register window, the interrupt is the UIO interrupt.
 *   /dev/fpgamr-dmaK   misc device: DMA buffers (the ioctls below and mmap).
 *
 * N and K are independent numbers.  Both class devices have the same
 * parent, the platform device, whose sysfs directory
 *
 *   /sys/class/uio/uioN/device/  ==  /sys/class/misc/fpgamr-dmaK/device/
 *
 * holds these read-only attributes (one value and a newline each):
 *
 *   design_id        "0x4d443541": DESIGN_ID (register 0x000) read at probe
 *   regmap_version   "0x00030002": REGMAP_VERSION (register 0x004)
 *   dma_dev          "fpgamr-dmaK": the name of the DMA node in /dev
 *   uio_dev          "uioN": the name of the UIO node in /dev
 *   coherent         "0" or "1": 1 if the sync ioctls need no cache work
 *   buffers_in_use   number of DMA buffers not yet returned (all processes)
 *   bytes_in_use     bytes of those buffers
 *
 * and the directory misc/fpgamr-dmaK (like uio/uioN) below it.
 *
 * Discovery: for every /sys/class/uio/uioN whose "name" file reads
 * FPGAMR_UIO_NAME, read /sys/class/uio/uioN/device/dma_dev and open
 * /dev/<that name> while holding /dev/uioN open: the DMA node opens only for
 * a process that has the accelerator's UIO node open (else EACCES), so
 * whoever may not open the UIO node (its permissions, a devices cgroup)
 * gets neither.  FPGAMR_IOC_INFO on it returns uio_index == N, which
 * confirms the pair.  (The attributes appear when probing has finished, just
 * after uioN; the directory misc/fpgamr-dmaK exists before uioN does, so a
 * hot-plug handler that races the probe can list that directory instead.)
 *
 * 2. Registers and interrupt (the UIO device)
 *
 * The register window is two 4 KiB pages (register map 3, generated from
 * hdl/regmap/md5acc.json into fpgamr_regs.h): the user page (status,
 * identity, counters, the filter, the interrupt, MATCH_ACK) and the kernel
 * page (MODE, START, COUNT, SRC, DST, MATCH_CAP and CTRL: everything that
 * decides where and how much the device reads or writes, and the command
 * that starts it).  UIO map 0 is the user page alone; the kernel page is
 * never mapped to user space: user space starts and stops jobs through
 * FPGAMR_IOC_SUBMIT and FPGAMR_IOC_ABORT (section 3).
 *
 * mmap(/dev/uioN, length = /sys/class/uio/uioN/maps/map0/size (4096),
 * PROT_READ | PROT_WRITE, MAP_SHARED, offset = 0) maps the user page
 * uncached.  If the device tree gives the accelerator an interrupt, the
 * kernel masks the line when it fires (the line is level-high); user space
 * then reads the 32-bit event count from /dev/uioN (read() blocks, poll()
 * works), clears IRQ_STATUS (write 1 to clear) and writes the 32-bit value 1
 * to /dev/uioN to unmask the line again.  Without an interrupt in the device
 * tree, read() fails with EIO and user space polls STATUS.
 *
 * 3. DMA buffers (the misc device)
 *
 * Buffers belong to the open file description that allocated them: handles
 * and mmap offsets of one open file mean nothing to another.  A buffer is
 * physically contiguous (CMA where the kernel has it), page aligned, a whole
 * number of pages, zero-filled when allocated (the zeroes are in memory, not
 * only in the CPU caches) and addressable by the accelerator at a bus
 * address only the kernel knows: user space names a buffer by its handle
 * (SUBMIT) and never learns where the device reads or writes (since API 3,
 * issue 39; API 2's ALLOC returned it).  It is mapped cacheable; user space makes CPU and device views agree with
 * the sync ioctls:
 *
 *   CPU writes, device reads:  SYNC_FOR_DEVICE (TO_DEVICE) before START
 *   device writes, CPU reads:  SYNC_FOR_DEVICE (FROM_DEVICE) before START,
 *                              SYNC_FOR_CPU (FROM_DEVICE) after DONE
 *
 * In coherent mode (device tree "dma-coherent", e.g. an ACP port, or the
 * module parameter coherent=1) the sync ioctls check their arguments the same
 * way and return 0 without cache maintenance; FPGAMR_INFO_COHERENT and
 * FPGAMR_BUF_COHERENT say so.
 *
 * mmap(NULL, length, prot, MAP_SHARED, fd, mmap_offset) maps a buffer from
 * its first byte; the offset is the opaque cookie from FPGAMR_IOC_ALLOC (do
 * not compute it; it is small, so a 32-bit off_t holds it), and length may be
 * less than the buffer's size.  A buffer may be mapped several times, and
 * mappings are inherited across fork().  The mapping is a PFN map: it works
 * for loads, stores and read()/write() into it, not for O_DIRECT I/O.
 *
 * FPGAMR_IOC_FREE drops the handle at once; the memory goes back when the
 * last mapping of it is gone too.  Closing the file (or the death of the
 * process) frees every buffer it still holds.  buffers_in_use and
 * bytes_in_use count a buffer until its memory is returned.  While any file
 * or mapping of the DMA device exists the module cannot be unloaded, and
 * the driver cannot be unbound through sysfs.
 *
 * Jobs.  FPGAMR_IOC_SUBMIT describes a job by buffers of this file:
 *   hash    messages from src_handle at src_offset (count slots of 4 bytes
 *           for widths 1..4, else 8), digests to dst_handle at dst_offset
 *           (count x 16 bytes); both offsets multiples of the device's bus
 *           width (bus_bytes of FPGAMR_IOC_INFO), each range rounded up to
 *           whole bus beats inside its buffer
 *   search  values first .. first+count-1 made on chip, the match ring of
 *           match_cap records of 32 bytes at dst_handle/dst_offset (a
 *           multiple of 32), rounded up to whole beats inside the buffer
 * The driver checks them, programs the kernel page with the buffers' bus
 * addresses and starts the device; the job holds a reference on its
 * buffers.  Completion is the device's: user space waits on /dev/uioN (or
 * polls STATUS) as before.  A job ends for the kernel when a later SUBMIT
 * finds the device idle.  Before any of its buffers' memory can go back
 * (FPGAMR_IOC_FREE of one of them, close of the file, death of the
 * process, removal of the device), the driver aborts the job and waits until
 * the device is idle; a device that does not stop within 5 s
 * keeps the job's buffers allocated for ever (a log line says so) and
 * refuses new jobs with EIO.  FPGAMR_IOC_ABORT asks the device to stop the
 * running job of this file (CTRL.ABORT) without waiting.
 *
 * Memory caps: all buffers of a device together at most max_dev_bytes, all
 * buffers of one user (the caller's uid at ALLOC, over every device) at most
 * max_user_bytes (module parameters; FPGAMR_IOC_INFO reports both).
 *
 * 4. Errors (errno of the failing call)
 *
 * Checks run in the order listed: when several apply, the first one wins.
 *
 *   open          EACCES  the process does not hold the accelerator's UIO
 *                         node open
 *                 ENODEV  the accelerator is being removed
 *   any ioctl     ENODEV  the accelerator was removed; only FREE and close
 *                         still work
 *                 ENOTTY  unknown request (also API 2's ALLOC, whose
 *                         argument carried the bus address: the kernel
 *                         logs that the caller needs rebuilding against
 *                         API 3)
 *                 EFAULT  argument pointer not readable/writable
 *   ALLOC         EINVAL  size == 0, or flags != 0
 *                 E2BIG   size > max_buf_bytes (FPGAMR_IOC_INFO)
 *                 EDQUOT  the caller's user would hold more than
 *                         max_user_bytes
 *                 ENOSPC  the device's buffers would exceed max_dev_bytes,
 *                         or the file already holds FPGAMR_MAX_BUFFERS
 *                 ENOMEM  no contiguous memory of that size now
 *   FREE          EINVAL  reserved != 0
 *                 ENOENT  no buffer with that handle in this file (also
 *                         handle 0, and a handle already freed)
 *   SYNC_FOR_*    EINVAL  direction unknown; length == 0; offset or length
 *                         not a multiple of sync_align (FPGAMR_IOC_INFO)
 *                 ENOENT  no buffer with that handle in this file
 *                 ERANGE  the range [offset, offset + length) does not lie
 *                         inside the buffer (it overlaps its end or wraps)
 *   SUBMIT        EINVAL  flags != 0; op unknown; width outside the
 *                         design's; hash with match_cap or first != 0;
 *                         search with a source or match_cap == 0; an
 *                         offset not aligned as above
 *                 ENOENT  a handle names no buffer of this file
 *                 ERANGE  a range (rounded up to whole beats) does not lie
 *                         inside its buffer, or its size overflows
 *                 EBUSY   the device runs a job (of any file)
 *                 EIO     the device did not stop a job (see Jobs)
 *                 ENOLINK the FPGA-to-SDRAM port the job's DMA goes through
 *                         is not configured or in reset (read before each
 *                         job on a Cyclone V; the kernel log and the
 *                         device's sysfs fpga2sdram say which): the job
 *                         could never complete and is not started
 *   ABORT         ENOENT  the device runs no job of this file
 *                 EIO     the device did not take the job's START
 *   mmap          ENODEV  the accelerator was removed
 *                 EINVAL  not MAP_SHARED
 *                 ENXIO   offset is not the mmap_offset of a buffer of
 *                         this file
 *                 EINVAL  length > the buffer's size
 */
#ifndef _UAPI_LINUX_FPGAMR_H
#define _UAPI_LINUX_FPGAMR_H

#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * 3: ALLOC returns no bus address (struct fpgamr_alloc lost bus_addr, so
 *    its size and the ALLOC request number changed; issue 39)
 * 2: register map 3, SUBMIT/ABORT, caps
 */
#define FPGAMR_API_VERSION	3

#define FPGAMR_OF_COMPATIBLE	"fpgamr,md5-accel-1.0"
#define FPGAMR_UIO_NAME		"fpgamr-md5"
#define FPGAMR_DMA_DEV_PREFIX	"fpgamr-dma"

/* sync_align is never smaller than this (a cache line or more) */
#define FPGAMR_SYNC_ALIGN_MIN	64
/* buffers one open file may hold at once */
#define FPGAMR_MAX_BUFFERS	4095

/* struct fpgamr_sync.direction */
#define FPGAMR_DMA_BIDIRECTIONAL	0
#define FPGAMR_DMA_TO_DEVICE		1
#define FPGAMR_DMA_FROM_DEVICE		2

/* struct fpgamr_info.flags */
#define FPGAMR_INFO_COHERENT	(1U << 0)	/* syncs do no cache work */

/* struct fpgamr_alloc.flags (out) */
#define FPGAMR_BUF_COHERENT	(1U << 0)

/* FPGAMR_IOC_INFO: all fields out */
struct fpgamr_info {
	__u32 api_version;	/* FPGAMR_API_VERSION */
	__u32 design_id;	/* DESIGN_ID register read at probe */
	__u32 regmap_version;	/* REGMAP_VERSION register read at probe */
	__u32 uio_index;	/* N of the /dev/uioN of this accelerator */
	__u32 flags;		/* FPGAMR_INFO_* */
	__u32 sync_align;	/* alignment of sync offset and length */
	__u64 max_buf_bytes;	/* largest size ALLOC accepts */
	__u32 page_size;	/* buffers are multiples of this */
	__u32 dma_bits;		/* width of the bus addresses the device uses */
	__u64 max_dev_bytes;	/* all buffers of this device together */
	__u64 max_user_bytes;	/* all buffers of one user */
	__u32 bus_bytes;	/* the device's data bus: SUBMIT's alignment */
	__u32 reserved;		/* 0 */
};

/* struct fpgamr_submit.op */
#define FPGAMR_JOB_HASH		0
#define FPGAMR_JOB_SEARCH	1

/* FPGAMR_IOC_SUBMIT: all fields in (section 3, "Jobs") */
struct fpgamr_submit {
	__u32 op;		/* FPGAMR_JOB_* */
	__u32 width;		/* message width in bytes */
	__u64 first;		/* search: first value; hash: 0 */
	__u64 count;		/* values (hash: messages) */
	__u32 src_handle;	/* hash: the messages' buffer; search: 0 */
	__u32 dst_handle;	/* hash: the digests'; search: the match ring's */
	__u64 src_offset;	/* search: 0 */
	__u64 dst_offset;
	__u32 match_cap;	/* search: records in the ring; hash: 0 */
	__u32 flags;		/* 0 */
};

/* FPGAMR_IOC_ALLOC */
struct fpgamr_alloc {
	__u64 size;		/* in: bytes wanted; out: bytes allocated */
	__u64 mmap_offset;	/* out: offset argument of mmap() */
	__u32 handle;		/* out: names the buffer in FREE and SYNC */
	__u32 flags;		/* in: 0; out: FPGAMR_BUF_* */
};

/* FPGAMR_IOC_FREE */
struct fpgamr_free {
	__u32 handle;
	__u32 reserved;		/* must be 0 */
};

/* FPGAMR_IOC_SYNC_FOR_DEVICE and FPGAMR_IOC_SYNC_FOR_CPU */
struct fpgamr_sync {
	__u32 handle;
	__u32 direction;	/* FPGAMR_DMA_* */
	__u64 offset;		/* from the start of the buffer */
	__u64 length;
};

/* out of tree: not registered in ioctl-number.rst */
#define FPGAMR_IOC_MAGIC	0xE8

#define FPGAMR_IOC_INFO		_IOR(FPGAMR_IOC_MAGIC, 0x00, struct fpgamr_info)
#define FPGAMR_IOC_ALLOC \
	_IOWR(FPGAMR_IOC_MAGIC, 0x01, struct fpgamr_alloc)
#define FPGAMR_IOC_FREE		_IOW(FPGAMR_IOC_MAGIC, 0x02, struct fpgamr_free)
#define FPGAMR_IOC_SYNC_FOR_DEVICE \
	_IOW(FPGAMR_IOC_MAGIC, 0x03, struct fpgamr_sync)
#define FPGAMR_IOC_SYNC_FOR_CPU	_IOW(FPGAMR_IOC_MAGIC, 0x04, struct fpgamr_sync)
#define FPGAMR_IOC_SUBMIT \
	_IOW(FPGAMR_IOC_MAGIC, 0x05, struct fpgamr_submit)
#define FPGAMR_IOC_ABORT	_IO(FPGAMR_IOC_MAGIC, 0x06)

#endif /* _UAPI_LINUX_FPGAMR_H */
