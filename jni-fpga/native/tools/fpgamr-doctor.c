/* fpgamr-doctor: checks one accelerator layer by layer, one line per layer:
 *   ok: LAYER: what was found
 *   FAIL: LAYER: what is wrong and what to do
 *   n/a: LAYER: why the layer does not apply to this device
 *   busy: LAYER: the device is held by another process (a running job)
 *   skip: LAYER: not checked, because the layer it stands on failed
 * Layers, bottom up: module (fpgamr.ko loaded), devicetree (the overlay's
 * node), device (the UIO and DMA nodes: present, named, read/write for this
 * user, paired, opened), regmap (the device's register map against this
 * driver's), design (pipelines, bus width, clock, as the device says),
 * interrupt (a job's end delivered), dma (one batch hashed through the
 * device's DMA, compared with the CPU kernel's digests).
 * On a Cyclone V SoC (the device tree's root compatible names
 * altr,socfpga-cyclone5) four board layers come between module and device:
 * fpga (the FPGA in user mode), bridge (the lightweight HPS-to-FPGA bridge
 * out of reset), port (the FPGA-to-SDRAM port enabled, as wide as the
 * design's bus), as fpgamr.ko reads them from the HPS's registers (its
 * driver's sysfs, kernel/fpgamr-port.c), or the kernel's fpga_manager and
 * fpga_bridge classes without the module; all are sysfs reads, which answer
 * whatever the FPGA's state. Without --device, on a Cyclone V it checks
 * those and whether the accelerator's node is bound (for a bare 'fpgamr
 * doctor' that found no accelerator); elsewhere it says there is none.
 * Exit 1 on any FAIL, 2 on a usage error, else 0 (busy included).
 *
 * It drives the device through the driver's buses (fpga/fpgamr_bus.h), the
 * same code the job runs, but job by job, so that it can say which part of
 * a job failed. A simulated device (vsim) has no module, device tree or
 * nodes: those layers say n/a. --sysfs-root DIR reads sysfs under DIR (the
 * module, board and device-tree layers read only): tests give it a board's
 * layout. The device tree is read at /sys/firmware/devicetree/base, where
 * the kernel has it (/proc/device-tree is a link there, and needs /proc). Statically linked with
 * libfpgamr's objects: it runs where there is no JVM (the ARM guest). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/fpgamr.h>

#include "../fpga/fpgamr_bus.h"
#include "fpgamr_fpga.h"
#include "fpgamr_md5.h"
#include "fpgamr_regs.h"

#define USAGE "usage: fpgamr-doctor [--device uio:/dev/uioN|vsim:pipelines=N[,...]] [--sysfs-root DIR] [--values N]"
#define CYCLONE5 "altr,socfpga-cyclone5"
#define DRIVER_DIR "/sys/bus/platform/drivers/fpgamr-md5"
#define PROBE_VALUES 64u  /* the interrupt layer's search: no hits, so no DMA */

static int failed;

static void say(const char *status, const char *layer, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(const char *status, const char *layer, const char *fmt, ...)
{
    va_list ap;
    printf("%s: %s: ", status, layer);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    if (strcmp(status, "FAIL") == 0) failed = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* the first line of a file, without its newline; -1 when it cannot be read */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    if (!fgets(buf, (int)len, f)) buf[0] = 0;
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    return 0;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ------------------------------------------------------------------ who holds the device */
/* The process holding an flock on path (/proc/locks), 0 when none is found. */
static long lock_holder(const char *path, char *comm, size_t clen)
{
    struct stat st;
    comm[0] = 0;
    if (stat(path, &st) != 0) return 0;
    FILE *f = fopen("/proc/locks", "r");
    if (!f) return 0;
    char line[256];
    long found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        char kind[16];
        long pid;
        unsigned maj, min;
        unsigned long ino;
        /* "1: FLOCK  ADVISORY  WRITE 1234 00:05:321 0 EOF" (major:minor in hex) */
        if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", kind, &pid, &maj, &min, &ino) == 5 &&
            strcmp(kind, "FLOCK") == 0 && maj == major(st.st_dev) && min == minor(st.st_dev) && ino == st.st_ino &&
            pid != getpid())
            found = pid;
    }
    fclose(f);
    if (found) {
        char p[64];
        snprintf(p, sizeof p, "/proc/%ld/comm", found);
        if (read_line(p, comm, clen) != 0) snprintf(comm, clen, "?");
    }
    return found;
}

/* ------------------------------------------------------------------ module, device tree */
static int check_module(const char *root)
{
    char dir[4096], path[4200], ver[128] = "", state[64] = "";
    snprintf(dir, sizeof dir, "%s/sys/module/fpgamr", root);
    if (!is_dir(dir)) {
        say("FAIL", "module", "fpgamr.ko is not loaded (no %s): load it with 'modprobe fpgamr' (kernel/README.md, \"Load it on a node\")",
            dir);
        return -1;
    }
    snprintf(path, sizeof path, "%s/initstate", dir);
    if (read_line(path, state, sizeof state) == 0 && strcmp(state, "live") != 0) {
        say("FAIL", "module", "fpgamr.ko is %s, not live (%s): wait for it to finish loading, or unload and load it again", state,
            path);
        return -1;
    }
    const char *what = "version";
    snprintf(path, sizeof path, "%s/version", dir);
    if (read_line(path, ver, sizeof ver) != 0) {
        what = "srcversion";
        snprintf(path, sizeof path, "%s/srcversion", dir);
        if (read_line(path, ver, sizeof ver) != 0) what = NULL;
    }
    if (what)
        say("ok", "module", "fpgamr.ko loaded (%s %s)", what, ver);
    else
        say("ok", "module", "fpgamr.ko loaded (%s: it records no version)", dir);
    return 0;
}

