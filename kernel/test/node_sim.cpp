// SPDX-License-Identifier: GPL-2.0
/*
 * node-sim - the accelerator of an ARM-FPGA node, inside the node: the
 * Verilated RTL of hdl/rtl (md5acc_top, with the AXI memory and AXI4-Lite
 * harness of hdl/tb/common/md5acc_sim.h) plays the device behind the
 * register window, interrupt line and memory that fpgamr_sim.ko exposes,
 * while an unmodified program drives it through fpgamr.ko's /dev/uioN and
 * /dev/fpgamr-dmaK.  Test only: it runs in the boot test's ARM guest.
 *
 *   node-sim [--stall P | --stall-dma | --refuse-dst] -- PROGRAM [ARGS...]
 *
 * --stall P: the memory withholds each AXI handshake with probability P %;
 * --stall-dma: it withholds every one until the kernel's ABORT (a DMA that
 * never completes, as through a port in reset or a disabled bridge);
 * --refuse-dst: a job's destination is not mapped for the RTL, so its
 * writes get DECERR (a DMA that fails: ERR_ADDR, on the kernel page).
 *
 * The register window is memory: two pages (register map 3).  A load reads
 * the registers as the RTL last reported them (reads of this register map
 * have no side effects).  The kernel page (the job: MODE, START, COUNT,
 * SRC, DST, MATCH_CAP, CTRL) is written only by fpgamr.ko, which ptrace
 * cannot trap: node-sim polls its CTRL word, as the RTL's register slave
 * would take the kernel's write; a command there gives the RTL the kernel
 * page's registers, then CTRL, and CTRL reads 0 again (it is write-only).
 * On the user page, a store that has a side effect, to a wo or rw1c register
 * (hdl/regmap/md5acc.json), is trapped: node-sim runs PROGRAM, and whatever it starts, under ptrace and
 * puts a hardware write watchpoint on each 8-byte word of the window holding
 * such a register, in every process that maps the window.  At a hit it lets
 * the store happen (a hardware breakpoint on the next instruction), gives
 * the RTL, over its AXI4-Lite port, every plain rw register written since
 * (each once, before the trapped one) and then the trapped one, and writes
 * the registers back into the window.  A START maps the job's memory (from
 * MODE, COUNT, SRC, DST, MATCH_CAP) for the RTL's AXI master; other
 * addresses answer DECERR.  When the RTL raises its interrupt (level high:
 * at the end of a job, or while it runs when a search's match ring is half
 * full), node-sim pends the accelerator's line (raise_irq of fpgamr_sim: the
 * GIC), and again at each unmask while the line is still high.
 *
 * While a job runs it watches the DMA buffers the kernel holds
 * (bytes_in_use): memory freed while the RTL is busy is counted, with the
 * RTL's AXI write beats after it ("no write after release").
 *
 * It also counts what the program did with the kernel interfaces: the sync
 * and job ioctls on /dev/fpgamr-dma* and the interrupts read from /dev/uio*,
 * and prints the counts when PROGRAM and its children have exited; its exit
 * status is PROGRAM's.
 */
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fpgamr.h>

#include "fpgamr_regs.h"
#include "md5acc_sim.h"

#ifndef PTRACE_GETHBPREGS
#define PTRACE_GETHBPREGS 29
#define PTRACE_SETHBPREGS 30
#endif
#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT 4
#endif

enum { REG_RO, REG_RW, REG_WO, REG_RW1C };
struct reg_info {
	unsigned int off;
	const char *name;
	int access;
};
#include "regmap_table.h"

#define SIM_PARAMS "/sys/module/fpgamr_sim/parameters/"
#define WINDOW_WORDS (FPGAMR_WINDOW_BYTES / 4)

