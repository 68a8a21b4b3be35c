// SPDX-License-Identifier: GPL-2.0
/*
 * fpgamr_test - user-space test of fpgamr.ko, run inside the QEMU boot tests
 *
 * The device is the one fpgamr_sim.ko (the FPGA side of the bus, test only)
 * provides; this program plays the accelerator through it: it raises the
 * interrupt (raise_irq) and reads and writes memory at bus addresses (mmap of
 * /dev/fpgamr-sim), as the accelerator's DMA master does.
 *
 *   fpgamr_test none       no accelerator is bound (no bitstream, or a design
 *                          id the driver must refuse)
 *   fpgamr_test main       streaming (non-coherent) DMA: every ioctl, mmap,
 *                          sync, every refusal with its errno, lifetime
 *                          across FREE/close/fork/kill, the interrupt path
 *   fpgamr_test coherent   the driver loaded with coherent=1
 *   fpgamr_test unplug     the device is removed while in use
 *   fpgamr_test hold FILE  allocate and map a buffer, touch FILE, sleep
 *   fpgamr_test fuzz [CALLS [SEED]]
 *                          hostile user space (fpgamr_fuzz.c)
 *
 * Prints "ok"/"not ok" lines and "fpgamr_test MODE: P passed, F failed";
 * writes "P F" to /tmp/fpgamr_counts; exits 1 if anything failed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fpgamr.h>

#include "fpgamr_test.h"

#define DESIGN_MAGIC	0x4d443541u
#define REGMAP_V2_0	0x00020000u
#define REG_IRQ_ENABLE	(0x018 / 4)
#define REG_IRQ_STATUS	(0x01c / 4)
#define MIB		(1024ul * 1024ul)
#define SIM_PARAMS	"/sys/module/fpgamr_sim/parameters/"

int passed, failed;
long page;
struct accel acc;

void check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", passed + failed + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (cond)
		passed++;
	else
		failed++;
}

const char *ename(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "?";
}

/* a call that must fail with errno want */
void expect_err(long ret, int want, const char *what)
{
	int e = errno;

	check(ret == -1 && e == want, "%s fails with %s (ret %ld, errno %s)",
	      what, ename(want), ret, ret == -1 ? ename(e) : "-");
}

void expect_ok(long ret, const char *what)
{
	int e = errno;

	check(ret == 0, "%s succeeds (ret %ld, errno %s)", what, ret,
	      ret ? ename(e) : "-");
}

int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	return 0;
}

int write_file(const char *path, const char *s)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

void attr(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", acc.sysdir, name);
	if (read_file(path, buf, len))
		snprintf(buf, len, "<unreadable %s>", name);
}

static void expect_attr(const char *name, const char *want)
{
	char got[128];

	attr(name, got, sizeof(got));
	check(!strcmp(got, want), "sysfs %s is \"%s\" (got \"%s\")", name,
	      want, got);
}

void expect_usage(long bufs, long bytes, const char *when)
{
	char got[64], want[64];

	attr("buffers_in_use", got, sizeof(got));
	snprintf(want, sizeof(want), "%ld", bufs);
	check(!strcmp(got, want), "%s: buffers_in_use %s (got %s)", when, want,
	      got);
	attr("bytes_in_use", got, sizeof(got));
	snprintf(want, sizeof(want), "%ld", bytes);
	check(!strcmp(got, want), "%s: bytes_in_use %s (got %s)", when, want,
	      got);
}

/* Find the accelerator the documented way; returns how many were found. */
int discover(void)
{
	char path[PATH_MAX], name[64];
	struct dirent *de;
	int found = 0;

	DIR *d;

	d = opendir("/sys/class/uio");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int n;

		if (sscanf(de->d_name, "uio%d", &n) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/class/uio/%s/name",
			 de->d_name);
		if (read_file(path, name, sizeof(name)) ||
		    strcmp(name, FPGAMR_UIO_NAME))
			continue;
		found++;
		acc.uio_index = n;
		snprintf(acc.sysdir, sizeof(acc.sysdir),
			 "/sys/class/uio/uio%d/device", n);
		snprintf(acc.uio_path, sizeof(acc.uio_path), "/dev/uio%d", n);
	}
	closedir(d);
	if (found == 1) {
		attr("dma_dev", acc.dma_name, sizeof(acc.dma_name));
		snprintf(acc.dma_path, sizeof(acc.dma_path), "/dev/%s",
			 acc.dma_name);
	}
	return found;
}

static int count_dma_nodes(void)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir("/dev");
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, FPGAMR_DMA_DEV_PREFIX,
			     strlen(FPGAMR_DMA_DEV_PREFIX)))
			n++;
	closedir(d);
	return n;
}

int open_dma(void)
{
	int fd = open(acc.dma_path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		check(0, "open %s: %s", acc.dma_path, strerror(errno));
		exit(1);
	}
	return fd;
}