/* a compatible property (NUL-separated strings) naming want */
static int compatible_has(const char *path, const char *want)
{
    char buf[512];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    for (size_t i = 0; i < n; i += strlen(buf + i) + 1)
        if (strcmp(buf + i, want) == 0) return 1;
    return 0;
}

static int compatible_ours(const char *path) { return compatible_has(path, FPGAMR_OF_COMPATIBLE); }

/* depth-first search of the device tree for our node; 1 and its folder in out */
static int find_node(const char *dir, int depth, char *out, size_t olen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/compatible", dir);
    if (compatible_ours(path)) {
        snprintf(out, olen, "%s", dir);
        return 1;
    }
    if (depth > 8) return 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) found = find_node(path, depth + 1, out, olen);
    }
    closedir(d);
    return found;
}

static void check_devicetree(const char *root)
{
    char base[4096], node[4096], path[4200], status[64];
    snprintf(base, sizeof base, "%s/sys/firmware/devicetree/base", root);
    if (!is_dir(base)) {
        say("n/a", "devicetree", "this machine has no device tree (%s): the accelerator is then a platform device named fpgamr-md5",
            base);
        return;
    }
    if (!find_node(base, 0, node, sizeof node)) {
        say("FAIL", "devicetree",
            "no node compatible with \"%s\" under %s: apply the design's overlay (hdl/dts/fpgamr-md5acc.dtso; the NodeManager's "
            "design loader applies it with the design, yarn-fpga-resource/README.md)",
            FPGAMR_OF_COMPATIBLE, base);
        return;
    }
    snprintf(path, sizeof path, "%s/status", node);
    if (read_line(path, status, sizeof status) == 0 && strcmp(status, "okay") != 0 && strcmp(status, "ok") != 0) {
        say("FAIL", "devicetree", "node %s has status \"%s\": the overlay disables it; its status must be \"okay\"",
            node + strlen(base), status);
        return;
    }
    say("ok", "devicetree", "node %s, compatible \"%s\"", node + strlen(base), FPGAMR_OF_COMPATIBLE);
}

/* ------------------------------------------------------------------ the board: a Cyclone V SoC */
static int is_cyclone5(const char *root)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/sys/firmware/devicetree/base/compatible", root);
    return compatible_has(path, CYCLONE5);
}

/* the first brN of a class folder whose file 'key' reads want (want NULL: any); its 'state' in st */
static int class_state(const char *dir, const char *key, const char *want, char *st, size_t slen, char *which, size_t wlen)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    int found = -1;
    while (found && (e = readdir(d))) {
        char path[4400], v[128];
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, key);
        if (want && (read_line(path, v, sizeof v) != 0 || strcmp(v, want) != 0)) continue;
        snprintf(path, sizeof path, "%s/%s/state", dir, e->d_name);
        if (read_line(path, st, slen) == 0) {
            snprintf(which, wlen, "%s/%s/state", dir, e->d_name);
            found = 0;
        }
    }
    closedir(d);
    return found;
}

/* a line of the module's driver sysfs: 0, -1 when unreadable */
static int driver_line(const char *root, const char *name, char *buf, size_t len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s" DRIVER_DIR "/%s", root, name);
    return read_line(path, buf, len);
}

/* a board layer: the module's driver attribute, else the kernel's class (fpga_manager, fpga_bridge) */
typedef struct board_layer {
    const char *layer;
    const char *attr, *ok_prefix;       /* the attribute, and how its line starts when all is well */
    const char *cls, *name, *ok_state;  /* the class's first entry named name (NULL: any), its state when all is well */
    const char *good, *bad, *fix;       /* what the class's state says, well or not, and what to do */
} board_layer;

static const board_layer FPGA_LAYER = {
    "fpga", "fpga_manager", "FPGA in user mode", "fpga_manager", NULL, "operating", "FPGA in user mode", "FPGA not in user mode",
    "it is not programmed; load this design's .rbf before Linux boots (the boot script, hdl/README.md, On a DE10-Nano)"};
static const board_layer BRIDGE_LAYER = {
    "bridge", "lw_bridge", "lightweight HPS-to-FPGA bridge out of reset", "fpga_bridge", "lwhps2fpga", "enabled",
    "lightweight HPS-to-FPGA bridge enabled", "lightweight HPS-to-FPGA bridge not enabled",
    "the accelerator's registers cannot be read; enable it (the design's overlay, hdl/README.md, On a DE10-Nano)"};

