// SPDX-License-Identifier: GPL-2.0
/*
 * fpgamr_fuzz.c - hostile user space against fpgamr.ko: "fpgamr_test fuzz".
 *
 * FUZZ_THREADS threads make CALLS calls in all on a few open files of
 * /dev/fpgamr-dmaK, which they (the first in half of its calls) close and
 * reopen under the others' feet: ALLOC with random sizes and flags; FREE and SYNC with live, stale,
 * foreign and random handles, directions, offsets and lengths; mmap with
 * live, stale and random offsets, random lengths and flags; munmap, whole
 * and partial; writes through every live mapping; unknown requests and bad
 * pointers; fork with live mappings; mmap of the UIO window at random
 * offsets and lengths.  Every call must succeed or fail with an errno the
 * UAPI header documents for it (when the file was closed under the call, any
 * outcome of a call on a closed or another open file); a crash, a hang or
 * any other errno fails.  Afterwards every buffer must be back
 * (buffers_in_use and bytes_in_use 0).  Before that, a second process must
 * not be able to use the buffers of the first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fpgamr_test.h"

#define FUZZ_THREADS	4
#define FUZZ_FILES	3
#define FUZZ_HANDLES	32
#define FUZZ_MAPS	48
#define FUZZ_MAX_LIVE	(24ul << 20)	/* bytes the fuzz keeps allocated */
#define MAX_ERRNO	160

enum op {
	OP_ALLOC, OP_FREE, OP_SYNC, OP_MMAP, OP_MUNMAP, OP_TOUCH, OP_REOPEN,
	OP_BADPTR, OP_UNKNOWN, OP_FORK, OP_UIO_MMAP, OP_INFO, OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"alloc", "free", "sync", "mmap", "munmap", "touch", "close+open",
	"bad pointer", "unknown request", "fork", "uio mmap", "info",
};

/* out of 100 */
static const int op_weight[OP_COUNT] = { 20, 13, 18, 14, 8, 4, 4, 4, 3, 3, 4, 5 };

struct known {
	uint32_t handle;
	uint64_t offset;
	uint64_t size;
};

struct file_slot {
	pthread_mutex_t lock;
	int fd;
	unsigned int gen;	/* bumped by each close */
	int nknown;
	struct known known[FUZZ_HANDLES];
};

struct mapping {
	uint8_t *addr;
	size_t len;
};

static struct file_slot files[FUZZ_FILES];
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mapping maps[FUZZ_MAPS];
static int nmaps;
static int uio_fd = -1;
static uint64_t max_buf;
static long calls_per_thread;

static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static long op_calls[OP_COUNT], op_ok[OP_COUNT];
static long errno_seen[MAX_ERRNO];
static long unexpected, raced;

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return r->s;
}

static uint64_t below(struct rng *r, uint64_t n)
{
	return n ? rnd(r) % n : 0;
}

static unsigned int read_gen(struct file_slot *f)
{
	return __atomic_load_n(&f->gen, __ATOMIC_ACQUIRE);
}

/*
 * Count one call: ret 0 is success (allowed unless must_fail), else errno e
 * must be in allowed[].  A call whose file was closed under it (its slot's
 * generation moved) may end any way: it is counted as raced.
 */
static void account(enum op op, long ret, int e, const int *allowed, int n,
		    int must_fail, unsigned int gen_before,
		    struct file_slot *f, const char *what)
{
	int ok = ret == 0 && !must_fail;
	int raced_call = f && read_gen(f) != gen_before;

	for (int i = 0; !ok && i < n; i++)
		ok = allowed[i] == e;
	pthread_mutex_lock(&count_lock);
	op_calls[op]++;
	if (ret == 0)
		op_ok[op]++;
	else if (e > 0 && e < MAX_ERRNO)
		errno_seen[e]++;
	if (!ok && raced_call) {
		raced++;
	} else if (!ok) {
		unexpected++;
		if (unexpected <= 10)
			printf("fuzz: %s: unexpected %s (ret %ld)\n", what,
			       ename(e), ret);
	}
	pthread_mutex_unlock(&count_lock);
}