int do_alloc(int fd, uint64_t size, uint32_t flags, struct fpgamr_alloc *a)
{
	memset(a, 0, sizeof(*a));
	a->size = size;
	a->flags = flags;
	return ioctl(fd, FPGAMR_IOC_ALLOC, a);
}

int do_free(int fd, uint32_t handle, uint32_t reserved)
{
	struct fpgamr_free f = { .handle = handle, .reserved = reserved };

	return ioctl(fd, FPGAMR_IOC_FREE, &f);
}

int do_sync(int fd, unsigned long req, uint32_t handle, uint32_t dir,
	    uint64_t off, uint64_t len)
{
	struct fpgamr_sync s = {
		.handle = handle, .direction = dir, .offset = off, .length = len,
	};

	return ioctl(fd, req, &s);
}

static void *map(int fd, size_t len, int flags, uint64_t off)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, (off_t)off);
}

static long map_err(int fd, size_t len, int flags, uint64_t off)
{
	void *p = map(fd, len, flags, off);

	if (p == MAP_FAILED)
		return -1;
	munmap(p, len);
	return 0;
}

static uint8_t pattern(size_t i, unsigned int seed)
{
	uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u;

	return (uint8_t)(x >> 13);
}

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = pattern(i, seed);
}

static size_t first_mismatch(const uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != pattern(i, seed))
			return i;
	return len;
}

