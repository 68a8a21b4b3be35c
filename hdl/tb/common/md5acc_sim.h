// md5acc_sim.h: cycle-level harness around the Verilated md5acc_top.
// Provides the AXI4 memory the DMA masters talk to (regions of host memory
// at bus addresses, everything else answers DECERR, regions can be marked
// SLVERR), random back-pressure on every AXI channel, checks of the AXI
// burst rules (INCR, full bus-width beats at bus-aligned addresses, no 4 KiB
// crossing, <= 16 beats, WLAST position) and
// an AXI4-Lite master for the register block. Single-threaded: the caller
// serialises access (the vsim library wraps it with a mutex and a thread).
// The data bus width is the Verilated model's (md5acc_top's DATA_W: 128, 256
// or 512 bits; Verilator gives these ports as VlWide arrays of 32-bit words).
// Written for fpgamr; used by hdl/tb/md5acc_top and jni-fpga/native/vsim.
#ifndef MD5ACC_SIM_H
#define MD5ACC_SIM_H

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vmd5acc_top.h"
#include "verilated.h"

class Md5accSim {
public:
    // bytes per data beat of the Verilated model
    static constexpr unsigned BUS_BYTES = sizeof(((Vmd5acc_top *)nullptr)->m_axi_rdata);
    static constexpr unsigned BUS_WORDS = BUS_BYTES / 4;
    static_assert(BUS_BYTES == 16 || BUS_BYTES == 32 || BUS_BYTES == 64, "DATA_W must be 128, 256 or 512");
    static_assert(sizeof(((Vmd5acc_top *)nullptr)->m_axi_wdata) == BUS_BYTES, "read and write data widths differ");

    struct Region {
        uint64_t base;
        uint64_t size;
        uint8_t *mem;
        int resp;  // 0 OKAY, 2 SLVERR
    };

    explicit Md5accSim(uint32_t seed = 1)
        : ctx_(new VerilatedContext), rng_(seed ? seed : 1)
    {
        top_.reset(new Vmd5acc_top(ctx_.get(), "top"));
        top_->clk = 0;
        top_->rst = 1;
        idle_inputs();
        top_->eval();
        for (int i = 0; i < 4; i++) tick();
        top_->rst = 0;
        tick();
    }
    ~Md5accSim() { top_->final(); }

    // ---- memory map
    void add_region(uint64_t base, uint64_t size, uint8_t *mem, int resp = 0)
    {
        regions_.push_back(Region{base, size, mem, resp});
    }
    void remove_region(uint64_t base)
    {
        for (size_t i = 0; i < regions_.size(); i++)
            if (regions_[i].base == base) { regions_.erase(regions_.begin() + (long)i); return; }
    }
    void set_region_resp(uint64_t base, int resp)
    {
        for (auto &r : regions_) if (r.base == base) r.resp = resp;
    }
    // percent of cycles each AXI ready/valid is withheld
    void set_stall(int percent) { stall_ = percent; }
    // a memory that takes requests (AR, AW) and never answers them (no R, W
    // or B handshake): bursts the device issued can never drain, so no ABORT
    // brings it to idle (jni-fpga's vsim fault=wedge)
    void set_hang(bool on) { hang_ = on; }

    // ---- clock
    uint64_t cycles() const { return cycles_; }
    bool busy() const { return top_->busy; }
    bool irq() const { return top_->irq; }
    bool bus_quiet() const { return rd_bursts_.empty() && wr_bursts_.empty() && bq_.empty(); }
    uint64_t protocol_errors() const { return proto_err_; }
    const std::string &last_protocol_error() const { return proto_msg_; }
    uint64_t beats_read() const { return beats_read_; }
    uint64_t beats_written() const { return beats_written_; }