/* ARM debug control registers, as ptrace takes them (arch/arm hw_breakpoint) */
#define HBP_ENABLE 1u
#define HBP_USER (2u << 1)
#define HBP_EXEC (0u << 3)
#define HBP_STORE (2u << 3)
#define HBP_LEN(bytes) ((bytes) == 2 ? 0x3u : (bytes) == 4 ? 0xfu : 0xffu)
#define WATCH_CTRL (HBP_LEN(8) << 5 | HBP_STORE | HBP_USER)

namespace {

struct Tracee {
	bool started = false;
	long sc_nr = -1;
	unsigned long long sc_args[6] = {};
	uint32_t win = 0;	/* the window's address in this process, 0: none */
	int pending = -1;	/* byte offset of a trapped store being stepped */
	uint32_t bp_ctrl = 0;
};

struct JobRegion {
	uint64_t bus;
	uint8_t *map;
	size_t span;
};

Md5accSim *sim;
volatile uint32_t *win;		/* node-sim's own mapping of the window */
int sim_fd = -1, raise_fd = -1;
std::vector<unsigned int> watched;	/* 8-byte words with trapped registers */
uint32_t flushed[WINDOW_WORDS];		/* rw registers as the RTL has them */
std::map<pid_t, Tracee> tracees;
std::vector<JobRegion> job_regions;
std::string uio_path;			/* /dev/uioN of the accelerator */
bool job_active, line_high;
double t_start, job_t0, job_secs;
uint64_t job_cycles;
pid_t main_pid;
int main_status = 1;

/* what happened, for the summary */
std::map<std::string, long> trapped;
long forwarded, jobs_started, jobs_done, job_errors, raised, reraised;
long uio_reads, uio_unmasks, syncs_dev, syncs_cpu, allocs, frees, dma_refused;
long submits, aborts_ioctl, kernel_starts, kernel_aborts, jobs_aborted;
long freed_while_busy;			/* the kernel freed DMA memory while the RTL ran */
uint64_t beats_after_free;		/* the RTL's write beats after such a free */
long job_bytes_in_use = -1;		/* bytes_in_use when the running job started */
uint64_t freed_at_beats;

double now()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

[[noreturn]] void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("node-sim: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

std::string read_line(const std::string &path)
{
	char buf[256] = "";
	FILE *f = fopen(path.c_str(), "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

/* a sysfs attribute of the accelerator's platform device */
std::string dma_attr(const char *name)
{
	static std::string dir;	/* found once: the device stays while jobs run */

	if (dir.empty()) {
		DIR *d = opendir("/sys/class/misc");

		for (struct dirent *de; d && (de = readdir(d));)
			if (!strncmp(de->d_name, FPGAMR_DMA_DEV_PREFIX,
				     strlen(FPGAMR_DMA_DEV_PREFIX)))
				dir = std::string("/sys/class/misc/") +
				      de->d_name + "/device/";
		if (d)
			closedir(d);
	}
	return dir + name;
}

const reg_info *reg_at(unsigned int off)
{
	for (const auto &r : regmap)
		if (r.off == off)
			return &r;
	return nullptr;
}

bool is_watched(unsigned int off)
{
	for (unsigned int w : watched)
		if ((off & ~7u) == w)
			return true;
	return false;
}

/* ---- the device side -------------------------------------------------- */

/*
 * Registers from the RTL into the window: those the RTL changes itself (ro,
 * rw1c) and the rw ones a trapped store can change (in a watched word, like
 * FILTER_ADDR); with all, every readable one.  A plain rw register changes
 * only when written, and flush_plain_writes() reads it back then.
 */
bool on_kernel_page(unsigned int off)
{
	return off >= FPGAMR_KERNEL_PAGE;
}

void window_from_rtl(bool all)
{
	for (const auto &r : regmap) {
		/*
		 * the kernel page is the kernel's: never written back, but
		 * for what the RTL reports there (ERR_ADDR, register map 3.2)
		 */
		if (r.access == REG_WO ||
		    (on_kernel_page(r.off) && r.access != REG_RO) ||
		    (r.access == REG_RW && !all && !is_watched(r.off)))
			continue;
		uint32_t v = sim->reg_read(r.off);
		win[r.off / 4] = v;
		if (r.access == REG_RW)
			flushed[r.off / 4] = v;
	}
}

/* the plain rw registers the program wrote since the last trapped store */
void flush_plain_writes()
{
	for (const auto &r : regmap) {
		if (r.access != REG_RW || is_watched(r.off) ||
		    on_kernel_page(r.off))
			continue;
		uint32_t v = win[r.off / 4];
		if (v == flushed[r.off / 4])
			continue;
		sim->reg_write(r.off, v);
		v = sim->reg_read(r.off);
		win[r.off / 4] = v;
		flushed[r.off / 4] = v;
		forwarded++;
	}
}

void raise_line()
{
	if (pwrite(raise_fd, "1", 1, 0) != 1)
		die("raise_irq: %s", strerror(errno));
	raised++;
}

void update_line()
{
	bool high = sim->irq();

	if (high && !line_high)
		raise_line();
	line_high = high;
}

uint64_t reg64(unsigned int lo)
{
	return flushed[lo / 4] | (uint64_t)flushed[lo / 4 + 1] << 32;
}

bool dst_refused;	/* --refuse-dst: the RTL's writes get DECERR */

/* make [bus, bus + len) of memory visible to the RTL's AXI master */
void map_job_memory(uint64_t bus, uint64_t len)
{
	uint64_t base = bus & ~4095ull;
	size_t span = (size_t)((bus + len - base + 4095) & ~4095ull);
	void *p;

	if (!len)
		return;
	p = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_SHARED, sim_fd,
		 (off_t)base);
	if (p == MAP_FAILED) {
		/* not allocated memory: the RTL's bursts there get DECERR */
		dma_refused++;
		return;
	}
	sim->add_region(bus, len, (uint8_t *)p + (bus - base));
	job_regions.push_back({ bus, (uint8_t *)p, span });
}

void start_job()
{
	uint32_t mode = flushed[FPGAMR_REG_MODE / 4];
	uint64_t count = reg64(FPGAMR_REG_COUNT_LO);
	unsigned int width = (mode & FPGAMR_MODE_WIDTH_MASK) >> FPGAMR_MODE_WIDTH_SHIFT;
	uint64_t beat = 1ull << ((win[FPGAMR_REG_DESIGN_PARAMS / 4] &
				  FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >>
				 FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT);
	auto beats = [beat](uint64_t n) { return (n + beat - 1) / beat * beat; };

	if (mode & FPGAMR_MODE_OP_MASK) {	/* search: match records out */
		if (!dst_refused)
			map_job_memory(reg64(FPGAMR_REG_DST_LO),
				       beats((uint64_t)flushed[FPGAMR_REG_MATCH_CAP / 4] *
					     FPGAMR_MATCH_RECORD_BYTES));
	} else {			/* hash: messages in, digests out */
		map_job_memory(reg64(FPGAMR_REG_SRC_LO),
			       beats(count * (width > 4 ? 8 : 4)));
		if (!dst_refused)
			map_job_memory(reg64(FPGAMR_REG_DST_LO),
				       beats(count * FPGAMR_DIGEST_BYTES));
	}
	job_active = true;
	jobs_started++;
	job_t0 = now();
	job_bytes_in_use = atol(read_line(dma_attr("bytes_in_use")).c_str());
	printf("node-sim: job %ld started (%s, %" PRIu64 " values)\n", jobs_started,
	       mode & FPGAMR_MODE_OP_MASK ? "search" : "hash", count);
}

void end_job()
{
	for (const auto &r : job_regions) {
		sim->remove_region(r.bus);
		munmap(r.map, r.span);
	}
	job_regions.clear();
	job_active = false;
	jobs_done++;
	job_secs += now() - job_t0;
	window_from_rtl(false);
	job_cycles += win[FPGAMR_REG_CYCLES_LO / 4] |
		      (uint64_t)win[FPGAMR_REG_CYCLES_HI / 4] << 32;
	if (win[FPGAMR_REG_STATUS / 4] & FPGAMR_STATUS_ERROR_MASK)
		job_errors++;
	if (win[FPGAMR_REG_STATUS / 4] & FPGAMR_STATUS_ABORTED_MASK)
		jobs_aborted++;
	if (job_bytes_in_use < 0 && freed_while_busy)
		beats_after_free += sim->beats_written() - freed_at_beats;
	job_bytes_in_use = -1;
	update_line();
}

/* while the RTL runs a job: has the kernel freed DMA memory under it? */
void watch_frees()
{
	if (job_bytes_in_use < 0)
		return;
	long now_bytes = atol(read_line(dma_attr("bytes_in_use")).c_str());

	if (now_bytes < job_bytes_in_use) {
		/* which job, and what the RTL and the window said then */
		printf("node-sim: job %ld: DMA memory freed while it ran (bytes %ld of %ld; RTL busy %d, bus quiet %d; the window's STATUS 0x%x)\n",
		       jobs_started, now_bytes, job_bytes_in_use, sim->busy(),
		       sim->bus_quiet(), win[FPGAMR_REG_STATUS / 4]);
		freed_while_busy++;
		freed_at_beats = sim->beats_written();
		job_bytes_in_use = -1;	/* counted once per job */
	}
}

/* the program stored val at off, a trapped register: the RTL gets it */
void write_register(unsigned int off, uint32_t val)
{
	const reg_info *r = reg_at(off);

	trapped[r ? r->name : "unknown"]++;
	flush_plain_writes();
	bool start = off == FPGAMR_REG_CTRL &&
		     (val & FPGAMR_CTRL_START_MASK) && !sim->busy();

	if (start)
		start_job();
	sim->reg_write(off, val);
	/* a START also clears an rw register, MATCH_ACK: read them all back */
	window_from_rtl(start);
	update_line();
}

/*
 * The kernel wrote CTRL on the kernel page (fpgamr.ko's SUBMIT, ABORT or
 * its stop before freeing): the RTL takes the kernel page's registers, then
 * the command; CTRL reads 0 again.
 */
bool dma_stalled;	/* --stall-dma, until the kernel's ABORT */

void poll_kernel_page()
{
	uint32_t cmd = win[FPGAMR_REG_CTRL / 4];

	if (!cmd)
		return;
	win[FPGAMR_REG_CTRL / 4] = 0;
	flush_plain_writes();
	for (const auto &r : regmap) {
		if (r.access != REG_RW || !on_kernel_page(r.off))
			continue;
		flushed[r.off / 4] = win[r.off / 4];
		sim->reg_write(r.off, flushed[r.off / 4]);
	}
	bool start = (cmd & FPGAMR_CTRL_START_MASK) && !sim->busy();

	if (cmd & FPGAMR_CTRL_START_MASK)
		kernel_starts++;
	if (cmd & FPGAMR_CTRL_ABORT_MASK)
		kernel_aborts++;
	if ((cmd & FPGAMR_CTRL_ABORT_MASK) && dma_stalled) {
		sim->set_stall(0);	/* the aborted job's bursts drain */
		dma_stalled = false;
	}
	if (start)
		start_job();
	sim->reg_write(FPGAMR_REG_CTRL, cmd);
	window_from_rtl(start);
	update_line();
	/*
	 * An ABORT with nothing in flight ends the job within its own register
	 * write (a 3.1 design drops the pending hits): the window already says
	 * DONE|ABORTED, so the kernel may free the job's memory before this
	 * loop ticks again. The job ends here, not as a free under a running
	 * job at the next watch.
	 */
	if ((cmd & FPGAMR_CTRL_ABORT_MASK) && job_active && !sim->busy() &&
	    sim->bus_quiet())
		end_job();
}

/* ---- the tracer ---------------------------------------------------------- */

void set_hbp(pid_t pid, long num, uint32_t val)
{
	if (ptrace((enum __ptrace_request)PTRACE_SETHBPREGS, pid, (void *)num,
		   &val))
		die("PTRACE_SETHBPREGS %ld of %d: %s", num, pid,
		    strerror(errno));
}

/* watchpoint i: address -(2i+1), control -(2i+2); breakpoint 0: 1, 2 */
void watch(pid_t pid, const Tracee &t, bool on)
{
	for (size_t i = 0; i < watched.size(); i++) {
		long n = 2 * (long)i;

		if (on)
			set_hbp(pid, -(n + 1), t.win + watched[i]);
		set_hbp(pid, -(n + 2), WATCH_CTRL | (on ? HBP_ENABLE : 0));
	}
}

std::string fd_path(pid_t pid, unsigned long long fd)
{
	char link[64], target[256];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/fd/%llu", pid, fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = 0;
	return target;
}

std::string find_uio()
{
	DIR *d = opendir("/sys/class/uio");
	std::string found;

	for (struct dirent *de; d && (de = readdir(d));) {
		std::string n = de->d_name;

		if (n.compare(0, 3, "uio") == 0 &&
		    read_line("/sys/class/uio/" + n + "/name") == FPGAMR_UIO_NAME)
			found = "/dev/" + n;
	}
	if (d)
		closedir(d);
	return found;
}

/* where this process maps the window (offset 0 of the uio node), or 0 */
uint32_t window_address(pid_t pid)
{
	char path[64], line[512];
	uint32_t addr = 0;
	FILE *f;

	if (uio_path.empty())
		uio_path = find_uio();
	if (uio_path.empty())
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long start, end, off;
		char file[256] = "";

		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %255s", &start, &end,
			   &off, file) >= 3 &&
		    off == 0 && uio_path == file) {
			addr = (uint32_t)start;
			break;
		}
	}
	if (f)
		fclose(f);
	return addr;
}

void rescan(pid_t pid, Tracee &t)
{
	uint32_t a = window_address(pid);

	if (a == t.win)
		return;
	if (t.win)
		watch(pid, t, false);
	t.win = a;
	if (a)
		watch(pid, t, true);
}

void on_syscall(pid_t pid, Tracee &t)
{
	struct __ptrace_syscall_info info;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) <= 0)
		die("PTRACE_GET_SYSCALL_INFO: %s", strerror(errno));
	if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
		t.sc_nr = (long)info.entry.nr;
		memcpy(t.sc_args, info.entry.args, sizeof(t.sc_args));
		return;
	}
	if (info.op != PTRACE_SYSCALL_INFO_EXIT)
		return;
	long nr = t.sc_nr;
	long long rv = info.exit.rval;

	t.sc_nr = -1;
	if (nr == SYS_mmap2 || nr == SYS_munmap || nr == SYS_mremap) {
		rescan(pid, t);
	} else if (nr == SYS_ioctl && !info.exit.is_error) {
		switch ((unsigned long)t.sc_args[1]) {
		case FPGAMR_IOC_SYNC_FOR_DEVICE: syncs_dev++; break;
		case FPGAMR_IOC_SYNC_FOR_CPU: syncs_cpu++; break;
		case FPGAMR_IOC_ALLOC: allocs++; break;
		case FPGAMR_IOC_FREE: frees++; break;
		case FPGAMR_IOC_SUBMIT: submits++; break;
		case FPGAMR_IOC_ABORT: aborts_ioctl++; break;
		}
	} else if ((nr == SYS_read || nr == SYS_write) && rv == 4 &&
		   !uio_path.empty() && fd_path(pid, t.sc_args[0]) == uio_path) {
		if (nr == SYS_read) {
			uio_reads++;	/* an interrupt delivered */
		} else {
			uio_unmasks++;
			if (sim->irq()) {	/* level high: fires again */
				raise_line();
				reraised++;
			}
		}
	}
}