/* the slot's fd and generation, for a call made without the lock */
static int slot_fd(struct file_slot *f, unsigned int *gen)
{
	int fd;

	pthread_mutex_lock(&f->lock);
	fd = f->fd;
	*gen = f->gen;
	pthread_mutex_unlock(&f->lock);
	return fd;
}

/* a handle to try: mostly one this file had, else any number */
static struct known pick_known(struct file_slot *f, struct rng *r)
{
	struct known k = { 0 };
	uint64_t c = below(r, 10);

	pthread_mutex_lock(&f->lock);
	if (c < 7 && f->nknown)
		k = f->known[below(r, f->nknown)];
	pthread_mutex_unlock(&f->lock);
	if (!k.handle) {
		k.handle = c < 9 ? (uint32_t)below(r, 64) : (uint32_t)rnd(r);
		k.offset = (uint64_t)k.handle * page;
		k.size = page;
	}
	return k;
}

static void forget(struct file_slot *f, uint32_t handle)
{
	pthread_mutex_lock(&f->lock);
	for (int i = 0; i < f->nknown; i++)
		if (f->known[i].handle == handle) {
			f->known[i] = f->known[--f->nknown];
			break;
		}
	pthread_mutex_unlock(&f->lock);
}

static uint64_t live_bytes(void)
{
	uint64_t n = 0;

	for (int i = 0; i < FUZZ_FILES; i++) {
		pthread_mutex_lock(&files[i].lock);
		for (int j = 0; j < files[i].nknown; j++)
			n += files[i].known[j].size;
		pthread_mutex_unlock(&files[i].lock);
	}
	return n;
}

static uint64_t random_size(struct rng *r)
{
	switch (below(r, 10)) {
	case 0:
		return 0;
	case 1:
		return max_buf + 1 + below(r, 1ull << 40);
	case 2:
		return rnd(r);
	case 3:
		return max_buf - below(r, 2 * page);
	case 4:
	case 5:
		return (1 + below(r, 256)) * page;
	default:
		return 1 + below(r, 65536);
	}
}

static void op_alloc(struct file_slot *f, struct rng *r)
{
	static const int einval[] = { EINVAL }, e2big[] = { E2BIG };
	static const int full[] = { ENOMEM, ENOSPC };
	struct fpgamr_alloc a;
	uint64_t size = random_size(r);
	uint32_t flags = below(r, 10) ? 0 : (uint32_t)rnd(r);
	unsigned int gen;
	int fd = slot_fd(f, &gen), ret, e;

	if (size > (uint64_t)page && size <= max_buf &&
	    live_bytes() + size > FUZZ_MAX_LIVE)
		size = 1 + below(r, page);
	ret = do_alloc(fd, size, flags, &a);
	e = errno;
	if (flags || !size)
		account(OP_ALLOC, ret, e, einval, 1, 1, gen, f, "ALLOC");
	else if (size > max_buf)
		account(OP_ALLOC, ret, e, e2big, 1, 1, gen, f, "ALLOC");
	else
		account(OP_ALLOC, ret, e, full, 2, 0, gen, f, "ALLOC");
	if (ret)
		return;
	pthread_mutex_lock(&f->lock);
	if (f->gen == gen && f->nknown < FUZZ_HANDLES) {
		f->known[f->nknown++] = (struct known){
			a.handle, a.mmap_offset, a.size };
		ret = 1;
	}
	pthread_mutex_unlock(&f->lock);
	if (ret != 1)	/* no room to remember it: give it back */
		do_free(fd, a.handle, 0);
}

