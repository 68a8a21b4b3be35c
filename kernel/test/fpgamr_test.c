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
 *                          across FREE/close/fork/kill, the interrupt path,
 *                          register map 3 (the kernel page out of user
 *                          space's reach) and jobs: SUBMIT's checks, the
 *                          kernel page it programs, ABORT, and FREE or a
 *                          killed submitter stopping the device before its
 *                          pages go back
 *   fpgamr_test coherent   the driver loaded with coherent=1
 *   fpgamr_test caps       the driver loaded with max_dev_bytes=1 MiB and
 *                          max_user_bytes=512 KiB: EDQUOT and ENOSPC
 *   fpgamr_test open NODE...  open each NODE read-write, keeping them open:
 *                          exit 0, or 1 with the errno (the devices-cgroup
 *                          test)
 *   fpgamr_test regs       print the identity registers of the user page as
 *                          "FPGAMR-SYSFS reg/NAME=0x..." (the recording of
 *                          the module's view that the plugin's test reads)
 *   fpgamr_test unplug     the device is removed while in use
 *   fpgamr_test hold FILE  allocate and map a buffer, touch FILE, sleep
 *   fpgamr_test jam FILE   on the node (the RTL behind the window, node-sim):
 *                          a job that jams the device on purpose (issue 39):
 *                          a filter of many hits, a search whose ring holds
 *                          2 records, no MATCH_ACK ever; once the device waits
 *                          with its ring full, write what it reads to FILE
 *                          and sleep until killed
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
#include <pthread.h>
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
#include "fpgamr_sim.h"
#include "../fpgamr-regs.h"	/* register map 3, from hdl/regmap/md5acc.json */

#define DESIGN_MAGIC	FPGAMR_DESIGN_ID
#define REG_IRQ_ENABLE	(FPGAMR_REG_IRQ_ENABLE / 4)
#define REG_IRQ_STATUS	(FPGAMR_REG_IRQ_STATUS / 4)
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
	static int uio_held = -1;	/* the DMA node opens only beside it */
	int fd;

	if (uio_held < 0)
		uio_held = open(acc.uio_path, O_RDONLY | O_CLOEXEC);
	fd = open(acc.dma_path, O_RDWR | O_CLOEXEC);

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

/*
 * The bus address behind a mapped buffer's byte, as the device uses it:
 * fpgamr_sim.ko reads it from the page table, since fpgamr.ko tells user
 * space none (API 3).  0 if it cannot.
 */
static uint64_t bus_of(const void *p)
{
	uint64_t v = (uintptr_t)p;
	int sim = open("/dev/fpgamr-sim", O_RDWR | O_CLOEXEC);

	if (sim < 0 || ioctl(sim, FPGAMR_SIM_IOC_BUS_ADDR, &v))
		v = 0;
	if (sim >= 0)
		close(sim);
	return v;
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
	snprintf(want, sizeof(want), "0x%08x", FPGAMR_REGMAP_VERSION);
	expect_attr("regmap_version", want);
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
	check(regs[1] == FPGAMR_REGMAP_VERSION, "REGMAP_VERSION via UIO is 0x%08x",
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
	check(info.regmap_version == FPGAMR_REGMAP_VERSION, "INFO regmap_version 0x%08x",
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
	if (read_file("/sys/module/fpgamr/parameters/max_dev_bytes", buf,
		      sizeof(buf)))
		buf[0] = 0;
	check(info.max_dev_bytes == strtoull(buf, NULL, 0),
	      "max_dev_bytes %llu is the module parameter (%s)",
	      (unsigned long long)info.max_dev_bytes, buf);
	if (read_file("/sys/module/fpgamr/parameters/max_user_bytes", buf,
		      sizeof(buf)))
		buf[0] = 0;
	check(info.max_user_bytes == strtoull(buf, NULL, 0),
	      "max_user_bytes %llu is the module parameter (%s)",
	      (unsigned long long)info.max_user_bytes, buf);
	check(info.bus_bytes == 32 && info.reserved == 0,
	      "bus_bytes %u: DESIGN_PARAMS' 256-bit bus", info.bus_bytes);
}

static void test_alloc_errors(int fd, uint64_t max)
{
	uint8_t api2[32], api2_was[32];
	struct fpgamr_alloc a;
	char mi[4096];
	int has_cma;

	expect_err(do_alloc(fd, 0, 0, &a), EINVAL, "ALLOC size 0");
	expect_err(do_alloc(fd, page, 1, &a), EINVAL, "ALLOC flags 1");
	expect_err(do_alloc(fd, max + 1, 0, &a), E2BIG, "ALLOC max_buf_bytes+1");
	expect_err(do_alloc(fd, UINT64_MAX, 0, &a), E2BIG, "ALLOC 2^64-1");
	expect_err(ioctl(fd, FPGAMR_IOC_ALLOC, NULL), EFAULT, "ALLOC NULL");
	memset(api2, 0xa5, sizeof(api2));
	memcpy(api2, &(uint64_t){ page }, sizeof(uint64_t));
	memcpy(api2_was, api2, sizeof(api2));
	expect_err(ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, FPGAMR_IOC_MAGIC, 0x01,
				  sizeof(api2)), api2), ENOTTY,
		   "API 2's ALLOC (a 32-byte argument that returned the bus address)");
	check(!memcmp(api2, api2_was, sizeof(api2)),
	      "... its argument left as it was");
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
	uint64_t src = bus_of(p), dst;
	uint8_t *q;

	expect_ok(do_alloc(fd, len, 0, &c), "ALLOC 1 MiB destination");
	q = map(fd, len, MAP_SHARED, c.mmap_offset);
	check(q != MAP_FAILED, "mmap the destination");
	if (q == MAP_FAILED)
		return;
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_DEVICE, c.handle,
			  FPGAMR_DMA_FROM_DEVICE, 0, len),
		  "SYNC_FOR_DEVICE destination (FROM_DEVICE)");
	dst = bus_of(q);
	check(src && dst, "fpgamr_sim.ko finds both buffers' bus addresses");
	expect_ok(device_copy(src, dst, len),
		  "device copies 1 MiB between the buffers' bus addresses");
	expect_ok(do_sync(fd, FPGAMR_IOC_SYNC_FOR_CPU, c.handle,
			  FPGAMR_DMA_FROM_DEVICE, 0, len),
		  "SYNC_FOR_CPU destination");
	check(first_mismatch(q, len, 1) == len,
	      "the device read what the CPU wrote, the CPU reads what the device wrote");
	memset(q, 0, len);
	do_sync(fd, FPGAMR_IOC_SYNC_FOR_DEVICE, c.handle,
		FPGAMR_DMA_BIDIRECTIONAL, 0, len);
	expect_ok(device_copy(src + 3 * page, dst + page, 2 * page),
		  "device copies 2 pages at an offset");
	do_sync(fd, FPGAMR_IOC_SYNC_FOR_CPU, c.handle, FPGAMR_DMA_FROM_DEVICE,
		0, len);
	check(all_zero(q, page) && !memcmp(q + page, p + 3 * page, 2 * page) &&
	      all_zero(q + 3 * page, len - 3 * page),
	      "offset copy landed exactly at the bus address + offset");
	expect_err(device_copy(0x1000, dst, page), EINVAL,
		   "bus address 0x1000 is no allocated memory");
	munmap(q, len);
	expect_ok(do_free(fd, c.handle, 0), "FREE destination");
}