/* a hardware watchpoint or breakpoint stopped pid */
void on_hw_trap(pid_t pid, Tracee &t, const siginfo_t &si)
{
	struct user_regs regs;

	if (ptrace(PTRACE_GETREGS, pid, nullptr, &regs))
		die("PTRACE_GETREGS: %s", strerror(errno));
	uint32_t pc = regs.uregs[15];
	bool thumb = regs.uregs[16] & 0x20;

	if (si.si_errno < 0 && t.pending < 0) {
		/* before the store: step over it with a breakpoint after it */
		unsigned long w = (unsigned long)ptrace(PTRACE_PEEKTEXT, pid,
						       (void *)(uintptr_t)(pc & ~3u), nullptr);
		uint16_t hw = (pc & 2) ? (uint16_t)(w >> 16) : (uint16_t)w;
		int len = thumb ? ((hw >> 11) >= 0x1d ? 4 : 2) : 4;

		t.pending = (int)((uintptr_t)si.si_addr - t.win) & ~3;
		t.bp_ctrl = HBP_LEN(thumb ? 2 : 4) << 5 | HBP_EXEC | HBP_USER;
		watch(pid, t, false);
		set_hbp(pid, 2, t.bp_ctrl);
		set_hbp(pid, 1, pc + len);
		set_hbp(pid, 2, t.bp_ctrl | HBP_ENABLE);
	} else if (si.si_errno > 0 && t.pending >= 0) {
		/* after the store: the value is in the window */
		unsigned int off = (unsigned int)t.pending;

		t.pending = -1;
		set_hbp(pid, 2, t.bp_ctrl);
		watch(pid, t, true);
		write_register(off, win[off / 4]);
	} else {
		die("unexpected hardware trap in %d at 0x%08x", pid, pc);
	}
}