static void op_free(struct file_slot *f, struct rng *r)
{
	static const int einval[] = { EINVAL }, enoent[] = { ENOENT };
	struct known k = pick_known(f, r);
	uint32_t reserved = below(r, 10) ? 0 : (uint32_t)rnd(r) | 1;
	unsigned int gen;
	int fd = slot_fd(f, &gen), ret, e;

	ret = do_free(fd, k.handle, reserved);
	e = errno;
	if (reserved)
		account(OP_FREE, ret, e, einval, 1, 1, gen, f, "FREE");
	else
		account(OP_FREE, ret, e, enoent, 1, 0, gen, f, "FREE");
	if (!ret || e == ENOENT)
		forget(f, k.handle);
}

static void op_sync(struct file_slot *f, struct rng *r)
{
	static const int einval[] = { EINVAL }, lookup[] = { ENOENT, ERANGE };
	struct known k = pick_known(f, r);
	uint64_t off, len;
	uint32_t dir = below(r, 8) ? (uint32_t)below(r, 3) : (uint32_t)rnd(r);
	unsigned long req = below(r, 2) ? FPGAMR_IOC_SYNC_FOR_DEVICE :
					  FPGAMR_IOC_SYNC_FOR_CPU;
	unsigned int gen;
	int fd = slot_fd(f, &gen), ret, e;

	switch (below(r, 4)) {
	case 0:		/* aligned, inside */
		off = below(r, k.size / 64) * 64;
		len = 64 * (1 + below(r, (k.size - off) / 64));
		break;
	case 1:		/* unaligned */
		off = below(r, k.size);
		len = 1 + below(r, k.size);
		break;
	case 2:		/* over the end, or wrapping */
		off = k.size - 64 * below(r, 3);
		len = below(r, 2) ? UINT64_MAX - 63 : 128 + 64 * below(r, 16);
		break;
	default:
		off = rnd(r);
		len = rnd(r);
	}
	ret = do_sync(fd, req, k.handle, dir, off, len);
	e = errno;
	/* the documented order: direction, length, alignment, then the buffer */
	if (dir > FPGAMR_DMA_FROM_DEVICE || !len || off % 64 || len % 64)
		account(OP_SYNC, ret, e, einval, 1, 1, gen, f, "SYNC");
	else
		account(OP_SYNC, ret, e, lookup, 2, 0, gen, f, "SYNC");
}

static void remember_map(uint8_t *p, size_t len)
{
	pthread_mutex_lock(&maps_lock);
	if (nmaps < FUZZ_MAPS) {
		maps[nmaps++] = (struct mapping){ p, len };
		p = NULL;
	}
	pthread_mutex_unlock(&maps_lock);
	if (p)
		munmap(p, len);
}

static void op_mmap(struct file_slot *f, struct rng *r)
{
	static const int einval[] = { EINVAL }, lookup[] = { ENXIO, EINVAL };
	struct known k = pick_known(f, r);
	size_t len = (1 + below(r, 4)) * page;
	int flags = below(r, 10) ? MAP_SHARED : MAP_PRIVATE;
	unsigned int gen;
	int fd = slot_fd(f, &gen), e = 0;
	uint64_t off = k.offset;
	uint8_t *p;

	if (!below(r, 4))
		len = 1 + below(r, 2 * k.size + 1);
	if (!below(r, 5))
		off = below(r, 8192) * page;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, (off_t)off);
	if (p == MAP_FAILED)
		e = errno;
	if (flags == MAP_PRIVATE)
		account(OP_MMAP, p == MAP_FAILED ? -1 : 0, e, einval, 1, 1, gen,
			f, "mmap");
	else
		account(OP_MMAP, p == MAP_FAILED ? -1 : 0, e, lookup, 2, 0, gen,
			f, "mmap");
	if (p == MAP_FAILED)
		return;
	p[0] = 0x5a;		/* both ends are writable memory */
	p[len - 1] = 0xa5;
	remember_map(p, len);
}

