// vsim_lib.cpp: libfpgamr-vsim-pN.so, the simulated accelerator behind the
// driver's "vsim" bus. One Md5accSim (Verilated md5acc_top + AXI memory
// model, VSIM_DATA_W-bit AXI data bus: the DE10-Nano build's, fpga/Makefile) per
// device, clocked by its own thread while the device is busy, so
// the host fills and drains buffers while the device works. Register
// accesses from the host thread take the model lock (the clock thread gives
// way to them) and advance the clock as a bus transaction would.
//
// Fault injection (option fault=KIND@K, fpgamr_vsim.h): the harness, not the RTL,
// makes the K-th job since create go wrong, through the model's own paths: every
// mapped region answers SLVERR (dma_error; a search job also gets a filter that
// every value hits, so that it writes match records), the clock stops until the
// host aborts the job (hang), or the job is started with half its COUNT (drop).
// The next START undoes what dma_error changed. Two faults are the board's broken wiring, in force
// from job K on: the interrupt line never reaches the host (irq_lost: the jobs complete, STATUS says
// so), or the memory answers no AXI handshake (dma_stall: every DMA job waits, until the host aborts
// it, for a port that is not enabled). A fault the host cannot undo: from job K on the memory takes
// requests and answers none (wedge: a bus that hangs, so the job's bursts never drain and no ABORT
// brings the device to idle; a search job gets an all-hit filter, so that it writes),
// what a driver's stop must survive by marking the device wedged. Option regmap=MAJOR.MINOR makes REGMAP_VERSION read so: a
// design built for another register map.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "fpgamr_regs.h"
#include "fpgamr_vsim.h"
#include "md5acc_sim.h"

#ifndef VSIM_NPIPE
#error VSIM_NPIPE must be defined
#endif
#ifndef VSIM_DATA_W
#error VSIM_DATA_W must be defined (the -GDATA_W the model was Verilated with)
#endif
// Wide AXI data (128/256/512 bits, VlWide ports) is handled by md5acc_sim.h;
// the library and the model must agree on it.
static_assert(Md5accSim::BUS_BYTES * 8 == VSIM_DATA_W, "model data bus width differs from VSIM_DATA_W");

struct fpgamr_vsim {
    Md5accSim *sim = nullptr;
    std::mutex m;
    std::condition_variable cv_run;
    std::thread th;
    bool stop = false;
    bool kick = false;
    std::atomic<int> host_waiting{0};
    std::atomic<uint64_t> api_ns{0};
    uint64_t next_bus = 0x10000000ull;
    std::vector<uint64_t> regions;  // bus addresses of the mapped host memory
    int stall = 0;                  // the stall= option

    // fault injection: what the host last wrote, and the fault's state
    enum Fault { NONE, DMA_ERROR, HANG, DROP, IRQ_LOST, DMA_STALL, WEDGE } fault = NONE;
    uint64_t fault_job = 0;      // K: the job (START) that goes wrong, from 1
    uint64_t starts = 0;         // STARTs since create
    uint32_t mode = 0, count_lo = 0, count_hi = 0, filter_addr = 0;
    uint32_t filter[FPGAMR_FILTER_ARRAYS * FPGAMR_FILTER_WORDS] = {};
    bool undo = false;           // dma_error changed regions and filter
    bool frozen = false;         // hang: the clock stands still until an ABORT
    bool irq_cut = false;        // irq_lost: the line never reaches the host
    bool stalled = false;        // dma_stall: the memory withholds every handshake until an ABORT
    bool regmap_set = false;     // regmap=: REGMAP_VERSION as given
    uint32_t regmap = 0;