/* a word of ALLOC's reply that names the buffer's bus address or its page */
static int names_bus(const struct fpgamr_alloc *a, uint64_t bus)
{
	uint32_t w[sizeof(*a) / 4];

	memcpy(w, a, sizeof(w));
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (w[i] == (uint32_t)bus || w[i] == (uint32_t)(bus / page))
			return 1;
	return 0;
}

static void test_data(int fd, int coherent)
{
	struct fpgamr_alloc a, b;
	uint64_t lo, hi, bus;
	uint8_t *p, *q;
	size_t len = MIB;

	expect_ok(do_alloc(fd, len, 0, &a), "ALLOC 1 MiB");
	check(a.size == len, "size is 1 MiB (%llu)", (unsigned long long)a.size);
	check(a.handle >= 1 && a.mmap_offset == (uint64_t)a.handle * page,
	      "handle %u, mmap_offset %llu", a.handle,
	      (unsigned long long)a.mmap_offset);
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
	bus = bus_of(p);
	if (dma_pool(&lo, &hi))
		check(bus >= lo && bus + a.size <= hi,
		      "its bus address 0x%llx is in the node's memory-region [0x%llx, 0x%llx)",
		      (unsigned long long)bus, (unsigned long long)lo,
		      (unsigned long long)hi);
	check(bus && !(bus % page) && bus + a.size <= (1ull << 32),
	      "its bus address 0x%llx (fpgamr_sim.ko's) is page aligned and below 4 GiB",
	      (unsigned long long)bus);
	check(sizeof(a) == 24 && !names_bus(&a, bus),
	      "ALLOC's reply carries no bus address: size, mmap_offset, handle, flags; no word is 0x%llx or its page number",
	      (unsigned long long)bus);
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

/* ---- register map 3: the kernel page and jobs ------------------------- */

/* every register that decides where or how much the device reads or
 * writes, and CTRL (START) */
static const unsigned int job_regs[] = {
	FPGAMR_REG_CTRL, FPGAMR_REG_MODE, FPGAMR_REG_START_LO,
	FPGAMR_REG_START_HI, FPGAMR_REG_COUNT_LO, FPGAMR_REG_COUNT_HI,
	FPGAMR_REG_SRC_LO, FPGAMR_REG_SRC_HI, FPGAMR_REG_DST_LO,
	FPGAMR_REG_DST_HI, FPGAMR_REG_MATCH_CAP,
};

#define WREG(win, reg)	((win)[FPGAMR_REG_##reg / 4])

/* both pages of the register window, as the device sees them */
static volatile uint32_t *dev_window(int *sim, size_t *span)
{
	char buf[64];
	uint8_t *p;

	*sim = open("/dev/fpgamr-sim", O_RDWR | O_CLOEXEC);
	if (*sim < 0 || read_file(SIM_PARAMS "regs", buf, sizeof(buf)))
		return NULL;
	p = bus_map(*sim, strtoull(buf, NULL, 0), FPGAMR_WINDOW_BYTES, span);
	return (volatile uint32_t *)p;
}

/* the device took the driver's command: CTRL reads 0 (it is write-only) */
static uint32_t take_ctrl(volatile uint32_t *win)
{
	uint32_t v = WREG(win, CTRL);

	WREG(win, CTRL) = 0;
	return v;
}

/* A process that maps the register window reaches no register of a job. */
static void test_user_page(volatile uint32_t *win)
{
	static uint32_t saved[FPGAMR_USER_PAGE_BYTES / 4],
			kpage[FPGAMR_KERNEL_PAGE_BYTES / 4];
	const unsigned int kp = FPGAMR_KERNEL_PAGE / 4;
	volatile uint32_t *regs;
	size_t i, n = FPGAMR_USER_PAGE_BYTES / 4;
	int fd, all = 1;

	for (i = 0; i < sizeof(job_regs) / sizeof(job_regs[0]); i++)
		all &= job_regs[i] >= FPGAMR_KERNEL_PAGE &&
		       job_regs[i] < FPGAMR_KERNEL_PAGE + FPGAMR_KERNEL_PAGE_BYTES;
	check(all && FPGAMR_REGMAP_MAJOR == 3,
	      "register map 3: SRC, DST, COUNT, MODE, START, MATCH_CAP and CTRL are on the kernel page");
	fd = open(acc.uio_path, O_RDWR | O_CLOEXEC);
	expect_err(map_err(fd, 2 * FPGAMR_USER_PAGE_BYTES, MAP_SHARED, 0),
		   EINVAL, "mmap of both pages through UIO");
	expect_err(map_err(fd, FPGAMR_USER_PAGE_BYTES, MAP_SHARED, page),
		   EINVAL, "mmap of the page after the user page (UIO map 1)");
	regs = mmap(NULL, FPGAMR_USER_PAGE_BYTES, PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	check(regs != MAP_FAILED, "mmap of the user page");
	if (regs == MAP_FAILED) {
		close(fd);
		return;
	}
	/* a hostile program writes every word it can reach */
	for (i = 0; i < n; i++)
		saved[i] = regs[i];
	for (i = 0; i < n; i++)
		kpage[i] = win[kp + i];
	for (i = 0; i < n; i++)
		regs[i] = 0xffffffff;
	for (all = 1, i = 0; i < n; i++)
		all &= win[kp + i] == kpage[i];
	check(all && WREG(win, CTRL) == 0 && WREG(win, SRC_LO) == kpage[(FPGAMR_REG_SRC_LO - FPGAMR_KERNEL_PAGE) / 4],
	      "writing every word of the mapped window leaves the kernel page as it was");
	for (i = 0; i < n; i++)
		regs[i] = saved[i];
	munmap((void *)regs, FPGAMR_USER_PAGE_BYTES);
	close(fd);
}

static long submit(int fd, uint32_t op, uint32_t width, uint64_t count,
		   uint32_t src, uint64_t soff, uint32_t dst, uint64_t doff,
		   uint32_t cap)
{
	struct fpgamr_submit s = {
		.op = op, .width = width, .count = count,
		.src_handle = src, .src_offset = soff,
		.dst_handle = dst, .dst_offset = doff, .match_cap = cap,
	};

	return ioctl(fd, FPGAMR_IOC_SUBMIT, &s);
}

struct free_call {
	int fd;
	uint32_t handle;
	long ret;
	volatile int done;
};

static void *free_thread(void *arg)
{
	struct free_call *c = arg;

	c->ret = do_free(c->fd, c->handle, 0);
	c->done = 1;
	return NULL;
}

/* wait (10 s at most) until the driver wrote want into CTRL */
static int wait_ctrl(volatile uint32_t *win, uint32_t want)
{
	for (int i = 0; i < 10000 && WREG(win, CTRL) != want; i++)
		usleep(1000);
	return WREG(win, CTRL) == want;
}

/* a buffer's bus address: its first page mapped for fpgamr_sim.ko to read */
static uint64_t buf_bus(int fd, const struct fpgamr_alloc *a)
{
	void *p = map(fd, page, MAP_SHARED, a->mmap_offset);
	uint64_t bus;

	if (p == MAP_FAILED)
		return 0;
	bus = bus_of(p);
	munmap(p, page);
	return bus;
}

static void test_submit(volatile uint32_t *win)
{
	const uint64_t sz = 64 * 1024;
	struct fpgamr_alloc a, b, c;
	uint64_t abus, bbus, cbus;
	struct free_call fc;
	pthread_t th;
	uint32_t started = WREG(win, JOBS_STARTED);
	char before[64], during[64];
	int fd = open_dma(), fd2 = open_dma();

	if (do_alloc(fd, sz, 0, &a) || do_alloc(fd, sz, 0, &b) ||
	    do_alloc(fd2, sz, 0, &c) || do_alloc(fd2, sz, 0, &c) ||
	    do_alloc(fd2, sz, 0, &c)) {
		check(0, "five buffers for the job tests");
		return;
	}
	abus = buf_bus(fd, &a);
	bbus = buf_bus(fd, &b);
	cbus = buf_bus(fd2, &c);
	check(abus && bbus && cbus, "fpgamr_sim.ko finds the job buffers' bus addresses");
	/* refusals, in the header's order; nothing reaches the device */
	expect_err(submit(fd, 2, 4, 1, a.handle, 0, b.handle, 0, 0), EINVAL,
		   "SUBMIT op 2");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 9, 1, a.handle, 0, b.handle, 0, 0),
		   EINVAL, "SUBMIT width 9");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 0, 1, a.handle, 0, b.handle, 0, 0),
		   EINVAL, "SUBMIT width 0");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 4, 1, a.handle, 16, b.handle, 0, 0),
		   EINVAL, "SUBMIT hash source offset 16 (bus: 32 bytes)");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 4, 1, a.handle, 0, b.handle, 0, 4),
		   EINVAL, "SUBMIT hash with a match ring");
	expect_err(submit(fd, FPGAMR_JOB_SEARCH, 4, 1, a.handle, 0, b.handle, 0, 4),
		   EINVAL, "SUBMIT search with a source");
	expect_err(submit(fd, FPGAMR_JOB_SEARCH, 4, 1, 0, 0, b.handle, 0, 0),
		   EINVAL, "SUBMIT search without ring capacity");
	expect_err(submit(fd, FPGAMR_JOB_SEARCH, 4, 1, 0, 0, b.handle, 16, 4),
		   EINVAL, "SUBMIT search ring at offset 16");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 4, 1, a.handle, 0, 3, 0, 0),
		   ENOENT, "SUBMIT with another file's handle 3");
	expect_err(submit(fd, FPGAMR_JOB_SEARCH, 4, 1, 0, 0, 0, 0, 4),
		   ENOENT, "SUBMIT with handle 0");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 4, sz / 16 + 1, a.handle, 0,
			  b.handle, 0, 0), ERANGE,
		   "SUBMIT hash with more digests than the buffer holds");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 5, sz / 8, a.handle, 32,
			  b.handle, 0, 0), ERANGE,
		   "SUBMIT hash whose messages run past the buffer's end");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 4, 1, a.handle, 0, b.handle,
			  sz, 0), ERANGE, "SUBMIT hash with digests at the buffer's end");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 4, UINT64_MAX / 4, a.handle, 0,
			  b.handle, 0, 0), ERANGE, "SUBMIT hash whose size overflows");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 4, 1, a.handle, 0, b.handle,
			  UINT64_MAX & ~31ull, 0), ERANGE,
		   "SUBMIT hash whose offset wraps");
	expect_err(submit(fd, FPGAMR_JOB_SEARCH, 4, 1, 0, 0, b.handle, 0,
			  sz / 32 + 1), ERANGE,
		   "SUBMIT search with a ring larger than its buffer");
	check(WREG(win, CTRL) == 0 && WREG(win, SRC_LO) == 0 &&
	      WREG(win, DST_LO) == 0 && WREG(win, COUNT_LO) == 0,
	      "no refused job reached the kernel page");
	expect_err(ioctl(fd, FPGAMR_IOC_ABORT), ENOENT, "ABORT with no job");

	/* a job: the kernel page holds exactly what was checked */
	expect_ok(submit(fd, FPGAMR_JOB_HASH, 5, 100, a.handle, 32, b.handle,
			 64, 0), "SUBMIT hash 100 messages");
	check(WREG(win, MODE) == (FPGAMR_OP_HASH | 5 << FPGAMR_MODE_WIDTH_SHIFT) &&
	      WREG(win, COUNT_LO) == 100 && WREG(win, COUNT_HI) == 0 &&
	      WREG(win, SRC_LO) == (uint32_t)(abus + 32) &&
	      WREG(win, DST_LO) == (uint32_t)(bbus + 64) &&
	      WREG(win, SRC_HI) == (uint32_t)((abus + 32) >> 32) &&
	      WREG(win, MATCH_CAP) == 0 && WREG(win, START_LO) == 0,
	      "the kernel page: MODE 0x%x COUNT %u SRC 0x%x (buffer + 32) DST 0x%x (buffer + 64)",
	      WREG(win, MODE), WREG(win, COUNT_LO), WREG(win, SRC_LO),
	      WREG(win, DST_LO));
	check(take_ctrl(win) == FPGAMR_CTRL_START_MASK, "then CTRL.START");
	/* the device takes it and runs */
	WREG(win, JOBS_STARTED) = ++started;
	WREG(win, STATUS) = FPGAMR_STATUS_BUSY_MASK;
	expect_attr("state", "running");
	expect_err(submit(fd, FPGAMR_JOB_HASH, 4, 1, a.handle, 0, b.handle, 0, 0),
		   EBUSY, "SUBMIT while the device runs a job");
	expect_err(submit(fd2, FPGAMR_JOB_SEARCH, 4, 1, 0, 0, c.handle, 0, 4),
		   EBUSY, "another file's SUBMIT while it runs");
	expect_err(ioctl(fd2, FPGAMR_IOC_ABORT), ENOENT,
		   "ABORT of another file's job");
	expect_ok(ioctl(fd, FPGAMR_IOC_ABORT), "ABORT of its own job");
	check(take_ctrl(win) == FPGAMR_CTRL_ABORT_MASK, "writes CTRL.ABORT");

	/* FREE of the running job's buffer waits until the device is idle */
	attr("buffers_in_use", before, sizeof(before));
	fc = (struct free_call){ .fd = fd, .handle = b.handle };
	pthread_create(&th, NULL, free_thread, &fc);
	check(wait_ctrl(win, FPGAMR_CTRL_ABORT_MASK),
	      "FREE of the job's destination: the driver aborts the job");
	usleep(200 * 1000);
	attr("buffers_in_use", during, sizeof(during));
	check(!fc.done && !strcmp(before, during),
	      "while the device is busy FREE waits and no buffer is freed (%s buffers)",
	      during);
	take_ctrl(win);
	WREG(win, STATUS) = FPGAMR_STATUS_DONE_MASK | FPGAMR_STATUS_ABORTED_MASK;
	pthread_join(th, NULL);
	check(fc.ret == 0, "FREE returns once the device is idle");
	expect_attr("state", "idle");
	attr("buffers_in_use", during, sizeof(during));
	check(atol(during) == atol(before) - 1, "then the buffer is freed (%s)",
	      during);

	/* the device idle: the next job starts, on another file */
	expect_ok(submit(fd2, FPGAMR_JOB_SEARCH, 4, 1 << 20, 0, 0, c.handle,
			 sz - 32 * 16, 16), "SUBMIT search on the other file");
	check(WREG(win, MODE) == (FPGAMR_OP_SEARCH | 4 << FPGAMR_MODE_WIDTH_SHIFT) &&
	      WREG(win, DST_LO) == (uint32_t)(cbus + sz - 32 * 16) &&
	      WREG(win, MATCH_CAP) == 16 && WREG(win, SRC_LO) == 0 &&
	      WREG(win, COUNT_LO) == 1 << 20 && take_ctrl(win) == FPGAMR_CTRL_START_MASK,
	      "the kernel page: the search's ring at the buffer's last 512 bytes, then START");
	WREG(win, JOBS_STARTED) = ++started;
	WREG(win, STATUS) = FPGAMR_STATUS_DONE_MASK;	/* done at once */
	close(fd2);
	check(WREG(win, CTRL) == 0,
	      "closing the file of a finished job needs no ABORT");
	close(fd);
	expect_usage(0, 0, "after the job tests");
}