static void op_munmap(struct rng *r)
{
	struct mapping m = { NULL, 0 };
	long ret = 0;

	pthread_mutex_lock(&maps_lock);
	if (nmaps) {
		int i = (int)below(r, nmaps);

		m = maps[i];
		if (m.len > (size_t)page && below(r, 2)) {
			/* unmap the first page only: the rest stays mapped */
			ret = munmap(m.addr, page);
			maps[i].addr += page;
			maps[i].len -= page;
			m.addr = NULL;
		} else {
			maps[i] = maps[--nmaps];
		}
	}
	pthread_mutex_unlock(&maps_lock);
	if (m.addr)
		ret = munmap(m.addr, m.len);
	account(OP_MUNMAP, ret, errno, NULL, 0, 0, 0, NULL, "munmap");
}

static void op_touch(void)
{
	pthread_mutex_lock(&maps_lock);
	for (int i = 0; i < nmaps; i++) {
		maps[i].addr[0]++;
		maps[i].addr[maps[i].len - 1]--;
	}
	pthread_mutex_unlock(&maps_lock);
	account(OP_TOUCH, 0, 0, NULL, 0, 0, 0, NULL, "touch");
}

/* close the file under the other threads' calls, and open another */
static void op_reopen(struct file_slot *f)
{
	long ret;

	pthread_mutex_lock(&f->lock);
	__atomic_add_fetch(&f->gen, 1, __ATOMIC_RELEASE);
	ret = close(f->fd);
	f->fd = open(acc.dma_path, O_RDWR | O_CLOEXEC);
	f->nknown = 0;
	pthread_mutex_unlock(&f->lock);
	account(OP_REOPEN, ret || f->fd < 0 ? -1 : 0, errno, NULL, 0, 0, 0,
		NULL, "close+open");
}

static void op_badptr(struct file_slot *f, struct rng *r)
{
	static const unsigned long reqs[] = {
		FPGAMR_IOC_INFO, FPGAMR_IOC_ALLOC, FPGAMR_IOC_FREE,
		FPGAMR_IOC_SYNC_FOR_DEVICE, FPGAMR_IOC_SYNC_FOR_CPU,
	};
	static const int allowed[] = { EFAULT };
	void *ptrs[3] = { NULL, (void *)8, (void *)(uintptr_t)-4096 };
	unsigned int gen;
	int fd = slot_fd(f, &gen), ret, e;

	ret = ioctl(fd, reqs[below(r, 5)], ptrs[below(r, 3)]);
	e = errno;
	account(OP_BADPTR, ret, e, allowed, 1, 1, gen, f, "bad pointer");
}

static void op_unknown(struct file_slot *f, struct rng *r)
{
	static const unsigned long known[] = {
		FPGAMR_IOC_INFO, FPGAMR_IOC_ALLOC, FPGAMR_IOC_FREE,
		FPGAMR_IOC_SYNC_FOR_DEVICE, FPGAMR_IOC_SYNC_FOR_CPU,
		FPGAMR_IOC_SUBMIT, FPGAMR_IOC_ABORT,
	};
	static const int allowed[] = { ENOTTY };
	unsigned long req = _IOC(below(r, 4), FPGAMR_IOC_MAGIC,
				 7 + below(r, 249), below(r, 64));
	struct fpgamr_alloc junk[2];
	unsigned int gen;
	int fd, ret, e;

	if (!below(r, 2)) {	/* a known number with another size or way */
		req = known[below(r, 7)];
		while (req == known[0] || req == known[1] || req == known[2] ||
		       req == known[3] || req == known[4] || req == known[5] ||
		       req == known[6])
			req = _IOC(below(r, 4), FPGAMR_IOC_MAGIC,
				   _IOC_NR(req), below(r, 64));
	}
	fd = slot_fd(f, &gen);
	ret = ioctl(fd, req, junk);
	e = errno;
	account(OP_UNKNOWN, ret, e, allowed, 1, 1, gen, f, "unknown request");
}

/* a child writes through the inherited mappings and exits */
static void op_fork(void)
{
	int status = -1;
	pid_t pid;

	pthread_mutex_lock(&maps_lock);
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < nmaps; i++)
			maps[i].addr[maps[i].len / 2] ^= 0xff;
		_exit(0);
	}
	pthread_mutex_unlock(&maps_lock);
	if (pid > 0)
		waitpid(pid, &status, 0);
	account(OP_FORK,
		pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1,
		EIO, NULL, 0, 0, 0, NULL, "fork with live mappings");
}