void resume(pid_t pid, int sig)
{
	if (ptrace(PTRACE_SYSCALL, pid, nullptr, (void *)(long)sig) && errno != ESRCH)
		die("PTRACE_SYSCALL %d: %s", pid, strerror(errno));
}

void on_stop(pid_t pid, int status)
{
	Tracee &t = tracees[pid];
	int sig = WSTOPSIG(status), event = status >> 16;
	unsigned long msg;

	if (sig == (SIGTRAP | 0x80)) {
		on_syscall(pid, t);
	} else if (event == PTRACE_EVENT_EXEC) {
		t.win = 0;	/* a new image: no window, no watchpoints */
		t.pending = -1;
	} else if (event) {	/* fork, vfork, clone: a new tracee */
		if (ptrace(PTRACE_GETEVENTMSG, pid, nullptr, &msg) == 0)
			tracees[(pid_t)msg];
	} else if (sig == SIGSTOP && !t.started) {
		t.started = true;	/* its first stop: it may map the window */
		rescan(pid, t);
	} else if (sig == SIGTRAP) {
		siginfo_t si;

		if (ptrace(PTRACE_GETSIGINFO, pid, nullptr, &si) == 0 &&
		    si.si_code == TRAP_HWBKPT)
			on_hw_trap(pid, t, si);
		else
			sig = 0;
	} else {
		resume(pid, sig);	/* the program's own signal */
		return;
	}
	resume(pid, 0);
}