/*
 * A container killed mid-batch: its DMA file is closed by the kernel while
 * the device runs its job.  The driver stops the device and waits until it
 * is idle before the process's pages go back.
 */
static void test_killed_mid_batch(volatile uint32_t *win)
{
	uint32_t started = WREG(win, JOBS_STARTED);
	int pipefd[2], status = 0, ok;
	char c = 0, during[64];
	pid_t pid;

	if (pipe(pipefd))
		return;
	pid = fork();
	if (pid == 0) {
		struct fpgamr_alloc in, out;
		int fd = open_dma();

		close(pipefd[0]);
		if (do_alloc(fd, 64 * 1024, 0, &in) ||
		    do_alloc(fd, 64 * 1024, 0, &out) ||
		    submit(fd, FPGAMR_JOB_HASH, 4, 4096, in.handle, 0,
			   out.handle, 0, 0))
			_exit(2);
		if (write(pipefd[1], "S", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	ok = read(pipefd[0], &c, 1) == 1 && c == 'S';
	close(pipefd[0]);
	check(ok && take_ctrl(win) == FPGAMR_CTRL_START_MASK,
	      "a child submitted a hash job (START)");
	WREG(win, JOBS_STARTED) = ++started;
	WREG(win, STATUS) = FPGAMR_STATUS_BUSY_MASK;
	expect_usage(2, 128 * 1024, "the running job's two buffers");
	kill(pid, SIGKILL);
	check(wait_ctrl(win, FPGAMR_CTRL_ABORT_MASK),
	      "SIGKILL mid-batch: the driver aborts the job");
	usleep(200 * 1000);
	attr("buffers_in_use", during, sizeof(during));
	check(waitpid(pid, &status, WNOHANG) == 0 && !strcmp(during, "2"),
	      "while the device is busy the dying process's pages stay (%s buffers)",
	      during);
	take_ctrl(win);
	WREG(win, STATUS) = FPGAMR_STATUS_DONE_MASK | FPGAMR_STATUS_ABORTED_MASK;
	check(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status),
	      "the child exits once the device is idle");
	expect_usage(0, 0, "then its buffers are freed");
	WREG(win, STATUS) = 0;
}

/* register map 3 and jobs; budget: about 1 s of the guest's time (two
 * 200 ms waits that show the driver still holding pages) */
static void test_jobs(void)
{
	volatile uint32_t *win;
	size_t span = 0;
	int sim = -1;

	win = dev_window(&sim, &span);
	check(win != NULL, "the device's view of both register pages");
	if (!win)
		return;
	test_user_page(win);
	test_submit(win);
	test_killed_mid_batch(win);
	munmap((void *)((uintptr_t)win & ~(uintptr_t)(page - 1)), span);
	close(sim);
}

/* a child of uid that holds bytes of DMA memory; -1 if it could not */
static pid_t hold_as(uid_t uid, uint64_t bytes, int *release)
{
	int up[2], down[2];
	char c;
	pid_t pid;

	if (pipe(up) || pipe(down))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct fpgamr_alloc a;
		int fd = open_dma();	/* 0600: opened as root */

		close(up[0]);
		close(down[1]);
		if (setuid(uid) || do_alloc(fd, bytes, 0, &a) ||
		    write(up[1], "H", 1) != 1)
			_exit(2);
		_exit(read(down[0], &c, 1) == 1 ? 0 : 3);
	}
	close(up[1]);
	close(down[0]);
	*release = down[1];
	if (read(up[0], &c, 1) != 1)
		pid = -1;
	close(up[0]);
	return pid;
}

/* The caps: 512 KiB per user, 1 MiB per device (init.sh loads them).
 * Budget: under a second of the guest's time. */
static void mode_caps(void)
{
	const uint64_t k256 = 256 * 1024;
	struct fpgamr_alloc a;
	int fd, status, rel = -1;
	pid_t pid;

	check(discover() == 1, "exactly one UIO device named %s",
	      FPGAMR_UIO_NAME);
	fd = open_dma();
	expect_ok(do_alloc(fd, k256, 0, &a), "root: 256 KiB");
	expect_ok(do_alloc(fd, k256, 0, &a), "root: 256 KiB more (its cap)");
	expect_err(do_alloc(fd, page, 0, &a), EDQUOT, "root: one page more");
	/* another user under its cap fills the device (1 MiB) */
	pid = hold_as(1000, 2 * k256, &rel);
	check(pid > 0, "uid 1000 holds 512 KiB (its cap)");
	expect_usage(3, 4 * k256, "the device holds 1 MiB");
	if (pid > 0) {
		pid_t p3 = fork();

		if (p3 == 0) {
			int cfd = open_dma();

			if (setuid(1001))
				_exit(2);
			_exit(do_alloc(cfd, page, 0, &a) == -1 && errno == ENOSPC ? 0 : 3);
		}
		check(waitpid(p3, &status, 0) == p3 && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
		      "uid 1001, under its own cap: one page fails with ENOSPC (the device's cap)");
		check(write(rel, "R", 1) == 1 && waitpid(pid, &status, 0) == pid &&
		      WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "uid 1000 lets go of its buffer and exits");
		close(rel);
	}
	expect_usage(2, 2 * k256, "uid 1000's buffers went with it");
	expect_err(do_alloc(fd, page, 0, &a), EDQUOT, "root is still at its cap");
	close(fd);
	expect_usage(0, 0, "after close");
	fd = open_dma();
	expect_ok(do_alloc(fd, 2 * k256, 0, &a), "root's quota is back: 512 KiB");
	close(fd);
}

/* the identity registers through UIO, as the plugin's test reads them */
static int mode_regs(void)
{
	static const struct { const char *name; unsigned int off; } r[] = {
		{ "DESIGN_ID", FPGAMR_REG_DESIGN_ID },
		{ "REGMAP_VERSION", FPGAMR_REG_REGMAP_VERSION },
		{ "DESIGN_PARAMS", FPGAMR_REG_DESIGN_PARAMS },
		{ "CLOCK_KHZ", FPGAMR_REG_CLOCK_KHZ },
	};
	volatile uint32_t *regs;
	int fd;

	if (discover() != 1)
		return 1;
	fd = open(acc.uio_path, O_RDONLY | O_CLOEXEC);
	regs = fd < 0 ? MAP_FAILED :
	       mmap(NULL, FPGAMR_USER_PAGE_BYTES, PROT_READ, MAP_SHARED, fd, 0);
	if (regs == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		printf("FPGAMR-SYSFS reg/%s=0x%08x\n", r[i].name,
		       regs[r[i].off / 4]);
	return 0;
}

/* the devices-cgroup test: open each NODE read-write, in order, keeping
 * them open; exit 0, or 1 at the first that fails (its errno printed) */
static int mode_open(char **nodes, int n)
{
	for (int i = 0; i < n; i++)
		if (open(nodes[i], O_RDWR | O_CLOEXEC) < 0) {
			printf("open %s: %s\n", nodes[i], ename(errno));
			return 1;
		}
	return 0;
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
	test_jobs();
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

/*
 * A job that jams the device on purpose (issue 39): a filter that lets many
 * values through, a match ring of JAM_CAP records and no MATCH_ACK ever, so
 * the device fills the ring and waits for ever with hits pending.  Only the
 * kernel's ABORT, when the test kills this process, can end the job: on a
 * 3.0 design the pending hits kept it busy and the device wedged.  The
 * filter is all ones, every word of both arrays (the design's size, from
 * DESIGN_PARAMS.FILTER_IDX_BITS: 2^bits indices, 2^bits / 32 words each), so
 * every value hits: the worst a job can do, whatever the last program left
 * in the filter.  Under node-sim each FILTER_DATA store is a trapped write
 * (about 10 ms of the guest's time at a light load); a third hit jams it.
 */
#define JAM_CAP		2

static int mode_jam(const char *file)
{
	volatile uint32_t *regs;
	struct fpgamr_alloc a;
	char tmp[PATH_MAX];
	unsigned int a_i, i, words;
	int fd, uio;
	FILE *f;

	if (discover() != 1)
		return 1;
	uio = open(acc.uio_path, O_RDWR | O_CLOEXEC);
	regs = uio < 0 ? MAP_FAILED :
	       mmap(NULL, FPGAMR_USER_PAGE_BYTES, PROT_READ | PROT_WRITE,
		    MAP_SHARED, uio, 0);
	if (regs == MAP_FAILED)
		return 1;
	words = (1u << ((regs[FPGAMR_REG_DESIGN_PARAMS / 4] &
			 FPGAMR_DESIGN_PARAMS_FILTER_IDX_BITS_MASK) >>
			FPGAMR_DESIGN_PARAMS_FILTER_IDX_BITS_SHIFT)) / 32;
	fd = open_dma();
	if (do_alloc(fd, page, 0, &a))
		return 1;
	for (a_i = 0; a_i < FPGAMR_FILTER_ARRAYS; a_i++) {
		/* FILTER_ADDR auto-increments at each FILTER_DATA */
		regs[FPGAMR_REG_FILTER_ADDR / 4] =
			a_i << FPGAMR_FILTER_ADDR_ARRAY_SHIFT;
		for (i = 0; i < words; i++)
			regs[FPGAMR_REG_FILTER_DATA / 4] = 0xffffffff;
	}
	if (submit(fd, FPGAMR_JOB_SEARCH, 4, 1 << 20, 0, 0, a.handle, 0,
		   JAM_CAP)) {
		printf("fpgamr_test jam: SUBMIT: %s\n", ename(errno));
		return 1;
	}
	/*
	 * node-sim refreshes the window's status registers at a store it
	 * traps (a board's reads are live): clearing IRQ_STATUS.MATCH, which
	 * acknowledges no record, is that store.  Up to 60 s for the ring to
	 * fill.
	 */
	for (i = 0; i < 600; i++) {
		regs[REG_IRQ_STATUS] = FPGAMR_IRQ_STATUS_MATCH_MASK;
		if ((regs[FPGAMR_REG_STATUS / 4] & FPGAMR_STATUS_MATCH_FULL_MASK) &&
		    regs[FPGAMR_REG_MATCH_COUNT / 4] == JAM_CAP)
			break;
		usleep(100 * 1000);
	}
	/* FILE appears whole: the test reads it as soon as it exists */
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f)
		return 1;
	fprintf(f, "STATUS 0x%x MATCH_COUNT %u MATCH_ACK %u\n",
		regs[FPGAMR_REG_STATUS / 4], regs[FPGAMR_REG_MATCH_COUNT / 4],
		regs[FPGAMR_REG_MATCH_ACK / 4]);
	if (fclose(f) || rename(tmp, file))
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
	if (!strcmp(mode, "regs"))
		return mode_regs();
	if (!strcmp(mode, "jam"))
		return mode_jam(argc > 2 ? argv[2] : "/tmp/jam.full");
	if (!strcmp(mode, "open"))
		return mode_open(argv + 2, argc - 2);
	if (!strcmp(mode, "fuzz"))
		mode_fuzz(argc > 2 ? atol(argv[2]) : 4000,
			  argc > 3 ? strtoul(argv[3], NULL, 0) : 1);
	else if (!strcmp(mode, "none"))
		mode_none();
	else if (!strcmp(mode, "coherent"))
		mode_coherent();
	else if (!strcmp(mode, "unplug"))
		mode_unplug();
	else if (!strcmp(mode, "caps"))
		mode_caps();
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