/* UIO: map 0 (one page, the register window) exists, nothing else */
static void op_uio_mmap(struct rng *r)
{
	static const int allowed[] = { EINVAL };
	uint64_t map = below(r, 4) ? 0 : 1 + below(r, 4);
	size_t len = below(r, 3) ? (size_t)page : 1 + below(r, 3 * page);
	int valid = map == 0 && len <= (size_t)page;
	uint32_t *p;
	long ret = 0;
	int e = 0;

	p = mmap(NULL, len, PROT_READ, MAP_SHARED, uio_fd, (off_t)(map * page));
	if (p == MAP_FAILED) {
		ret = -1;
		e = errno;
	} else {
		if (p[0] != 0x4d443541u) {	/* DESIGN_ID at 0 */
			ret = -1;
			e = EIO;
		}
		munmap(p, len);
	}
	account(OP_UIO_MMAP, ret, e, allowed, valid ? 0 : 1, !valid, 0, NULL,
		"uio mmap");
}

static void op_info(struct file_slot *f)
{
	struct fpgamr_info info;
	unsigned int gen;
	int fd = slot_fd(f, &gen), ret, e;

	ret = ioctl(fd, FPGAMR_IOC_INFO, &info);
	e = errno;
	if (!ret && info.api_version != FPGAMR_API_VERSION) {
		ret = -1;
		e = EIO;
	}
	account(OP_INFO, ret, e, NULL, 0, 0, gen, f, "INFO");
}

struct fuzz_arg {
	uint64_t seed;
	int closer;	/* closes and reopens files in half of its calls */
};

static void *fuzz_thread(void *p)
{
	const struct fuzz_arg *arg = p;
	struct rng r = { .s = arg->seed };

	for (int i = 0; i < 8; i++)
		rnd(&r);
	for (long n = 0; n < calls_per_thread; n++) {
		struct file_slot *f = &files[below(&r, FUZZ_FILES)];
		int w = (int)below(&r, 100), op = 0;

		while (w >= op_weight[op])
			w -= op_weight[op++];
		if (arg->closer && below(&r, 2))
			op = OP_REOPEN;
		switch (op) {
		case OP_ALLOC: op_alloc(f, &r); break;
		case OP_FREE: op_free(f, &r); break;
		case OP_SYNC: op_sync(f, &r); break;
		case OP_MMAP: op_mmap(f, &r); break;
		case OP_MUNMAP: op_munmap(&r); break;
		case OP_TOUCH: op_touch(); break;
		case OP_REOPEN: op_reopen(f); break;
		case OP_BADPTR: op_badptr(f, &r); break;
		case OP_UNKNOWN: op_unknown(f, &r); break;
		case OP_FORK: op_fork(); break;
		case OP_UIO_MMAP: op_uio_mmap(&r); break;
		default: op_info(f); break;
		}
	}
	return NULL;
}

