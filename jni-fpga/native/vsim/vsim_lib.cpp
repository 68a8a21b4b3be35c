// vsim_lib.cpp: libfpgamr-vsim-pN.so, the simulated accelerator behind the
// driver's "vsim" bus. One Md5accSim (Verilated md5acc_top + AXI memory
// model, VSIM_DATA_W-bit AXI data bus: the DE10-Nano build's, fpga/Makefile) per
// device, clocked by its own thread while the device is busy, so
// the host fills and drains buffers while the device works. Register
// accesses from the host thread take the model lock (the clock thread gives
// way to them) and advance the clock as a bus transaction would.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

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
    std::condition_variable cv_irq;
    std::thread th;
    bool stop = false;
    bool kick = false;
    std::atomic<int> host_waiting{0};
    std::atomic<uint64_t> api_ns{0};
    uint64_t next_bus = 0x10000000ull;

    void loop()
    {
        std::unique_lock<std::mutex> lk(m);
        while (!stop) {
            if (!kick && !sim->busy() && sim->bus_quiet()) {
                cv_irq.notify_all();
                cv_run.wait(lk);
                continue;
            }
            kick = false;
            for (int i = 0; i < 512; i++) {
                if (host_waiting.load(std::memory_order_relaxed)) break;
                sim->tick();
                if (!sim->busy() && sim->bus_quiet()) break;
            }
            if (sim->irq()) cv_irq.notify_all();
            if (host_waiting.load(std::memory_order_relaxed)) {
                lk.unlock();
                while (host_waiting.load(std::memory_order_relaxed)) std::this_thread::yield();
                lk.lock();
            }
        }
    }
};

namespace {
struct HostLock {
    fpgamr_vsim *v;
    std::chrono::steady_clock::time_point t0;
    std::unique_lock<std::mutex> lk;
    explicit HostLock(fpgamr_vsim *d) : v(d), t0(std::chrono::steady_clock::now())
    {
        v->host_waiting.fetch_add(1);
        lk = std::unique_lock<std::mutex>(v->m);
        v->host_waiting.fetch_sub(1);
    }
    ~HostLock()
    {
        v->kick = true;
        v->cv_run.notify_one();
        lk.unlock();
        auto dt = std::chrono::steady_clock::now() - t0;
        v->api_ns.fetch_add((uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(dt).count());
    }
};

uint64_t opt_u64(const char *opts, const char *key, uint64_t def)
{
    if (!opts) return def;
    size_t kl = strlen(key);
    for (const char *p = opts; *p;) {
        if (strncmp(p, key, kl) == 0 && p[kl] == '=') return strtoull(p + kl + 1, nullptr, 0);
        const char *c = strchr(p, ',');
        if (!c) break;
        p = c + 1;
    }
    return def;
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
    v->sim = new Md5accSim((uint32_t)opt_u64(opts, "seed", 1));
    v->sim->set_stall((int)opt_u64(opts, "stall", 0));
    v->th = std::thread([v] { v->loop(); });
    return v;
}

void fpgamr_vsim_destroy(fpgamr_vsim *v)
{
    if (!v) return;
    {
        std::lock_guard<std::mutex> g(v->m);
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
    return v->sim->reg_read(off);
}

void fpgamr_vsim_reg_write(fpgamr_vsim *v, uint32_t off, uint32_t val)
{
    HostLock h(v);
    v->sim->reg_write(off, val);
}

int fpgamr_vsim_map(fpgamr_vsim *v, void *host, uint64_t size, uint64_t *bus_addr)
{
    std::lock_guard<std::mutex> g(v->m);
    uint64_t base = v->next_bus;
    uint64_t span = (size + 4095) & ~4095ull;
    if (base + span > 0xF0000000ull) return -1;  // 32-bit bus
    v->next_bus = base + span + 4096;             // guard page
    v->sim->add_region(base, size, (uint8_t *)host);
    *bus_addr = base;
    return 0;
}

void fpgamr_vsim_unmap(fpgamr_vsim *v, uint64_t bus_addr)
{
    std::lock_guard<std::mutex> g(v->m);
    v->sim->remove_region(bus_addr);
}

void fpgamr_vsim_set_region_resp(fpgamr_vsim *v, uint64_t bus_addr, int resp)
{
    std::lock_guard<std::mutex> g(v->m);
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
            v->host_waiting.fetch_add(1);
            std::unique_lock<std::mutex> lk(v->m);
            v->host_waiting.fetch_sub(1);
            if (v->sim->irq()) return 1;
        }
        if (std::chrono::steady_clock::now() >= deadline) return 0;
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

uint64_t fpgamr_vsim_cycles(fpgamr_vsim *v)
{
    std::lock_guard<std::mutex> g(v->m);
    return v->sim->cycles();
}

uint64_t fpgamr_vsim_api_ns(fpgamr_vsim *v) { return v->api_ns.load(); }

}  // extern "C"