static int all_zero(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

/* map len bytes of memory at a bus address, as the device's master sees it */
static uint8_t *bus_map(int sim, uint64_t addr, size_t len, size_t *span)
{
	uint64_t base = addr & ~(uint64_t)(page - 1);
	uint8_t *p;

	*span = (addr - base + len + page - 1) & ~(size_t)(page - 1);
	p = mmap(NULL, *span, PROT_READ | PROT_WRITE, MAP_SHARED, sim,
		 (off_t)base);
	return p == MAP_FAILED ? NULL : p + (addr - base);
}

/* the accelerator's DMA engine: copy len bytes between bus addresses */
static long device_copy(uint64_t src, uint64_t dst, uint64_t len)
{
	size_t sspan = 0, dspan = 0;
	uint8_t *from, *to;
	int sim, e = 0;

	sim = open("/dev/fpgamr-sim", O_RDWR | O_CLOEXEC);
	if (sim < 0)
		return -1;
	from = bus_map(sim, src, len, &sspan);
	to = from ? bus_map(sim, dst, len, &dspan) : NULL;
	if (to)
		memmove(to, from, len);
	else
		e = errno;
	if (from)
		munmap((void *)((uintptr_t)from & ~(uintptr_t)(page - 1)), sspan);
	if (to)
		munmap((void *)((uintptr_t)to & ~(uintptr_t)(page - 1)), dspan);
	close(sim);
	errno = e;
	return e ? -1 : 0;
}

/* the accelerator's node's memory-region, from the device tree: 0 if none */
static int dma_pool(uint64_t *lo, uint64_t *hi)
{
	char path[PATH_MAX + 64], name[PATH_MAX];
	unsigned char ph[4], ph2[4], reg[16];
	struct dirent *de;
	DIR *d;
	int fd, n, found = 0;

	snprintf(path, sizeof(path), "%s/of_node/memory-region", acc.sysdir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, ph, sizeof(ph));
	close(fd);
	d = opendir("/sys/firmware/devicetree/base/reserved-memory");
	if (n != 4 || !d)
		return 0;
	while (!found && (de = readdir(d))) {
		snprintf(name, sizeof(name),
			 "/sys/firmware/devicetree/base/reserved-memory/%s",
			 de->d_name);
		snprintf(path, sizeof(path), "%s/phandle", name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		found = read(fd, ph2, 4) == 4 && !memcmp(ph, ph2, 4);
		close(fd);
	}
	closedir(d);
	if (!found)
		return 0;
	snprintf(path, sizeof(path), "%s/reg", name);
	fd = open(path, O_RDONLY);	/* two address and two size cells */
	n = fd < 0 ? -1 : read(fd, reg, sizeof(reg));
	if (fd >= 0)
		close(fd);
	if (n != 16)
		return 0;
	*lo = 0;
	*hi = 0;
	for (int i = 0; i < 8; i++) {
		*lo = *lo << 8 | reg[i];
		*hi = *hi << 8 | reg[8 + i];
	}
	*hi += *lo;
	return 1;
}

/* ---- pieces of the main test ----------------------------------------- */

static void test_discovery(void)
{
	char path[PATH_MAX + 128], real1[PATH_MAX], real2[PATH_MAX], want[32];
	struct stat st;

	check(discover() == 1, "exactly one UIO device named %s",
	      FPGAMR_UIO_NAME);
	check(!strncmp(acc.dma_name, FPGAMR_DMA_DEV_PREFIX,
		       strlen(FPGAMR_DMA_DEV_PREFIX)),
	      "dma_dev names a %s node (%s)", FPGAMR_DMA_DEV_PREFIX,
	      acc.dma_name);
	snprintf(path, sizeof(path), "%s/misc/%s", acc.sysdir, acc.dma_name);
	check(stat(path, &st) == 0 && S_ISDIR(st.st_mode), "%s exists", path);
	snprintf(path, sizeof(path), "/sys/class/misc/%s/device", acc.dma_name);
	check(realpath(path, real1) && realpath(acc.sysdir, real2) &&
	      !strcmp(real1, real2),
	      "misc and uio devices share the platform parent");
	check(stat(acc.dma_path, &st) == 0 && S_ISCHR(st.st_mode),
	      "%s is a character device", acc.dma_path);
	snprintf(want, sizeof(want), "uio%d", acc.uio_index);
	expect_attr("uio_dev", want);
	expect_attr("design_id", "0x4d443541");
	expect_attr("regmap_version", "0x00020000");
	check(access("/sys/bus/platform/drivers/fpgamr-md5/unbind", F_OK) != 0,
	      "no sysfs unbind (suppress_bind_attrs)");
}

/*
 * The line is level-high, IRQ_STATUS & IRQ_ENABLE: the test plays the device
 * and pends the interrupt (raise_irq) while its line is high, once, and
 * again after an unmask, as a line still high would fire again.  The
 * production handler reads both registers: they are set first.
 */
static int raise_irq(volatile uint32_t *regs, uint32_t status)
{
	regs[REG_IRQ_ENABLE] = 1;
	regs[REG_IRQ_STATUS] = status;
	return write_file(SIM_PARAMS "raise_irq", "1");
}

static int unmask(int fd, volatile uint32_t *regs)
{
	int32_t on = 1;

	if (write(fd, &on, sizeof(on)) != sizeof(on))
		return -1;
	if (regs[REG_IRQ_STATUS] & regs[REG_IRQ_ENABLE])
		return write_file(SIM_PARAMS "raise_irq", "1");
	return 0;
}

static int irq_ready(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN);
}

/* the event count once an interrupt is there (10 s at most); else 0 */
static uint32_t irq_events(int fd)
{
	uint32_t count = 0;

	if (!irq_ready(fd, 10000) ||
	    read(fd, &count, sizeof(count)) != sizeof(count))
		return 0;
	return count;
}

static void test_uio(void)
{
	char path[PATH_MAX + 32], buf[64];
	volatile uint32_t *regs;
	uint32_t count;
	int fd;

	snprintf(path, sizeof(path), "/sys/class/uio/uio%d/maps/map0/size",
		 acc.uio_index);
	check(!read_file(path, buf, sizeof(buf)) &&
	      strtoull(buf, NULL, 0) == (unsigned long long)page,
	      "UIO map0 is one page (%s)", buf);
	snprintf(path, sizeof(path), "/sys/class/uio/uio%d/maps/map0/name",
		 acc.uio_index);
	check(!read_file(path, buf, sizeof(buf)) && !strcmp(buf, "registers"),
	      "UIO map0 is named registers (%s)", buf);

	fd = open(acc.uio_path, O_RDWR | O_CLOEXEC);
	check(fd >= 0, "open %s", acc.uio_path);
	if (fd < 0)
		return;
	regs = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(regs != MAP_FAILED, "mmap UIO register window");
	if (regs == MAP_FAILED) {
		close(fd);
		return;
	}
	check(regs[0] == DESIGN_MAGIC, "DESIGN_ID via UIO is 0x%08x", regs[0]);
	check(regs[1] == REGMAP_V2_0, "REGMAP_VERSION via UIO is 0x%08x",
	      regs[1]);

	check(!unmask(fd, regs), "UIO irq unmask");
	check(!irq_ready(fd, 0), "no interrupt pending before the trigger");
	check(!raise_irq(regs, 0), "pend the line with IRQ_STATUS 0");
	check(!irq_ready(fd, 300), "a spurious interrupt is not counted");
	check(!raise_irq(regs, 1), "pend the line with IRQ_STATUS DONE");
	count = irq_events(fd);
	check(count == 1, "the interrupt arrives, event count 1 (%u)", count);
	check(!raise_irq(regs, 1), "pend it again: the handler masked the line");
	check(!irq_ready(fd, 300), "the masked line stays quiet");
	check(!unmask(fd, regs), "unmask with the line still high");
	count = irq_events(fd);
	check(count == 2, "it fires again, event count 2 (%u)", count);
	regs[REG_IRQ_STATUS] = 0;	/* write 1 to clear, on the device */
	check(!unmask(fd, regs), "clear IRQ_STATUS, unmask");
	check(!irq_ready(fd, 300), "the line is low: quiet");
	regs[REG_IRQ_ENABLE] = 0;
	munmap((void *)regs, page);
	close(fd);
}

static void test_info(int fd, int coherent)
{
	struct fpgamr_info info;
	uint32_t flags = 0;
	char buf[64];

	memset(&info, 0xa5, sizeof(info));
	expect_ok(ioctl(fd, FPGAMR_IOC_INFO, &info), "INFO");
	if (coherent)
		flags |= FPGAMR_INFO_COHERENT;
	check(info.api_version == FPGAMR_API_VERSION, "api_version %u",
	      info.api_version);
	check(info.design_id == DESIGN_MAGIC, "INFO design_id 0x%08x",
	      info.design_id);
	check(info.regmap_version == REGMAP_V2_0, "INFO regmap_version 0x%08x",
	      info.regmap_version);
	check(info.uio_index == (uint32_t)acc.uio_index,
	      "INFO uio_index %u is the discovered uio%d", info.uio_index,
	      acc.uio_index);
	check(info.flags == flags, "INFO flags 0x%x (want 0x%x)", info.flags,
	      flags);
	check(info.sync_align == 64, "sync_align 64, the cache line (%u)",
	      info.sync_align);
	check(info.page_size == (uint32_t)page, "page_size %u", info.page_size);
	check(info.dma_bits == 32, "dma_bits %u", info.dma_bits);
	if (read_file("/sys/module/fpgamr/parameters/max_buf_bytes", buf,
		      sizeof(buf)))
		buf[0] = 0;
	check(info.max_buf_bytes == strtoull(buf, NULL, 0),
	      "max_buf_bytes %llu is the module parameter (%s)",
	      (unsigned long long)info.max_buf_bytes, buf);
}

static void test_alloc_errors(int fd, uint64_t max)
{
	struct fpgamr_alloc a;
	char mi[4096];
	int has_cma;

	expect_err(do_alloc(fd, 0, 0, &a), EINVAL, "ALLOC size 0");
	expect_err(do_alloc(fd, page, 1, &a), EINVAL, "ALLOC flags 1");
	expect_err(do_alloc(fd, max + 1, 0, &a), E2BIG, "ALLOC max_buf_bytes+1");
	expect_err(do_alloc(fd, UINT64_MAX, 0, &a), E2BIG, "ALLOC 2^64-1");
	expect_err(ioctl(fd, FPGAMR_IOC_ALLOC, NULL), EFAULT, "ALLOC NULL");
	expect_err(ioctl(fd, FPGAMR_IOC_ALLOC, (void *)8), EFAULT,
		   "ALLOC bad pointer");

	/* 4 MiB is the largest buddy block of these kernels: it must work */
	expect_ok(do_alloc(fd, 4 * MIB, 0, &a), "ALLOC 4 MiB");
	check(a.size == 4 * MIB, "4 MiB buffer size %llu",
	      (unsigned long long)a.size);
	expect_ok(do_free(fd, a.handle, 0), "FREE 4 MiB");

	/* Debian's amd64 kernel has no CMA: max_buf_bytes (8 MiB) is beyond
	 * the buddy allocator; with CMA it must succeed. */
	has_cma = !read_file("/proc/meminfo", mi, sizeof(mi)) &&
		  strstr(mi, "CmaTotal:") && !strstr(mi, "CmaTotal:             0");
	if (has_cma) {
		expect_ok(do_alloc(fd, max, 0, &a), "ALLOC max_buf_bytes (CMA)");
		do_free(fd, a.handle, 0);
	} else {
		expect_err(do_alloc(fd, max, 0, &a), ENOMEM,
			   "ALLOC 8 MiB without CMA");
	}
	expect_usage(0, 0, "after failed allocations");
}

static void test_sync_errors(int fd, uint32_t h, uint64_t size)
{
	const unsigned long reqs[2] = {
		FPGAMR_IOC_SYNC_FOR_DEVICE, FPGAMR_IOC_SYNC_FOR_CPU,
	};
	const char *names[2] = { "SYNC_FOR_DEVICE", "SYNC_FOR_CPU" };
	char what[128];

	for (int i = 0; i < 2; i++) {
		unsigned long r = reqs[i];

#define SYNC_ERR(dir, off, len, err, desc)				\
	do {								\
		snprintf(what, sizeof(what), "%s %s", names[i], desc);	\
		expect_err(do_sync(fd, r, h, dir, off, len), err, what);\
	} while (0)
		SYNC_ERR(3, 0, 64, EINVAL, "direction 3");
		SYNC_ERR(FPGAMR_DMA_TO_DEVICE, 0, 0, EINVAL, "length 0");
		SYNC_ERR(FPGAMR_DMA_TO_DEVICE, 32, 64, EINVAL, "offset 32");
		SYNC_ERR(FPGAMR_DMA_TO_DEVICE, 0, 100, EINVAL, "length 100");
		SYNC_ERR(FPGAMR_DMA_TO_DEVICE, size - 64, 128, ERANGE,
			 "over the end");
		SYNC_ERR(FPGAMR_DMA_TO_DEVICE, size, 64, ERANGE,
			 "at the end");
		SYNC_ERR(FPGAMR_DMA_TO_DEVICE, UINT64_MAX - 63, 128, ERANGE,
			 "wrapping");
		SYNC_ERR(FPGAMR_DMA_TO_DEVICE, 0, size + 64, ERANGE,
			 "longer than the buffer");
#undef SYNC_ERR
		snprintf(what, sizeof(what), "%s unknown handle", names[i]);
		expect_err(do_sync(fd, r, 999, FPGAMR_DMA_TO_DEVICE, 0, 64),
			   ENOENT, what);
		snprintf(what, sizeof(what), "%s handle 0", names[i]);
		expect_err(do_sync(fd, r, 0, FPGAMR_DMA_TO_DEVICE, 0, 64),
			   ENOENT, what);
		snprintf(what, sizeof(what), "%s NULL argument", names[i]);
		expect_err(ioctl(fd, r, NULL), EFAULT, what);
	}
}

/*
 * The device reads and writes memory at bus addresses: the buffer's bus_addr
 * must be the memory user space maps.
 */
static void test_device_side(int fd, const struct fpgamr_alloc *a, uint8_t *p)
{
	struct fpgamr_alloc c;
	size_t len = a->size;
	uint8_t *q;

	expect_ok(do_alloc(fd, len, 0, &c), "ALLOC 1 MiB destination");
	q = map(fd, len, MAP_SHARED, c.mmap_offset);
	check(q != MAP_FAILED, "mmap the destination");
	if (q == MAP_FAILED)
		return;
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_DEVICE, c.handle,
			  FPGAMR_DMA_FROM_DEVICE, 0, len),
		  "SYNC_FOR_DEVICE destination (FROM_DEVICE)");
	expect_ok(device_copy(a->bus_addr, c.bus_addr, len),
		  "device copies 1 MiB bus_addr to bus_addr");
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_CPU, c.handle,
			  FPGAMR_DMA_FROM_DEVICE, 0, len),
		  "SYNC_FOR_CPU destination");
	check(first_mismatch(q, len, 1) == len,
	      "the device read what the CPU wrote, the CPU reads what the device wrote");
	memset(q, 0, len);
	do_sync(fd, FPGAMR_IOC_SYNC_FOR_DEVICE, c.handle,
		FPGAMR_DMA_BIDIRECTIONAL, 0, len);
	expect_ok(device_copy(a->bus_addr + 3 * page, c.bus_addr + page,
			      2 * page), "device copies 2 pages at an offset");
	do_sync(fd, FPGAMR_IOC_SYNC_FOR_CPU, c.handle, FPGAMR_DMA_FROM_DEVICE,
		0, len);
	check(all_zero(q, page) && !memcmp(q + page, p + 3 * page, 2 * page) &&
	      all_zero(q + 3 * page, len - 3 * page),
	      "offset copy landed exactly at bus_addr + offset");
	expect_err(device_copy(0x1000, c.bus_addr, page), EINVAL,
		   "bus address 0x1000 is no allocated memory");
	munmap(q, len);
	expect_ok(do_free(fd, c.handle, 0), "FREE destination");
}