/*
 * Ticks between two looks at the kernel page: the kernel's stop gives an
 * ABORT 5 s to be taken, and an 8-pipeline model under TCG on a loaded
 * machine runs under 1,000 cycles per second (4096 ticks took 7 s).
 */
#define TICKS_PER_POLL	512
/* polls an aborted job gets to drain once the programs are gone (a killed
 * batch's took 583 AXI write beats) */
#define DRAIN_POLLS	64

void run_until_idle()
{
	for (int i = 0; i < TICKS_PER_POLL && (sim->busy() || !sim->bus_quiet()); i++)
		sim->tick();
	watch_frees();
	if (!sim->busy() && sim->bus_quiet()) {
		end_job();
	} else if (sim->irq() && !line_high) {
		/* during a search: MATCH, the ring is half full */
		window_from_rtl(false);
		update_line();
	}
}

pid_t start_program(char **argv)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
		raise(SIGSTOP);
		execvp(argv[0], argv);
		fprintf(stderr, "node-sim: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		die("%s did not start", argv[0]);
	uint32_t info = 0;	/* debug arch, watchpoint size, WRPs, BRPs */
	if (ptrace((enum __ptrace_request)PTRACE_GETHBPREGS, pid, nullptr, &info))
		die("PTRACE_GETHBPREGS: %s: no hardware watchpoints", strerror(errno));
	if ((info >> 8 & 0xff) < watched.size() || (info >> 16 & 0xff) < 8)
		die("the register map needs %zu 8-byte watchpoints, the CPU has %u of %u bytes",
		    watched.size(), info >> 8 & 0xff, info >> 16 & 0xff);
	if (ptrace(PTRACE_SETOPTIONS, pid, nullptr,
		   (void *)(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK |
			    PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
			    PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)))
		die("PTRACE_SETOPTIONS: %s", strerror(errno));
	tracees[pid].started = true;
	resume(pid, 0);
	return pid;
}

