/* SPDX-License-Identifier: GPL-2.0 */
/* fpgamr_test.h - what fpgamr_test.c shares with its fuzz mode (fpgamr_fuzz.c) */
#ifndef FPGAMR_TEST_H
#define FPGAMR_TEST_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/fpgamr.h>

struct accel {
	int uio_index;
	char sysdir[PATH_MAX];	/* /sys/class/uio/uioN/device */
	char dma_name[64];	/* fpgamr-dmaK */
	char dma_path[96];	/* /dev/fpgamr-dmaK */
	char uio_path[64];	/* /dev/uioN */
};

extern int passed, failed;
extern long page;
extern struct accel acc;

void check(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *ename(int e);
void expect_err(long ret, int want, const char *what);
void expect_ok(long ret, const char *what);
int read_file(const char *path, char *buf, size_t len);
int write_file(const char *path, const char *s);
void attr(const char *name, char *buf, size_t len);
void expect_usage(long bufs, long bytes, const char *when);
int discover(void);
int open_dma(void);
int do_alloc(int fd, uint64_t size, uint32_t flags, struct fpgamr_alloc *a);
int do_free(int fd, uint32_t handle, uint32_t reserved);
int do_sync(int fd, unsigned long req, uint32_t handle, uint32_t dir,
	    uint64_t off, uint64_t len);

void mode_fuzz(long calls, unsigned long seed);

#endif /* FPGAMR_TEST_H */