static void test_data(int fd, int coherent)
{
	struct fpgamr_alloc a, b;
	uint64_t lo, hi;
	uint8_t *p, *q;
	size_t len = MIB;

	expect_ok(do_alloc(fd, len, 0, &a), "ALLOC 1 MiB");
	if (dma_pool(&lo, &hi))
		check(a.bus_addr >= lo && a.bus_addr + a.size <= hi,
		      "bus_addr 0x%llx is in the node's memory-region [0x%llx, 0x%llx)",
		      (unsigned long long)a.bus_addr, (unsigned long long)lo,
		      (unsigned long long)hi);
	check(a.size == len, "size is 1 MiB (%llu)", (unsigned long long)a.size);
	check(a.handle >= 1 && a.mmap_offset == (uint64_t)a.handle * page,
	      "handle %u, mmap_offset %llu", a.handle,
	      (unsigned long long)a.mmap_offset);
	check(a.bus_addr && !(a.bus_addr % page) &&
	      a.bus_addr + a.size <= (1ull << 32),
	      "bus_addr 0x%llx is page aligned and below 4 GiB",
	      (unsigned long long)a.bus_addr);
	check(a.flags == (coherent ? FPGAMR_BUF_COHERENT : 0u),
	      "buffer flags 0x%x", a.flags);
	expect_ok(do_alloc(fd, 1, 0, &b), "ALLOC 1 byte");
	check(b.size == (uint64_t)page, "1 byte rounds up to a page (%llu)",
	      (unsigned long long)b.size);
	check(b.handle != a.handle && b.mmap_offset != a.mmap_offset,
	      "distinct handles and offsets");
	expect_usage(2, (long)(len + page), "two buffers");

	p = map(fd, len, MAP_SHARED, a.mmap_offset);
	check(p != MAP_FAILED, "mmap 1 MiB buffer");
	if (p == MAP_FAILED)
		return;
	check(all_zero(p, len), "a new buffer reads as zeroes");
	fill(p, len, 1);
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_DEVICE, a.handle,
			  FPGAMR_DMA_TO_DEVICE, 0, len), "SYNC_FOR_DEVICE all");
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_CPU, a.handle,
			  FPGAMR_DMA_FROM_DEVICE, 0, len), "SYNC_FOR_CPU all");
	check(first_mismatch(p, len, 1) == len, "pattern reads back after sync");
	test_device_side(fd, &a, p);
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_DEVICE, a.handle,
			  FPGAMR_DMA_BIDIRECTIONAL, 4096, 64),
		  "SYNC_FOR_DEVICE 64 bytes at 4096");
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_CPU, a.handle,
			  FPGAMR_DMA_FROM_DEVICE, len - 64, 64),
		  "SYNC_FOR_CPU last 64 bytes");

	q = map(fd, len, MAP_SHARED, a.mmap_offset);
	check(q != MAP_FAILED && q != p && first_mismatch(q, len, 1) == len,
	      "a second mapping shows the same memory");
	if (q != MAP_FAILED) {
		uint8_t flipped = pattern(12345, 1) ^ 0xff;

		q[12345] = flipped;
		check(p[12345] == flipped,
		      "a write through one mapping is seen by the other");
		q[12345] = pattern(12345, 1);
		munmap(q, len);
	}
	munmap(p, len);
	p = map(fd, len / 2, MAP_SHARED, a.mmap_offset);
	check(p != MAP_FAILED && first_mismatch(p, len / 2, 1) == len / 2,
	      "remapped (half length): contents kept");
	if (p != MAP_FAILED)
		munmap(p, len / 2);

	test_sync_errors(fd, a.handle, a.size);

	expect_ok(do_free(fd, b.handle, 0), "FREE 1 page");
	expect_ok(do_free(fd, a.handle, 0), "FREE 1 MiB");
	expect_err(do_free(fd, a.handle, 0), ENOENT, "FREE twice");
	expect_usage(0, 0, "after FREE");
}