/* 0 when the layer is well, or -1 after its FAIL line (or a skip: nothing to read it from) */
static int check_board_layer(const char *root, int module_ok, const board_layer *b)
{
    char line[512], dir[4096], which[4400];
    if (module_ok && driver_line(root, b->attr, line, sizeof line) == 0) {
        int ok = strncmp(line, b->ok_prefix, strlen(b->ok_prefix)) == 0;
        say(ok ? "ok" : "FAIL", b->layer, "%s", line);
        return ok ? 0 : -1;
    }
    snprintf(dir, sizeof dir, "%s/sys/class/%s", root, b->cls);
    if (class_state(dir, "name", b->name, line, sizeof line, which, sizeof which) == 0) {
        if (strcmp(line, b->ok_state) == 0) {
            say("ok", b->layer, "%s (%s: %s)", b->good, which, line);
            return 0;
        }
        say("FAIL", b->layer, "%s (%s: %s): %s", b->bad, which, line, b->fix);
        return -1;
    }
    say("skip", b->layer, "not read: fpgamr.ko is not loaded, and the kernel has no %s in /sys/class/%s",
        b->name ? b->name : "entry", b->cls);
    return -1;
}

/* the FPGA-to-SDRAM port: the bound device's line (it knows the design's bus width), else the driver's */
static int check_port(const char *root, const char *devdir, int module_ok)
{
    char line[512], path[4400];
    int have = 0;
    if (devdir) {
        snprintf(path, sizeof path, "%s/fpga2sdram", devdir);
        have = read_line(path, line, sizeof line) == 0;
    }
    if (!have && module_ok) have = driver_line(root, "fpga2sdram", line, sizeof line) == 0;
    if (!have) {
        say("skip", "port", "not read: fpgamr.ko, which reads the SDRAM controller, is not loaded");
        return -1;
    }
    if (strncmp(line, "FPGA-to-SDRAM port enabled", 26) == 0) {
        say("ok", "port", "%s", line);
        return 0;
    }
    say("FAIL", "port", "%s (hdl/README.md, On a DE10-Nano)", line);
    return -1;
}

/* the board's layers; 0 when the accelerator's registers can be read (the FPGA and its bridge ready) */
static int check_board(const char *root, const char *devdir, int module_ok, int *port_ok)
{
    int fpga = check_board_layer(root, module_ok, &FPGA_LAYER);
    int bridge = check_board_layer(root, module_ok, &BRIDGE_LAYER);
    *port_ok = check_port(root, devdir, module_ok) == 0;
    return fpga || bridge ? -1 : 0;
}

/* the UIO node of the first device fpgamr.ko bound whose UIO name is ours ("/dev/uioN" in out); 0 when found */
static int bound_uio(const char *root, char *out, size_t olen)
{
    char drv[4096], path[4700], name[64];
    snprintf(drv, sizeof drv, "%s" DRIVER_DIR, root);
    DIR *d = opendir(drv);
    if (!d) return -1;
    struct dirent *e;
    int found = -1;
    while (found && (e = readdir(d))) {
        snprintf(path, sizeof path, "%s/%.255s/uio", drv, e->d_name);
        DIR *u = e->d_name[0] == '.' ? NULL : opendir(path);
        struct dirent *f;
        while (u && found && (f = readdir(u))) {
            snprintf(path, sizeof path, "%s/%.255s/uio/%.64s/name", drv, e->d_name, f->d_name);
            if (strncmp(f->d_name, "uio", 3) == 0 && read_line(path, name, sizeof name) == 0 && strcmp(name, FPGAMR_UIO_NAME) == 0) {
                snprintf(out, olen, "uio:/dev/%.64s", f->d_name);
                found = 0;
            }
        }
        if (u) closedir(u);
    }
    closedir(d);
    return found;
}

/* no --device: a Cyclone V's layers and whether the accelerator's node is bound; else none here */
static int check_node_only(const char *root)
{
    char drv[4096], uio[4400], dev[256] = "";
    if (!is_cyclone5(root)) {
        say("n/a", "device", "no FPGA accelerator on this node (no /sys/class/uio/uioN named " FPGAMR_UIO_NAME ", and not a Cyclone V "
            "SoC: the device tree's root is not compatible with \"" CYCLONE5 "\"); name one with --device SPEC");
        return 0;
    }
    int module_ok = check_module(root) == 0, port_ok;
    int ready = check_board(root, NULL, module_ok, &port_ok) == 0;
    check_devicetree(root);
    if (!module_ok) {
        say("skip", "device", "not checked: the module is not loaded");
        return 1;
    }
    if (!ready) {
        say("skip", "device", "not checked: fpgamr.ko does not bind the accelerator while the FPGA or its bridge is not ready");
        return 1;
    }
    snprintf(drv, sizeof drv, "%s" DRIVER_DIR, root);
    DIR *d = opendir(drv);
    struct dirent *e;
    int bound = 0;
    while (d && !bound && (e = readdir(d))) {
        snprintf(uio, sizeof uio, "%s/%.255s/uio", drv, e->d_name);
        bound = e->d_name[0] != '.' && is_dir(uio);
        if (bound) snprintf(dev, sizeof dev, "%s", e->d_name);
    }
    if (d) closedir(d);
    if (bound)
        say("FAIL", "device", "fpgamr.ko bound %s but its UIO device is not named \"" FPGAMR_UIO_NAME "\" in /sys/class/uio: name it with "
            "--device uio:/dev/uioN", dev);
    else
        say("FAIL", "device", "the accelerator's node is not bound to fpgamr.ko (no device in %s): its probe refused it; "
            "'dmesg | grep fpgamr' says why", drv);
    return 1;
}