void setup_device(int stall)
{
	std::string regs = read_line(SIM_PARAMS "regs");
	uint64_t window = strtoull(regs.c_str(), nullptr, 0);
	std::set<unsigned int> words;

	sim_fd = open("/dev/fpgamr-sim", O_RDWR | O_CLOEXEC);
	raise_fd = open(SIM_PARAMS "raise_irq", O_WRONLY | O_CLOEXEC);
	if (sim_fd < 0 || raise_fd < 0 || !window)
		die("fpgamr_sim.ko is not loaded (no /dev/fpgamr-sim or %sregs)",
		    SIM_PARAMS);
	void *p = mmap(nullptr, FPGAMR_WINDOW_BYTES, PROT_READ | PROT_WRITE,
		       MAP_SHARED, sim_fd, (off_t)window);
	if (p == MAP_FAILED)
		die("mmap of the register window 0x%" PRIx64 ": %s", window,
		    strerror(errno));
	win = (volatile uint32_t *)p;
	if (regmap_window_bytes != FPGAMR_WINDOW_BYTES)
		die("register map window %u bytes, fpgamr_regs.h says %u",
		    regmap_window_bytes, FPGAMR_WINDOW_BYTES);

	for (const auto &r : regmap)	/* the user page's: the kernel's are polled */
		if ((r.access == REG_WO || r.access == REG_RW1C) &&
		    !on_kernel_page(r.off))
			words.insert(r.off & ~7u);
	watched.assign(words.begin(), words.end());

	sim = new Md5accSim(1);
	sim->set_stall(stall);
	for (unsigned int i = 0; i < WINDOW_WORDS; i++)
		win[i] = 0;
	window_from_rtl(true);
}