static void test_mmap_errors(int fd)
{
	struct fpgamr_alloc a;
	int fd2 = open_dma();

	expect_ok(do_alloc(fd, 2 * page, 0, &a), "ALLOC 2 pages");
	expect_err(map_err(fd, page, MAP_PRIVATE, a.mmap_offset), EINVAL,
		   "mmap MAP_PRIVATE");
	expect_err(map_err(fd, 3 * page, MAP_SHARED, a.mmap_offset), EINVAL,
		   "mmap longer than the buffer");
	expect_err(map_err(fd, page, MAP_SHARED, 0), ENXIO, "mmap offset 0");
	expect_err(map_err(fd, page, MAP_SHARED, 999ull * page), ENXIO,
		   "mmap offset of no buffer");
	expect_err(map_err(fd, page, MAP_SHARED, 1ull << 40), ENXIO,
		   "mmap offset 2^40");
	expect_err(map_err(fd2, page, MAP_SHARED, a.mmap_offset), ENXIO,
		   "mmap another file's buffer");
	expect_err(do_free(fd2, a.handle, 0), ENOENT,
		   "FREE another file's handle");
	expect_err(do_sync(fd2, FPGAMR_IOC_SYNC_FOR_CPU, a.handle,
			   FPGAMR_DMA_FROM_DEVICE, 0, 64), ENOENT,
		   "SYNC another file's handle");
	expect_ok(map_err(fd, 2 * page, MAP_SHARED, a.mmap_offset),
		  "mmap the whole buffer");

	expect_err(do_free(fd, 999, 0), ENOENT, "FREE unknown handle");
	expect_err(do_free(fd, 0, 0), ENOENT, "FREE handle 0");
	expect_err(do_free(fd, a.handle, 1), EINVAL, "FREE reserved 1");
	expect_err(ioctl(fd, _IO(FPGAMR_IOC_MAGIC, 0x7f)), ENOTTY,
		   "unknown ioctl");
	expect_err(ioctl(fd, FPGAMR_IOC_INFO, NULL), EFAULT, "INFO NULL");
	expect_ok(do_free(fd, a.handle, 0), "FREE 2 pages");
	close(fd2);
	expect_usage(0, 0, "after the mmap refusals");
}