/* ------------------------------------------------------------------ device nodes */
/* a device node this user must read and write: 0, or -1 after saying why not */
static int check_node(const char *path, const char *what)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        say("FAIL", "device", "%s (%s) does not exist: %s; is udev running (udevadm settle)?", path, what, strerror(errno));
        return -1;
    }
    if (!S_ISCHR(st.st_mode)) {
        say("FAIL", "device", "%s (%s) is not a character device", path, what);
        return -1;
    }
    if (access(path, R_OK | W_OK) != 0) {
        struct group *g = getgrgid(st.st_gid);
        struct passwd *pw = getpwuid(geteuid());
        say("FAIL", "device",
            "%s (%s) is not readable and writable by %s (mode %03o, group %s): add the user to the device's group "
            "(fpgamr-fpga, the udev rule of kernel/README.md)",
            path, what, pw ? pw->pw_name : "this user", (unsigned)(st.st_mode & 0777), g ? g->gr_name : "?");
        return -1;
    }
    return 0;
}

/* the UIO node and its DMA node, by sysfs; 0, or -1 after a FAIL line */
static int check_uio_nodes(const char *root, const char *node, char *dma, size_t dlen)
{
    const char *base = strrchr(node, '/');
    base = base ? base + 1 : node;
    char path[4096], name[128], dmadev[128];
    snprintf(path, sizeof path, "%s/sys/class/uio/%s/name", root, base);
    if (read_line(path, name, sizeof name) != 0) {
        say("FAIL", "device",
            "no UIO device %s (%s): fpgamr.ko did not bind the accelerator (its probe refuses a wrong design id or register "
            "map: 'dmesg | grep fpgamr'), or the accelerator is another uioN (grep . /sys/class/uio/*/name)",
            base, path);
        return -1;
    }
    if (strcmp(name, FPGAMR_UIO_NAME) != 0) {
        say("FAIL", "device", "%s is the UIO device \"%s\", not \"%s\": name the accelerator's (grep . /sys/class/uio/*/name)", node,
            name, FPGAMR_UIO_NAME);
        return -1;
    }
    snprintf(path, sizeof path, "%s/sys/class/uio/%s/device/dma_dev", root, base);
    if (read_line(path, dmadev, sizeof dmadev) != 0 || !dmadev[0]) {
        say("FAIL", "device", "%s has no DMA device (%s unreadable): fpgamr.ko is older than this driver; install this release's",
            node, path);
        return -1;
    }
    snprintf(dma, dlen, "/dev/%s", dmadev);
    if (check_node(node, "UIO registers and interrupt") || check_node(dma, "DMA buffers and jobs")) return -1;
    return 0;
}

/* the device's state as its driver keeps it (fpgamr.ko's sysfs `state`, the
 * vsim bus's state= file): 0, or -1 with a FAIL line when it is wedged (a
 * job it did not stop: it takes none until `back` happens); a file that is
 * not there says nothing (a module or a spec without it) */
static int check_state(const char *path, const char *what, const char *back)
{
    char st[256];
    if (read_line(path, st, sizeof st) != 0 || strncmp(st, "wedged", 6) != 0) return 0;
    say("FAIL", "device", "%s is %s (%s): it takes no job until %s", what, st, path, back);
    return -1;
}

/* ------------------------------------------------------------------ the device's registers */
typedef struct doctor {
    fpgamr_bus bus;
    int timeout_ms;
    size_t beat;
} doctor;

static uint32_t rd(doctor *d, uint32_t off) { return d->bus.rd(d->bus.ctx, off); }
static void wr(doctor *d, uint32_t off, uint32_t v) { d->bus.wr(d->bus.ctx, off, v); }
static uint64_t rd64(doctor *d, uint32_t off) { return rd(d, off) | (uint64_t)rd(d, off + 4) << 32; }

static const char *err_name(uint32_t status)
{
    static const char *names[] = {"none", "read response error", "write response error", "bad width", "bad alignment",
                                  "no match ring"};
    unsigned code = (status & FPGAMR_STATUS_ERR_CODE_MASK) >> FPGAMR_STATUS_ERR_CODE_SHIFT;
    return code < 6 ? names[code] : "unknown error code";
}

static int check_regmap(doctor *d)
{
    uint32_t id = rd(d, FPGAMR_REG_DESIGN_ID), v = rd(d, FPGAMR_REG_REGMAP_VERSION);
    if (id != FPGAMR_DESIGN_ID) {
        say("FAIL", "regmap",
            "DESIGN_ID is 0x%08x, not the fpgamr MD5 accelerator's 0x%08x (\"MD5A\"): the FPGA holds another design (or none); "
            "load fpgamr's (hdl/README.md)",
            id, FPGAMR_DESIGN_ID);
        return -1;
    }
    /* the map's major and no lower minor, as the drivers (3.0's ABORT can leave a search running for ever) */
    if (v >> 16 != FPGAMR_REGMAP_MAJOR || (v & 0xFFFF) < FPGAMR_REGMAP_MINOR) {
        say("FAIL", "regmap",
            "the device's register map is %u.%u, this driver's is %u.%u: the design and the software come from different releases; "
            "load the design built with this release (hdl/), or install the software of the design's",
            v >> 16, v & 0xFFFF, FPGAMR_REGMAP_MAJOR, FPGAMR_REGMAP_MINOR);
        return -1;
    }
    say("ok", "regmap", "%u.%u, this driver's %u.%u (DESIGN_ID \"MD5A\")", v >> 16, v & 0xFFFF, FPGAMR_REGMAP_MAJOR,
        FPGAMR_REGMAP_MINOR);
    return 0;
}