    void loop()
    {
        std::unique_lock<std::mutex> lk(m);
        while (!stop) {
            if (frozen || (!kick && !sim->busy() && sim->bus_quiet())) {
                cv_run.wait(lk);
                continue;
            }
            kick = false;
            for (int i = 0; i < 512; i++) {
                if (host_waiting.load(std::memory_order_relaxed)) break;
                sim->tick();
                if (!sim->busy() && sim->bus_quiet()) break;
            }
            if (host_waiting.load(std::memory_order_relaxed)) {
                lk.unlock();
                while (host_waiting.load(std::memory_order_relaxed)) std::this_thread::yield();
                lk.lock();
            }
        }
    }
};

namespace {
// The model lock for a host thread. The clock thread of a busy device keeps the lock from one batch
// of ticks to the next and gives it up only to a host that says it waits (host_waiting), so every
// host-side taker comes through here: a plain lock_guard waits forever on a device that never goes
// idle (a wedged one: the driver's close hung in unmap, then in destroy).
std::unique_lock<std::mutex> host_lock(fpgamr_vsim *v)
{
    v->host_waiting.fetch_add(1);
    std::unique_lock<std::mutex> lk(v->m);
    v->host_waiting.fetch_sub(1);
    return lk;
}

struct HostLock {
    fpgamr_vsim *v;
    std::chrono::steady_clock::time_point t0;
    std::unique_lock<std::mutex> lk;
    explicit HostLock(fpgamr_vsim *d) : v(d), t0(std::chrono::steady_clock::now()), lk(host_lock(d)) {}
    ~HostLock()
    {
        v->kick = true;
        v->cv_run.notify_one();
        lk.unlock();
        auto dt = std::chrono::steady_clock::now() - t0;
        v->api_ns.fetch_add((uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(dt).count());
    }
};

// the value of option key in "k=v,k=v", or nullptr
const char *opt(const char *opts, const char *key)
{
    if (!opts) return nullptr;
    size_t kl = strlen(key);
    for (const char *p = opts; *p;) {
        if (strncmp(p, key, kl) == 0 && p[kl] == '=') return p + kl + 1;
        const char *c = strchr(p, ',');
        if (!c) break;
        p = c + 1;
    }
    return nullptr;
}

uint64_t opt_u64(const char *opts, const char *key, uint64_t def)
{
    const char *v = opt(opts, key);
    return v ? strtoull(v, nullptr, 0) : def;
}

// fault=KIND@K; false when malformed
bool parse_fault(const char *v, fpgamr_vsim::Fault *kind, uint64_t *job)
{
    static const struct { const char *name; fpgamr_vsim::Fault kind; } kinds[] = {
        {"dma_error@", fpgamr_vsim::DMA_ERROR}, {"hang@", fpgamr_vsim::HANG}, {"drop@", fpgamr_vsim::DROP},
        {"irq_lost@", fpgamr_vsim::IRQ_LOST}, {"dma_stall@", fpgamr_vsim::DMA_STALL}, {"wedge@", fpgamr_vsim::WEDGE}};
    for (const auto &k : kinds) {
        size_t n = strlen(k.name);
        if (strncmp(v, k.name, n) != 0) continue;
        char *end = nullptr;
        unsigned long long j = strtoull(v + n, &end, 10);
        if (j < 1 || end == v + n || (*end && *end != ',')) return false;
        *kind = k.kind;
        *job = j;
        return true;
    }
    return false;
}

// Before the host's START of a job reaches the model: the fault, when this is its job.
void before_start(fpgamr_vsim *v)
{
    Md5accSim *sim = v->sim;
    if (v->undo) {  // the job after a dma_error: memory answers again, the host's filter is back
        for (uint64_t b : v->regions) sim->set_region_resp(b, 0);
        sim->reg_write(FPGAMR_REG_FILTER_ADDR, 0);
        for (uint32_t w : v->filter) sim->reg_write(FPGAMR_REG_FILTER_DATA, w);
        sim->reg_write(FPGAMR_REG_FILTER_ADDR, v->filter_addr);
        v->undo = false;
    }
    ++v->starts;
    if (v->fault == fpgamr_vsim::IRQ_LOST && v->starts >= v->fault_job) v->irq_cut = true;
    if (v->fault == fpgamr_vsim::DMA_STALL && v->starts >= v->fault_job) {
        sim->set_stall(100);  // no ready, no valid on the memory side
        v->stalled = true;
    }
    // a bus that takes the job's requests and never answers: its bursts cannot drain, whatever ABORT
    if (v->fault == fpgamr_vsim::WEDGE && v->starts >= v->fault_job) sim->set_hang(true);
    if (v->starts != v->fault_job) return;
    switch (v->fault) {
    case fpgamr_vsim::DMA_ERROR:
    case fpgamr_vsim::WEDGE:
        if (v->fault == fpgamr_vsim::DMA_ERROR) {
            for (uint64_t b : v->regions) sim->set_region_resp(b, 2);  // SLVERR
            v->undo = true;
        }
        if (((v->mode & FPGAMR_MODE_OP_MASK) >> FPGAMR_MODE_OP_SHIFT) == FPGAMR_OP_SEARCH) {
            // a search job touches memory only to write match records: make every value hit
            sim->reg_write(FPGAMR_REG_FILTER_ADDR, 0);
            for (size_t i = 0; i < sizeof v->filter / sizeof v->filter[0]; i++)
                sim->reg_write(FPGAMR_REG_FILTER_DATA, 0xFFFFFFFFu);
        }
        break;
    case fpgamr_vsim::DROP: {  // the device is told half the values: its DONE shows it
        uint64_t n = (uint64_t)v->count_hi << 32 | v->count_lo;
        sim->reg_write(FPGAMR_REG_COUNT_LO, (uint32_t)(n / 2));
        sim->reg_write(FPGAMR_REG_COUNT_HI, (uint32_t)(n / 2 >> 32));
        break;
    }
    default:
        break;
    }
}

// The harness's view of a host register write, around the model's own.
void host_write(fpgamr_vsim *v, uint32_t off, uint32_t val)
{
    const size_t nfilter = sizeof v->filter / sizeof v->filter[0];
    switch (off) {
    case FPGAMR_REG_MODE: v->mode = val; break;
    case FPGAMR_REG_COUNT_LO: v->count_lo = val; break;
    case FPGAMR_REG_COUNT_HI: v->count_hi = val; break;
    case FPGAMR_REG_FILTER_ADDR: v->filter_addr = val; break;
    case FPGAMR_REG_FILTER_DATA:
        v->filter[v->filter_addr % nfilter] = val;
        v->filter_addr = (v->filter_addr + 1) % nfilter;
        break;
    case FPGAMR_REG_CTRL:
        if (val & FPGAMR_CTRL_START_MASK) before_start(v);
        if (val & FPGAMR_CTRL_ABORT_MASK) v->frozen = false;  // the hung job drains and ends aborted
        if ((val & FPGAMR_CTRL_ABORT_MASK) && v->stalled) {     // the stalled job's bursts drain, it ends aborted
            v->sim->set_stall(v->stall);
            v->stalled = false;
        }
        break;
    default:
        break;
    }
    v->sim->reg_write(off, val);
    if (off == FPGAMR_REG_CTRL && (val & FPGAMR_CTRL_START_MASK) && v->fault == fpgamr_vsim::HANG &&
        v->starts == v->fault_job)
        v->frozen = true;
}
}  // namespace

extern "C" {

unsigned fpgamr_vsim_abi(void) { return FPGAMR_VSIM_ABI; }
unsigned fpgamr_vsim_pipelines(void) { return VSIM_NPIPE; }

fpgamr_vsim *fpgamr_vsim_create(const char *opts, char *err, size_t errlen)
{
    fpgamr_vsim *v = new (std::nothrow) fpgamr_vsim;
    if (!v) {
        if (err && errlen) snprintf(err, errlen, "vsim: out of memory");
        return nullptr;
    }
    const char *fault = opt(opts, "fault");
    if (fault && !parse_fault(fault, &v->fault, &v->fault_job)) {
        if (err && errlen)
            snprintf(err, errlen, "vsim: bad fault option (want fault=dma_error@K, hang@K, drop@K, irq_lost@K, dma_stall@K or wedge@K, K >= 1)");
        delete v;
        return nullptr;
    }
    if (const char *rm = opt(opts, "regmap")) {
        char *dot = nullptr, *end = nullptr;
        unsigned long major = strtoul(rm, &dot, 10), minor = 0;
        bool ok = dot != rm && major <= 0xFFFF;
        if (ok && *dot == '.') {
            minor = strtoul(dot + 1, &end, 10);
            ok = end != dot + 1 && minor <= 0xFFFF && (!*end || *end == ',');
        } else {
            ok = ok && (!*dot || *dot == ',');
        }
        if (!ok) {
            if (err && errlen) snprintf(err, errlen, "vsim: bad regmap option (want regmap=MAJOR[.MINOR])");
            delete v;
            return nullptr;
        }
        v->regmap_set = true;
        v->regmap = (uint32_t)(major << 16 | minor);
    }
    v->sim = new Md5accSim((uint32_t)opt_u64(opts, "seed", 1));
    v->stall = (int)opt_u64(opts, "stall", 0);
    v->sim->set_stall(v->stall);
    v->th = std::thread([v] { v->loop(); });
    return v;
}

void fpgamr_vsim_destroy(fpgamr_vsim *v)
{
    if (!v) return;
    {
        auto lk = host_lock(v);
        v->stop = true;
        v->cv_run.notify_all();
    }
    v->th.join();
    delete v->sim;
    delete v;
}

uint32_t fpgamr_vsim_reg_read(fpgamr_vsim *v, uint32_t off)
{
    HostLock h(v);
    if (off == FPGAMR_REG_REGMAP_VERSION && v->regmap_set) return v->regmap;
    return v->sim->reg_read(off);
}

void fpgamr_vsim_reg_write(fpgamr_vsim *v, uint32_t off, uint32_t val)
{
    HostLock h(v);
    host_write(v, off, val);
}

int fpgamr_vsim_map(fpgamr_vsim *v, void *host, uint64_t size, uint64_t *bus_addr)
{
    auto lk = host_lock(v);
    uint64_t base = v->next_bus;
    uint64_t span = (size + 4095) & ~4095ull;
    if (base + span > 0xF0000000ull) return -1;  // 32-bit bus
    v->next_bus = base + span + 4096;             // guard page
    v->sim->add_region(base, size, (uint8_t *)host);
    v->regions.push_back(base);
    *bus_addr = base;
    return 0;
}

void fpgamr_vsim_unmap(fpgamr_vsim *v, uint64_t bus_addr)
{
    auto lk = host_lock(v);
    v->sim->remove_region(bus_addr);
    for (size_t i = 0; i < v->regions.size(); i++)
        if (v->regions[i] == bus_addr) v->regions.erase(v->regions.begin() + (long)i);
}

void fpgamr_vsim_set_region_resp(fpgamr_vsim *v, uint64_t bus_addr, int resp)
{
    auto lk = host_lock(v);
    v->sim->set_region_resp(bus_addr, resp);
}

int fpgamr_vsim_wait_irq(fpgamr_vsim *v, int timeout_ms)
{
    // Polls the line, taking the lock the way a register access does: a busy
    // device may be waiting for the host (a full match ring), and then its
    // clock thread never idles and gives the lock only to a waiting host.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
        {
            auto lk = host_lock(v);
            if (v->sim->irq() && !v->irq_cut) return 1;
        }
        if (std::chrono::steady_clock::now() >= deadline) return 0;
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

uint64_t fpgamr_vsim_cycles(fpgamr_vsim *v)
{
    auto lk = host_lock(v);
    return v->sim->cycles();
}

uint64_t fpgamr_vsim_api_ns(fpgamr_vsim *v) { return v->api_ns.load(); }

}  // extern "C"