/* FREE and close do not pull memory out from under a mapping */
static void test_lifetime(void)
{
	int fd = open_dma(), status = -1;
	struct fpgamr_alloc a;
	uint8_t *p, *tail;
	pid_t pid;

	expect_ok(do_alloc(fd, 4 * page, 0, &a), "ALLOC 4 pages");
	p = map(fd, 4 * page, MAP_SHARED, a.mmap_offset);
	check(p != MAP_FAILED, "mmap 4 pages");
	if (p == MAP_FAILED)
		return;
	fill(p, 4 * page, 7);
	expect_ok(do_free(fd, a.handle, 0), "FREE while mapped");
	expect_err(do_sync(fd, FPGAMR_IOC_SYNC_FOR_CPU, a.handle,
			   FPGAMR_DMA_FROM_DEVICE, 0, 64), ENOENT,
		   "SYNC a freed handle");
	expect_usage(1, 4 * page, "freed but mapped");
	check(first_mismatch(p, 4 * page, 7) == (size_t)(4 * page),
	      "mapping still holds its data");
	close(fd);
	expect_usage(1, 4 * page, "file closed, still mapped");

	/* split the VMA, then let a child write through the inherited map */
	check(munmap(p + page, page) == 0, "munmap the second page");
	pid = fork();
	if (pid == 0) {
		memset(p + 3 * page, 0x5a, page);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child exited");
	check(p[3 * page] == 0x5a && p[4 * page - 1] == 0x5a,
	      "child's write through the inherited mapping is visible");
	check(munmap(p, page) == 0, "munmap the first page");
	expect_usage(1, 4 * page, "two pages still mapped");
	tail = p + 2 * page;
	check(munmap(tail, 2 * page) == 0, "munmap the rest");
	expect_usage(0, 0, "last mapping gone");
}

static void test_limit(void)
{
	int fd = open_dma(), ok = 1;
	struct fpgamr_alloc a;

	for (int i = 1; i <= FPGAMR_MAX_BUFFERS && ok; i++)
		ok = do_alloc(fd, 1, 0, &a) == 0 && a.handle == (uint32_t)i;
	check(ok, "%d buffers in one file, handles 1..%d", FPGAMR_MAX_BUFFERS,
	      FPGAMR_MAX_BUFFERS);
	expect_err(do_alloc(fd, 1, 0, &a), ENOSPC, "ALLOC one more");
	expect_usage(FPGAMR_MAX_BUFFERS, FPGAMR_MAX_BUFFERS * page,
		     "table full");
	close(fd);
	expect_usage(0, 0, "after close of the full file");
}

/* a killed process leaks nothing */
static void test_kill(void)
{
	int pipefd[2], status = 0;
	char c = 0;
	pid_t pid;

	if (pipe(pipefd))
		return;
	pid = fork();
	if (pid == 0) {
		struct fpgamr_alloc a;
		int fd = open_dma();
		void *p;

		close(pipefd[0]);
		for (int i = 0; i < 3; i++)
			if (do_alloc(fd, 64 * 1024, 0, &a))
				_exit(2);
		p = map(fd, 64 * 1024, MAP_SHARED, a.mmap_offset);
		if (p == MAP_FAILED)
			_exit(3);
		memset(p, 0xee, 64 * 1024);
		if (write(pipefd[1], "R", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	check(read(pipefd[0], &c, 1) == 1 && c == 'R',
	      "child allocated and mapped");
	expect_usage(3, 3 * 64 * 1024, "child holds 3 buffers");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(pipefd[0]);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "child killed by SIGKILL");
	expect_usage(0, 0, "after the kill");
}

static void test_coherent_data(int fd)
{
	struct fpgamr_alloc a;
	uint8_t *p;

	expect_ok(do_alloc(fd, 64 * 1024, 0, &a), "ALLOC 64 KiB");
	check(a.flags == FPGAMR_BUF_COHERENT, "buffer is coherent (0x%x)",
	      a.flags);
	p = map(fd, 64 * 1024, MAP_SHARED, a.mmap_offset);
	check(p != MAP_FAILED, "mmap 64 KiB");
	if (p == MAP_FAILED)
		return;
	fill(p, 64 * 1024, 3);
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_DEVICE, a.handle,
			  FPGAMR_DMA_TO_DEVICE, 0, 64 * 1024),
		  "coherent SYNC_FOR_DEVICE");
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_CPU, a.handle,
			  FPGAMR_DMA_FROM_DEVICE, 0, 64 * 1024),
		  "coherent SYNC_FOR_CPU");
	check(first_mismatch(p, 64 * 1024, 3) == 64 * 1024,
	      "coherent pattern reads back");
	test_sync_errors(fd, a.handle, a.size);
	munmap(p, 64 * 1024);
	expect_ok(do_free(fd, a.handle, 0), "FREE 64 KiB");
	expect_usage(0, 0, "coherent, after FREE");
}