void summary()
{
	std::string t;
	long total = 0;
	double secs = now() - t_start;
	uint32_t params = win[FPGAMR_REG_DESIGN_PARAMS / 4];

	for (const auto &kv : trapped) {
		t += (t.empty() ? "" : ", ") + kv.first + " " + std::to_string(kv.second);
		total += kv.second;
	}
	printf("node-sim: device: Verilated md5acc_top, %u pipeline(s), %u-bit AXI (DESIGN_PARAMS 0x%08x)\n",
	       params & FPGAMR_DESIGN_PARAMS_PIPELINES_MASK,
	       8u << ((params & FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >>
		      FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT), params);
	printf("node-sim: register writes trapped %ld (%s), plain rw writes forwarded %ld\n",
	       total, t.c_str(), forwarded);
	printf("node-sim: jobs started %ld, done %ld, in error %ld; %" PRIu64 " clock cycles; AXI protocol errors %" PRIu64 "%s%s; job memory refused %ld\n",
	       jobs_started, jobs_done, job_errors, sim->cycles(),
	       sim->protocol_errors(), sim->protocol_errors() ? ": " : "",
	       sim->last_protocol_error().c_str(), dma_refused);
	printf("node-sim: interrupts raised %ld (again at an unmask %ld); interrupts read from %s %ld, unmasks %ld\n",
	       raised, reraised, uio_path.c_str(), uio_reads, uio_unmasks);
	printf("node-sim: DMA ioctls: ALLOC %ld, FREE %ld, SYNC_FOR_DEVICE %ld, SYNC_FOR_CPU %ld, SUBMIT %ld, ABORT %ld\n",
	       allocs, frees, syncs_dev, syncs_cpu, submits, aborts_ioctl);
	printf("node-sim: kernel page: START %ld, ABORT %ld; jobs aborted %ld; AXI write beats %" PRIu64 "; DMA memory freed while the device ran %ld, AXI write beats after it %" PRIu64 "\n",
	       kernel_starts, kernel_aborts, jobs_aborted, sim->beats_written(),
	       freed_while_busy, beats_after_free);
	printf("node-sim: %.1f s in all; the jobs' %" PRIu64 " device cycles took %.1f s: %.0f cycles/s simulated (a board: %ge6, the design clock, modelled)\n",
	       secs, job_cycles, job_secs, job_secs > 0 ? (double)job_cycles / job_secs : 0.0,
	       (double)FPGAMR_CLOCK_MHZ);
}

}  // namespace