/* a second process cannot free, sync or map the buffers of the first */
static void second_process(void)
{
	struct fpgamr_alloc a;
	int fd = open_dma(), status = -1;
	uint8_t *p;
	pid_t pid;

	expect_ok(do_alloc(fd, 2 * page, 0, &a), "first process: ALLOC");
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)a.mmap_offset);
	check(p != MAP_FAILED, "first process: mmap");
	if (p == MAP_FAILED)
		return;
	memset(p, 0x3c, 2 * page);
	pid = fork();
	if (pid == 0) {
		int fd2 = open(acc.dma_path, O_RDWR | O_CLOEXEC), bad = 0;
		void *q;

		close(fd);
		bad |= (do_free(fd2, a.handle, 0) != -1 || errno != ENOENT);
		bad |= (do_sync(fd2, FPGAMR_IOC_SYNC_FOR_CPU, a.handle,
				FPGAMR_DMA_FROM_DEVICE, 0, 64) != -1 ||
			errno != ENOENT) << 1;
		q = mmap(NULL, page, PROT_READ, MAP_SHARED, fd2,
			 (off_t)a.mmap_offset);
		bad |= (q != MAP_FAILED || errno != ENXIO) << 2;
		_exit(bad);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && !(WEXITSTATUS(status) & 1),
	      "second process: FREE of the first's handle fails with ENOENT");
	check(WIFEXITED(status) && !(WEXITSTATUS(status) & 2),
	      "second process: SYNC of the first's handle fails with ENOENT");
	check(WIFEXITED(status) && !(WEXITSTATUS(status) & 4),
	      "second process: mmap of the first's buffer fails with ENXIO");
	check(p[0] == 0x3c && p[2 * page - 1] == 0x3c,
	      "first process: its buffer is untouched");
	munmap(p, 2 * page);
	expect_ok(do_free(fd, a.handle, 0), "first process: FREE");
	close(fd);
}

void mode_fuzz(long calls, unsigned long seed)
{
	pthread_t th[FUZZ_THREADS];
	struct fuzz_arg args[FUZZ_THREADS];
	struct fpgamr_info info;
	long total = 0, ok = 0;
	char line[1024];
	int n;

	check(discover() == 1, "exactly one UIO device named %s",
	      FPGAMR_UIO_NAME);
	if (failed)
		return;
	second_process();
	for (int i = 0; i < FUZZ_FILES; i++) {
		pthread_mutex_init(&files[i].lock, NULL);
		files[i].fd = open_dma();
	}
	if (ioctl(files[0].fd, FPGAMR_IOC_INFO, &info))
		info.max_buf_bytes = 0;
	max_buf = info.max_buf_bytes;
	uio_fd = open(acc.uio_path, O_RDONLY | O_CLOEXEC);
	check(uio_fd >= 0, "open %s", acc.uio_path);
	calls_per_thread = calls / FUZZ_THREADS;
	printf("fuzz: %d threads, %ld calls each, seed %lu\n", FUZZ_THREADS,
	       calls_per_thread, seed);
	for (int i = 0; i < FUZZ_THREADS; i++) {
		args[i] = (struct fuzz_arg){ seed * 1000003u + i + 1, i == 0 };
		pthread_create(&th[i], NULL, fuzz_thread, &args[i]);
	}
	for (int i = 0; i < FUZZ_THREADS; i++)
		pthread_join(th[i], NULL);

	n = snprintf(line, sizeof(line), "fuzz: by call:");
	for (int op = 0; op < OP_COUNT; op++) {
		total += op_calls[op];
		ok += op_ok[op];
		n += snprintf(line + n, sizeof(line) - n, " %s %ld (%ld ok)%s",
			      op_names[op], op_calls[op], op_ok[op],
			      op + 1 < OP_COUNT ? "," : "");
	}
	puts(line);
	n = snprintf(line, sizeof(line), "fuzz: refusals:");
	for (int e = 1; e < MAX_ERRNO; e++)
		if (errno_seen[e])
			n += snprintf(line + n, sizeof(line) - n, " %s %ld",
				      ename(e), errno_seen[e]);
	puts(line);
	printf("fuzz: totals: %ld calls, %ld succeeded, %ld refused as documented, %ld raced a close, %ld unexpected\n",
	       total, ok, total - ok - unexpected - raced, raced, unexpected);
	check(total == calls_per_thread * FUZZ_THREADS,
	      "fuzz made %ld calls", total);
	check(unexpected == 0, "every call succeeded or failed as documented");

	for (int i = 0; i < nmaps; i++)
		munmap(maps[i].addr, maps[i].len);
	for (int i = 0; i < FUZZ_FILES; i++)
		close(files[i].fd);
	close(uio_fd);
	expect_usage(0, 0, "after the fuzz, every buffer is back");
}