/* ---- modes ------------------------------------------------------------- */

/* the device goes away (overlay removal) while a process uses it */
static void mode_unplug(void)
{
	struct fpgamr_alloc a, b, c;
	struct fpgamr_info info;
	uint32_t count;
	uint8_t *p;
	int fd, ufd;

	check(discover() == 1, "exactly one UIO device named %s",
	      FPGAMR_UIO_NAME);
	if (failed)
		return;
	fd = open_dma();
	ufd = open(acc.uio_path, O_RDWR | O_CLOEXEC);
	check(ufd >= 0, "open %s", acc.uio_path);
	expect_ok(do_alloc(fd, 8 * page, 0, &a), "ALLOC mapped buffer");
	expect_ok(do_alloc(fd, page, 0, &b), "ALLOC unmapped buffer");
	p = map(fd, 8 * page, MAP_SHARED, a.mmap_offset);
	check(p != MAP_FAILED, "mmap 8 pages");
	if (p == MAP_FAILED)
		return;
	fill(p, 8 * page, 9);

	check(!write_file(SIM_PARAMS "unplug", "1"),
	      "remove the device while it is in use");
	check(discover() == 0, "the UIO device is gone");
	check(count_dma_nodes() == 0, "the DMA node is gone");
	expect_err(ioctl(fd, FPGAMR_IOC_INFO, &info), ENODEV, "INFO after removal");
	expect_err(do_alloc(fd, page, 0, &c), ENODEV, "ALLOC after removal");
	expect_err(do_sync(fd, FPGAMR_IOC_SYNC_FOR_CPU, a.handle,
			   FPGAMR_DMA_FROM_DEVICE, 0, 64), ENODEV,
		   "SYNC after removal");
	expect_err(map_err(fd, page, MAP_SHARED, b.mmap_offset), ENODEV,
		   "mmap after removal");
	expect_err(read(ufd, &count, sizeof(count)), EIO,
		   "UIO read after removal");
	check(first_mismatch(p, 8 * page, 9) == (size_t)(8 * page),
	      "the existing mapping keeps its data");
	memset(p, 0x11, 8 * page);
	expect_ok(do_free(fd, b.handle, 0), "FREE after removal");
	expect_ok(do_free(fd, a.handle, 0), "FREE the mapped one");
	check(p[8 * page - 1] == 0x11, "mapping still usable after FREE");
	check(munmap(p, 8 * page) == 0, "munmap after removal");
	close(ufd);
	check(close(fd) == 0, "close after removal");
}