static int check_design(doctor *d)
{
    uint32_t p = rd(d, FPGAMR_REG_DESIGN_PARAMS), khz = rd(d, FPGAMR_REG_CLOCK_KHZ);
    unsigned pipes = (p & FPGAMR_DESIGN_PARAMS_PIPELINES_MASK) >> FPGAMR_DESIGN_PARAMS_PIPELINES_SHIFT;
    unsigned lb = (p & FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >> FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT;
    unsigned minw = (p & FPGAMR_DESIGN_PARAMS_MIN_WIDTH_MASK) >> FPGAMR_DESIGN_PARAMS_MIN_WIDTH_SHIFT;
    unsigned maxw = (p & FPGAMR_DESIGN_PARAMS_MAX_WIDTH_MASK) >> FPGAMR_DESIGN_PARAMS_MAX_WIDTH_SHIFT;
    const char *bad = NULL;
    if (pipes == 0)
        bad = "it has no pipelines";
    else if (!(p & FPGAMR_DESIGN_PARAMS_MODE_HASH_MASK) || !(p & FPGAMR_DESIGN_PARAMS_MODE_SEARCH_MASK))
        bad = "it lacks the hash or the search path";
    else if (lb < 4 || lb > 6)
        bad = "its data bus is not 128, 256 or 512 bits";
    else if (minw > 4 || maxw < 4)
        bad = "it does not hash 4-byte messages";
    else if (khz == 0)
        bad = "it does not say its clock (CLOCK_KHZ is 0)";
    if (bad) {
        say("FAIL", "design", "DESIGN_PARAMS 0x%08x: %s; this driver cannot use it: load a design built from hdl/", p, bad);
        return -1;
    }
    d->beat = (size_t)1 << lb;
    say("ok", "design", "%u pipeline%s, %u-bit bus, %g MHz clock, messages of %u..%u bytes (DESIGN_PARAMS 0x%08x)", pipes,
        pipes == 1 ? "" : "s", 8u << lb, khz / 1e3, minw, maxw, p);
    return 0;
}

/* wait until the job the device counts as seq has ended; 1, or 0 at the timeout */
static int poll_end(doctor *d, uint32_t seq, int timeout_ms)
{
    double t_end = now_s() + timeout_ms / 1e3;
    for (;;) {
        if (rd(d, FPGAMR_REG_JOBS_STARTED) == seq && !(rd(d, FPGAMR_REG_STATUS) & FPGAMR_STATUS_BUSY_MASK)) return 1;
        if (now_s() >= t_end) return 0;
        sleep_ms(1);
    }
}

static void clear_irq(doctor *d)
{
    wr(d, FPGAMR_REG_IRQ_STATUS, FPGAMR_IRQ_STATUS_DONE_MASK | FPGAMR_IRQ_STATUS_ERROR_MASK | FPGAMR_IRQ_STATUS_MATCH_MASK);
}

/* abort the running job and give it a second to end */
static void stop_job(doctor *d, uint32_t seq)
{
    d->bus.abort(d->bus.ctx);
    poll_end(d, seq, 1000);
    clear_irq(d);
}

/* A search of PROBE_VALUES values with an empty filter (no hits: no DMA),
 * ended by its interrupt. 0: delivered; -1 after a FAIL line. */
static int check_interrupt(doctor *d)
{
    fpgamr_dmabuf ring;
    char err[512] = "";
    const uint32_t cap = 64;
    memset(&ring, 0, sizeof ring);
    if (d->bus.dma_alloc(d->bus.ctx, cap * FPGAMR_MATCH_RECORD_BYTES, &ring) != 0) {
        say("FAIL", "interrupt", "cannot allocate %u bytes of DMA memory for a job: check the module's max_user_bytes and CMA",
            cap * FPGAMR_MATCH_RECORD_BYTES);
        return -1;
    }
    wr(d, FPGAMR_REG_IRQ_ENABLE, 0);
    clear_irq(d);
    /* the line may still be masked by an interrupt nobody acknowledged (a
     * process killed during its job): unmask it, now that nothing is pending */
    if (d->bus.wait_irq(d->bus.ctx, 0) > 0) { /* a stale event of this file */ }
    d->bus.irq_done(d->bus.ctx);
    wr(d, FPGAMR_REG_FILTER_ADDR, 0);
    for (unsigned i = 0; i < FPGAMR_FILTER_ARRAYS * FPGAMR_FILTER_WORDS; i++) wr(d, FPGAMR_REG_FILTER_DATA, 0);
    /* IRQ_ENABLE before IRQ_STATUS: a plain register reaches the device no
     * later than the next write with a side effect (what node-sim traps) */
    wr(d, FPGAMR_REG_IRQ_ENABLE, FPGAMR_IRQ_ENABLE_DONE_MASK | FPGAMR_IRQ_ENABLE_ERROR_MASK);
    clear_irq(d);
    fpgamr_job j = {FPGAMR_OP_SEARCH, 4, 0, PROBE_VALUES, NULL, 0, &ring, 0, cap};
    uint32_t seq = rd(d, FPGAMR_REG_JOBS_STARTED) + 1;
    int rc = d->bus.submit(d->bus.ctx, &j, err, sizeof err);
    if (rc) {
        say("FAIL", "interrupt", "the driver refused a %u-value search job: %s", PROBE_VALUES, err);
        d->bus.dma_free(d->bus.ctx, &ring);
        return -1;
    }
    double t0 = now_s();
    int w = d->bus.wait_irq(d->bus.ctx, d->timeout_ms);
    double ms = 1e3 * (now_s() - t0);
    int ok = -1;
    if (w > 0) {
        uint32_t st = rd(d, FPGAMR_REG_STATUS);
        clear_irq(d);
        d->bus.irq_done(d->bus.ctx);
        if (st & FPGAMR_STATUS_ERROR_MASK)
            say("FAIL", "interrupt", "the %u-value search ended in error %s (STATUS 0x%08x): the design does not run jobs correctly",
                PROBE_VALUES, err_name(st), st);
        else if (!(st & FPGAMR_STATUS_DONE_MASK))
            say("FAIL", "interrupt", "an interrupt came without a finished job (STATUS 0x%08x): a spurious interrupt, or another "
                "device on the line (the node's 'interrupts' in the device tree)", st);
        else {
            say("ok", "interrupt", "a %u-value search job ended by its interrupt after %.1f ms", PROBE_VALUES, ms);
            ok = 0;
        }
    } else if (w < 0) {
        say("FAIL", "interrupt", "waiting for the interrupt failed (the UIO node's read): is the device being removed?");
        stop_job(d, seq);
    } else {
        uint32_t st = rd(d, FPGAMR_REG_STATUS);
        if (rd(d, FPGAMR_REG_JOBS_STARTED) == seq && !(st & FPGAMR_STATUS_BUSY_MASK) && (st & FPGAMR_STATUS_DONE_MASK)) {
            say("FAIL", "interrupt",
                "the device finished a %u-value search (STATUS.DONE) but no interrupt reached this process in %d ms: the "
                "interrupt is not delivered (the node's 'interrupts' in the device tree, the FPGA-to-HPS IRQ; see "
                "/proc/interrupts)",
                PROBE_VALUES, d->timeout_ms);
            clear_irq(d);
        } else {
            say("FAIL", "interrupt",
                "no interrupt in %d ms and the device has not finished a %u-value search (STATUS 0x%08x, %llu values done): "
                "the device does not run jobs (its clock, its reset, or the design)",
                d->timeout_ms, PROBE_VALUES, st, (unsigned long long)rd64(d, FPGAMR_REG_DONE_LO));
            stop_job(d, seq);
        }
    }
    wr(d, FPGAMR_REG_IRQ_ENABLE, 0);
    d->bus.dma_free(d->bus.ctx, &ring);
    return ok;
}

static size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* One hash job of n 4-byte values through the device's DMA, its end by the
 * interrupt (or by polling STATUS when the interrupt layer failed), its
 * digests against the CPU kernel's. */
static void check_dma(doctor *d, uint64_t n, int use_irq)
{
    fpgamr_dmabuf src, dst;
    char err[512] = "";
    memset(&src, 0, sizeof src);
    memset(&dst, 0, sizeof dst);
    size_t src_bytes = round_up((size_t)n * 4, d->beat), dst_bytes = round_up((size_t)n * 16, d->beat);
    if (d->bus.dma_alloc(d->bus.ctx, src_bytes, &src) != 0 || d->bus.dma_alloc(d->bus.ctx, dst_bytes, &dst) != 0) {
        say("FAIL", "dma", "cannot allocate %zu + %zu bytes of DMA memory: check the module's max_user_bytes and the CMA pool",
            src_bytes, dst_bytes);
        d->bus.dma_free(d->bus.ctx, &src);
        return;
    }
    uint32_t *m = src.host;
    for (uint64_t i = 0; i < n; i++) m[i] = __builtin_bswap32((uint32_t)i);  /* big-endian, as the job's messages */
    memset(dst.host, 0, dst.size);
    d->bus.dma_sync(d->bus.ctx, &src, 0, FPGAMR_SYNC_TO_DEVICE, 0, src_bytes);
    d->bus.dma_sync(d->bus.ctx, &dst, 0, FPGAMR_SYNC_FROM_DEVICE, 0, dst_bytes);
    wr(d, FPGAMR_REG_IRQ_ENABLE, use_irq ? FPGAMR_IRQ_ENABLE_DONE_MASK | FPGAMR_IRQ_ENABLE_ERROR_MASK : 0);
    clear_irq(d);
    fpgamr_job j = {FPGAMR_OP_HASH, 4, 0, n, &src, 0, &dst, 0, 0};
    uint32_t seq = rd(d, FPGAMR_REG_JOBS_STARTED) + 1;
    double t0 = now_s();
    if (d->bus.submit(d->bus.ctx, &j, err, sizeof err) != 0) {
        say("FAIL", "dma", "the driver refused a %llu-value hash job: %s", (unsigned long long)n, err);
        goto out;
    }
    int ended;
    if (use_irq) {
        ended = d->bus.wait_irq(d->bus.ctx, d->timeout_ms) > 0;
        if (ended) poll_end(d, seq, 1000);
    } else {
        ended = poll_end(d, seq, d->timeout_ms);
    }
    double ms = 1e3 * (now_s() - t0);
    uint32_t st = rd(d, FPGAMR_REG_STATUS);
    uint64_t done = rd64(d, FPGAMR_REG_DONE_LO), cycles = rd64(d, FPGAMR_REG_CYCLES_LO);
    if (!ended) {
        char why[384];
        d->bus.diagnose(d->bus.ctx, why, sizeof why);  /* the port and the bridges, as found */
        say("FAIL", "dma",
            "a %llu-value hash job did not end in %d ms (STATUS 0x%08x, %llu digests written): the device's DMA does not get "
            "through to memory: %s",
            (unsigned long long)n, d->timeout_ms, st, (unsigned long long)done, why);
        stop_job(d, seq);
        goto out;
    }
    clear_irq(d);
    if (use_irq) d->bus.irq_done(d->bus.ctx);  /* unmask once IRQ_STATUS is clear */
    if (st & FPGAMR_STATUS_ERROR_MASK) {
        char where[96];
        fpgamr_bus_err_where(&d->bus, where, sizeof where);
        say("FAIL", "dma",
            "the hash job's DMA got a %s %s after %llu digests (STATUS 0x%08x): the memory behind the device's port "
            "refuses it (the FPGA-to-SDRAM port's configuration, hdl/README.md; the module's dma_bits)",
            err_name(st), where, (unsigned long long)done, st);
        goto out;
    }
    if (done != n) {
        say("FAIL", "dma", "the device says it wrote %llu of %llu digests (STATUS 0x%08x): the design drops work",
            (unsigned long long)done, (unsigned long long)n, st);
        goto out;
    }
    d->bus.dma_sync(d->bus.ctx, &dst, 1, FPGAMR_SYNC_FROM_DEVICE, 0, dst_bytes);
    int code = 0;
    fpgamr_md5 *cpu = fpgamr_md5_open(NULL, 1, err, (int)sizeof err, &code);
    uint8_t *want = malloc((size_t)n * 16);
    if (!cpu || !want) {
        say("FAIL", "dma", "the CPU kernel to compare with does not open: %s", cpu ? "out of memory" : err);
        goto cpu_out;
    }
    if (fpgamr_md5_hash_range(cpu, 0, n, 4, want) != (int64_t)n) {
        say("FAIL", "dma", "the CPU kernel (%s) did not hash the %llu values", fpgamr_md5_kernel(cpu), (unsigned long long)n);
        goto cpu_out;
    }
    const uint8_t *got = dst.host;
    for (uint64_t i = 0; i < n; i++)
        if (memcmp(got + 16 * i, want + 16 * i, 16) != 0) {
            say("FAIL", "dma",
                "the device's digest of value %llu differs from the CPU kernel's (%s), %llu values: the data crossing the port "
                "is corrupted (caches: the module's coherent= setting and the device tree's dma-coherent; the port's width)",
                (unsigned long long)i, fpgamr_md5_kernel(cpu), (unsigned long long)n);
            goto cpu_out;
        }
    say("ok", "dma", "%llu values hashed by the device through its DMA (%llu device cycles, %.1f ms here), every digest equal to the "
        "CPU kernel's (%s)%s", (unsigned long long)n, (unsigned long long)cycles, ms, fpgamr_md5_kernel(cpu),
        use_irq ? "" : "; its end polled, the interrupt failing");
cpu_out:
    free(want);
    if (cpu) fpgamr_md5_close(cpu);
out:
    wr(d, FPGAMR_REG_IRQ_ENABLE, 0);
    d->bus.dma_free(d->bus.ctx, &dst);
    d->bus.dma_free(d->bus.ctx, &src);
}

/* ------------------------------------------------------------------ main */
static void rest(const char *status, const char *first, const char *why)
{
    static const char *layers[] = {"regmap", "design", "interrupt", "dma"};
    int on = 0;
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++) {
        if (strcmp(layers[i], first) == 0) on = 1;
        if (on) say(status, layers[i], "%s", why);
    }
}