int main(int argc, char **argv)
{
	int stall = 0, argi = 1;

	setvbuf(stdout, nullptr, _IOLBF, 0);
	if (argi + 1 < argc && !strcmp(argv[argi], "--stall")) {
		stall = atoi(argv[argi + 1]);
		argi += 2;
	} else if (argi < argc && !strcmp(argv[argi], "--stall-dma")) {
		stall = 100;
		dma_stalled = true;
		argi++;
	} else if (argi < argc && !strcmp(argv[argi], "--refuse-dst")) {
		dst_refused = true;
		argi++;
	}
	if (argi >= argc || strcmp(argv[argi], "--") || argi + 1 >= argc) {
		fprintf(stderr, "usage: node-sim [--stall P | --stall-dma | --refuse-dst] -- PROGRAM [ARGS...]\n");
		return 2;
	}
	t_start = now();
	setup_device(stall);
	main_pid = start_program(argv + argi + 1);

	while (!tracees.empty()) {
		int status;
		pid_t pid;

		poll_kernel_page();
		if (job_active)
			run_until_idle();
		pid = waitpid(-1, &status, __WALL | WNOHANG);
		if (pid == 0) {
			if (!job_active) {	/* the kernel's next command */
				struct timespec ts = { 0, 500000 };

				nanosleep(&ts, nullptr);
			}
			continue;
		}
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (pid == main_pid)
				main_status = WIFEXITED(status) ? WEXITSTATUS(status) :
					      128 + WTERMSIG(status);
			tracees.erase(pid);
		} else if (WIFSTOPPED(status)) {
			on_stop(pid, status);
		}
	}
	/*
	 * The programs are gone, so the kernel has stopped their jobs: one
	 * still running drains in a bounded time (its values in flight, its
	 * bursts), or the device is jammed, as a 3.0 design's aborted search
	 * with its hits pending was (issue 39): say so and fail, not hang.
	 */
	poll_kernel_page();
	for (int i = 0; job_active && i < DRAIN_POLLS; i++)
		run_until_idle();
	summary();
	if (job_active) {
		printf("node-sim: the device never went idle: a job still ran %d clock cycles after its programs exited\n",
		       DRAIN_POLLS * TICKS_PER_POLL);
		return 1;
	}
	return main_status;
}