static void mode_none(void)
{
	check(discover() == 0, "no UIO device named %s", FPGAMR_UIO_NAME);
	check(count_dma_nodes() == 0, "no /dev/%s* node", FPGAMR_DMA_DEV_PREFIX);
	check(access("/sys/bus/platform/drivers/fpgamr-md5", F_OK) == 0,
	      "the driver is registered");
}

static void mode_main(void)
{
	struct fpgamr_info info;
	int fd;

	test_discovery();
	if (failed)
		return;
	expect_attr("coherent", "0");
	expect_usage(0, 0, "at start");
	test_uio();
	fd = open_dma();
	test_info(fd, 0);
	if (ioctl(fd, FPGAMR_IOC_INFO, &info))
		info.max_buf_bytes = 0;
	test_alloc_errors(fd, info.max_buf_bytes);
	test_data(fd, 0);
	test_mmap_errors(fd);
	close(fd);
	test_lifetime();
	test_limit();
	test_kill();
	expect_usage(0, 0, "at the end");
}

static void mode_coherent(void)
{
	int fd;

	check(discover() == 1, "exactly one UIO device named %s",
	      FPGAMR_UIO_NAME);
	if (failed)
		return;
	expect_attr("coherent", "1");
	fd = open_dma();
	test_info(fd, 1);
	test_data(fd, 1);
	test_coherent_data(fd);
	close(fd);
	test_kill();
}

static int mode_hold(const char *ready)
{
	struct fpgamr_alloc a;
	void *p;
	int fd;

	if (discover() != 1)
		return 1;
	fd = open_dma();
	if (do_alloc(fd, 64 * 1024, 0, &a))
		return 1;
	p = map(fd, 64 * 1024, MAP_SHARED, a.mmap_offset);
	if (p == MAP_FAILED)
		return 1;
	close(fd);	/* the mapping alone keeps the module busy */
	if (write_file(ready, "1") && creat(ready, 0644) < 0)
		return 1;
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "main";
	FILE *f;

	page = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "hold"))
		return mode_hold(argc > 2 ? argv[2] : "/tmp/hold.ready");
	if (!strcmp(mode, "fuzz"))
		mode_fuzz(argc > 2 ? atol(argv[2]) : 4000,
			  argc > 3 ? strtoul(argv[3], NULL, 0) : 1);
	else if (!strcmp(mode, "none"))
		mode_none();
	else if (!strcmp(mode, "coherent"))
		mode_coherent();
	else if (!strcmp(mode, "unplug"))
		mode_unplug();
	else
		mode_main();

	printf("fpgamr_test %s: %d passed, %d failed\n", mode, passed, failed);
	f = fopen("/tmp/fpgamr_counts", "w");
	if (f) {
		fprintf(f, "%d %d\n", passed, failed);
		fclose(f);
	}
	return failed ? 1 : 0;
}