int main(int argc, char **argv)
{
    const char *spec = NULL, *root = "";
    uint64_t values = FPGAMR_BATCH_VALUES;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            spec = argv[++i];
        else if (strcmp(argv[i], "--sysfs-root") == 0 && i + 1 < argc)
            root = argv[++i];
        else if (strcmp(argv[i], "--values") == 0 && i + 1 < argc) {
            char *end;
            values = strtoull(argv[++i], &end, 10);
            if (*end || values < 1 || values > (1u << 24)) {
                fprintf(stderr, "fpgamr-doctor: --values must be 1..16777216, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            puts(USAGE);
            return 0;
        } else {
            fprintf(stderr, "fpgamr-doctor: unknown argument '%s'\n%s\n", argv[i], USAGE);
            return 2;
        }
    }
    char found[128];
    if (!spec) {
        /* a bound accelerator is checked as if given; else why there is none */
        if (!is_cyclone5(root) || bound_uio(root, found, sizeof found) != 0) return check_node_only(root);
        spec = found;
    }
    int uio = strncmp(spec, "uio:", 4) == 0;
    int vsim = strcmp(spec, "vsim") == 0 || strncmp(spec, "vsim:", 5) == 0;
    if (!uio && !vsim) {
        fprintf(stderr, "fpgamr-doctor: unknown device spec '%s' (want uio:/dev/uioN or vsim:pipelines=N)\n", spec);
        return 2;
    }
    const char *opts = uio ? spec + 4 : (spec[4] ? spec + 5 : "");
    int port_ok = 1;
    char node[256] = "", lock[4096] = "", val[64], err[1024] = "", dma[300] = "";
    doctor d;
    memset(&d, 0, sizeof d);
    int rc;
    if (uio) {
        size_t nl = strcspn(opts, ",");
        if (nl == 0 || nl >= sizeof node) {
            fprintf(stderr, "fpgamr-doctor: a uio spec names the UIO node, e.g. uio:/dev/uio0\n");
            return 2;
        }
        memcpy(node, opts, nl);
        snprintf(lock, sizeof lock, "%s", node);
        int module_ok = check_module(root) == 0, board_ok = 0;
        if (is_cyclone5(root)) {
            char devdir[4400];
            const char *b = strrchr(node, '/');
            snprintf(devdir, sizeof devdir, "%s/sys/class/uio/%s/device", root, b ? b + 1 : node);
            board_ok = check_board(root, devdir, module_ok, &port_ok);
        }
        check_devicetree(root);
        if (!module_ok) {
            say("skip", "device", "not checked: the module is not loaded");
            rest("skip", "regmap", "not checked: the module is not loaded");
            return 1;
        }
        if (board_ok) {
            say("skip", "device", "not checked: the FPGA or its bridge is not ready");
            rest("skip", "regmap", "not checked: the FPGA or its bridge is not ready");
            return 1;
        }
        if (check_uio_nodes(root, node, dma, sizeof dma) != 0) {
            rest("skip", "regmap", "not checked: the device nodes fail");
            return 1;
        }
        char statef[4400];
        const char *b = strrchr(node, '/');
        snprintf(statef, sizeof statef, "%s/sys/class/uio/%s/device/state", root, b ? b + 1 : node);
        if (check_state(statef, node, "the FPGA is reprogrammed or fpgamr.ko is reloaded (either probes it again)") != 0) {
            rest("skip", "regmap", "not checked: the device is wedged");
            return 1;
        }
        rc = fpgamr_bus_uio_open(opts, &d.bus, err, sizeof err);
        if (rc == 0 || rc == FPGAMR_EBUSY)
            say("ok", "device", "%s (%s) and %s: read/write for this user, paired (FPGAMR_IOC_INFO)", node, FPGAMR_UIO_NAME, dma);
        else {
            say("FAIL", "device", "the driver cannot open %s: %s", node, err);
            rest("skip", "regmap", "not checked: the device does not open");
            return 1;
        }
    } else {
        say("n/a", "module", "a simulated device (vsim) has no kernel module");
        say("n/a", "devicetree", "a simulated device has no device tree node");
        unsigned n = 1;
        if (fpgamr_opt(opts, "pipelines", val, sizeof val)) n = (unsigned)strtoul(val, NULL, 0);
        if (!fpgamr_opt(opts, "lock", lock, sizeof lock)) {
            const char *tmp = getenv("TMPDIR");
            snprintf(lock, sizeof lock, "%s/fpgamr-vsim-p%u.lock", tmp && *tmp ? tmp : "/tmp", n);
        }
        char statef[4096];
        if (fpgamr_opt(opts, "state", statef, sizeof statef) &&
            check_state(statef, "the simulated device", "its model is loaded again (the NodeManager's recovery does it)") != 0) {
            rest("skip", "regmap", "not checked: the device is wedged");
            return 1;
        }
        rc = fpgamr_bus_vsim_open(opts, &d.bus, err, sizeof err);
        if (rc == 0 || rc == FPGAMR_EBUSY)
            say("n/a", "device", "a simulated device (the Verilated design, %u pipeline%s) has no device nodes", n, n == 1 ? "" : "s");
        else {
            say("FAIL", "device", "the simulated device does not open: %s", err);
            rest("skip", "regmap", "not checked: the device does not open");
            return 1;
        }
    }
    if (rc == FPGAMR_EBUSY) {
        char comm[64], why[512];
        long pid = lock_holder(lock, comm, sizeof comm);
        if (pid)
            snprintf(why, sizeof why, "held by process %ld (%s), a running job: not a failure; run the doctor when it ends", pid, comm);
        else
            snprintf(why, sizeof why, "held by another process (%s), a running job: not a failure; run the doctor when it ends", err);
        rest("busy", "regmap", why);
        return 0;
    }
    d.timeout_ms = d.bus.timeout_ms;
    if (fpgamr_opt(opts, "timeout_ms", val, sizeof val)) d.timeout_ms = atoi(val);
    if (d.timeout_ms < 1) d.timeout_ms = 1;
    if (check_regmap(&d) != 0) {
        rest("skip", "design", "not checked: the register map fails");
    } else if (check_design(&d) != 0) {
        rest("skip", "interrupt", "not checked: the design fails");
    } else {
        int irq_ok = check_interrupt(&d) == 0;
        if (port_ok)
            check_dma(&d, values, irq_ok);
        else
            say("skip", "dma", "not checked: the FPGA-to-SDRAM port fails");
    }
    d.bus.close(d.bus.ctx);
    return failed ? 1 : 0;
}