    void tick()
    {
        // 1. drive slave outputs for this cycle
        bool arready = !stall();
        bool awready = !stall();
        bool wready = !hang_ && !wr_bursts_.empty() && !stall();
        bool rvalid = false;
        if (!hang_ && !rd_bursts_.empty() && !stall()) {
            RdBurst &b = rd_bursts_.front();
            rvalid = true;
            uint64_t a = b.addr + (uint64_t)b.beat * BUS_BYTES;
            uint8_t buf[BUS_BYTES];
            if (b.resp == 0) read_mem(a, buf); else memset(buf, 0xEE, BUS_BYTES);
            for (unsigned i = 0; i < BUS_WORDS; i++) {
                uint32_t w;
                memcpy(&w, buf + 4 * i, 4);
                top_->m_axi_rdata[i] = w;
            }
            top_->m_axi_rresp = (uint8_t)b.resp;
            top_->m_axi_rlast = b.beat == b.len;
        }
        top_->m_axi_rvalid = rvalid;
        bool bvalid = !hang_ && !bq_.empty() && bq_.front().delay == 0 && !stall();
        top_->m_axi_bvalid = bvalid;
        top_->m_axi_bresp = bvalid ? (uint8_t)bq_.front().resp : 0;
        top_->m_axi_arready = arready;
        top_->m_axi_awready = awready;
        top_->m_axi_wready = wready;
        top_->m_axi_rid = 0;
        top_->m_axi_bid = 0;
        top_->eval();

        // 2. sample handshakes
        bool ar_fire = top_->m_axi_arvalid && arready;
        bool aw_fire = top_->m_axi_awvalid && awready;
        bool w_fire = top_->m_axi_wvalid && wready;
        bool r_fire = rvalid && top_->m_axi_rready;
        bool b_fire = bvalid && top_->m_axi_bready;
        uint64_t araddr = top_->m_axi_araddr, awaddr = top_->m_axi_awaddr;
        unsigned arlen = top_->m_axi_arlen, awlen = top_->m_axi_awlen;
        unsigned arsize = top_->m_axi_arsize, awsize = top_->m_axi_awsize;
        unsigned arburst = top_->m_axi_arburst, awburst = top_->m_axi_awburst;
        uint8_t wdata[BUS_BYTES];
        for (unsigned i = 0; i < BUS_WORDS; i++) {
            uint32_t w = top_->m_axi_wdata[i];
            memcpy(wdata + 4 * i, &w, 4);
        }
        uint64_t wstrb = top_->m_axi_wstrb;
        bool wlast = top_->m_axi_wlast;

        // 3. clock edge
        top_->clk = 1;
        top_->eval();
        top_->clk = 0;
        top_->eval();
        cycles_++;

        // 4. update the slave state
        if (ar_fire) {
            check_burst("AR", araddr, arlen, arsize, arburst);
            rd_bursts_.push_back(RdBurst{araddr, arlen, 0, burst_resp(araddr, arlen)});
        }
        if (r_fire) {
            RdBurst &b = rd_bursts_.front();
            beats_read_++;
            if (b.beat == b.len) rd_bursts_.pop_front(); else b.beat++;
        }
        if (aw_fire) {
            check_burst("AW", awaddr, awlen, awsize, awburst);
            wr_bursts_.push_back(WrBurst{awaddr, awlen, 0, burst_resp(awaddr, awlen)});
        }
        if (w_fire) {
            WrBurst &b = wr_bursts_.front();
            if (b.resp == 0) write_mem(b.addr + (uint64_t)b.beat * BUS_BYTES, wdata, wstrb);
            if (wstrb == 0) proto_error("W beat without strobes");
            beats_written_++;
            bool last = b.beat == b.len;
            if (wlast != last) proto_error("WLAST at beat " + std::to_string(b.beat) + " of " + std::to_string(b.len + 1));
            if (last) {
                bq_.push_back(BResp{b.resp, stall_ ? (int)(rnd() % 4) : 0});
                wr_bursts_.pop_front();
            } else {
                b.beat++;
            }
        }
        if (b_fire) bq_.pop_front();
        for (auto &x : bq_) if (x.delay > 0) x.delay--;
    }

    // ---- AXI4-Lite master (blocking, advances the clock)
    void reg_write(uint32_t addr, uint32_t data)
    {
        top_->s_axil_awaddr = addr;
        top_->s_axil_awvalid = 1;
        top_->s_axil_wdata = data;
        top_->s_axil_wstrb = 0xF;
        top_->s_axil_wvalid = 1;
        top_->s_axil_bready = 1;
        bool aw_done = false, w_done = false;
        for (int guard = 0; guard < 1000; guard++) {
            top_->eval();
            bool aw = top_->s_axil_awvalid && top_->s_axil_awready;
            bool w = top_->s_axil_wvalid && top_->s_axil_wready;
            tick();
            if (aw) { aw_done = true; top_->s_axil_awvalid = 0; }
            if (w) { w_done = true; top_->s_axil_wvalid = 0; }
            if (aw_done && w_done) break;
        }
        for (int guard = 0; guard < 1000; guard++) {
            top_->eval();
            bool b = top_->s_axil_bvalid;
            tick();
            if (b) break;
        }
        top_->s_axil_bready = 0;
    }
    uint32_t reg_read(uint32_t addr)
    {
        top_->s_axil_araddr = addr;
        top_->s_axil_arvalid = 1;
        top_->s_axil_rready = 1;
        for (int guard = 0; guard < 1000; guard++) {
            top_->eval();
            bool ar = top_->s_axil_arready;
            tick();
            if (ar) break;
        }
        top_->s_axil_arvalid = 0;
        uint32_t v = 0;
        for (int guard = 0; guard < 1000; guard++) {
            top_->eval();
            if (top_->s_axil_rvalid) {
                v = top_->s_axil_rdata;
                tick();
                break;
            }
            tick();
        }
        top_->s_axil_rready = 0;
        return v;
    }

private:
    struct RdBurst { uint64_t addr; unsigned len; unsigned beat; int resp; };
    struct WrBurst { uint64_t addr; unsigned len; unsigned beat; int resp; };
    struct BResp { int resp; int delay; };

    void idle_inputs()
    {
        top_->s_axil_awvalid = 0;
        top_->s_axil_wvalid = 0;
        top_->s_axil_bready = 0;
        top_->s_axil_arvalid = 0;
        top_->s_axil_rready = 0;
        top_->s_axil_awprot = 0;
        top_->s_axil_arprot = 0;
        top_->m_axi_arready = 0;
        top_->m_axi_awready = 0;
        top_->m_axi_wready = 0;
        top_->m_axi_rvalid = 0;
        top_->m_axi_bvalid = 0;
    }
    uint32_t rnd()
    {
        rng_ ^= rng_ << 13;
        rng_ ^= rng_ >> 17;
        rng_ ^= rng_ << 5;
        return rng_;
    }
    bool stall() { return stall_ > 0 && (int)(rnd() % 100) < stall_; }

    Region *find(uint64_t a, uint64_t n)
    {
        for (auto &r : regions_)
            if (a >= r.base && a + n <= r.base + r.size) return &r;
        return nullptr;
    }
    int burst_resp(uint64_t addr, unsigned len)
    {
        Region *r = find(addr, (uint64_t)(len + 1) * BUS_BYTES);
        if (!r) return 3;  // DECERR
        return r->resp;
    }
    void read_mem(uint64_t a, uint8_t *out)
    {
        Region *r = find(a, BUS_BYTES);
        if (r) memcpy(out, r->mem + (a - r->base), BUS_BYTES); else memset(out, 0xEE, BUS_BYTES);
    }
    void write_mem(uint64_t a, const uint8_t *d, uint64_t strb)
    {
        Region *r = find(a, BUS_BYTES);
        if (!r) return;
        for (unsigned i = 0; i < BUS_BYTES; i++)
            if (strb & (1ull << i)) r->mem[a - r->base + (uint64_t)i] = d[i];
    }
    void check_burst(const char *ch, uint64_t addr, unsigned len, unsigned size, unsigned burst)
    {
        if ((1u << size) != BUS_BYTES) proto_error(std::string(ch) + " size " + std::to_string(size));
        if (burst != 1) proto_error(std::string(ch) + " not INCR");
        if (addr & (BUS_BYTES - 1)) proto_error(std::string(ch) + " unaligned");
        if (len > 15) proto_error(std::string(ch) + " longer than 16 beats");
        if ((addr >> 12) != ((addr + (uint64_t)(len + 1) * BUS_BYTES - 1) >> 12))
            proto_error(std::string(ch) + " crosses a 4 KiB boundary at " + std::to_string(addr));
    }
    void proto_error(const std::string &m)
    {
        proto_err_++;
        proto_msg_ = m;
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vmd5acc_top> top_;
    std::vector<Region> regions_;
    std::deque<RdBurst> rd_bursts_;
    std::deque<WrBurst> wr_bursts_;
    std::deque<BResp> bq_;
    uint32_t rng_;
    int stall_ = 0;
    bool hang_ = false;
    uint64_t cycles_ = 0;
    uint64_t proto_err_ = 0;
    std::string proto_msg_;
    uint64_t beats_read_ = 0;
    uint64_t beats_written_ = 0;
};

#endif
