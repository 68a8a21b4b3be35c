// tb_md5acc_top: Verilator test bench for the whole accelerator (md5acc_top)
// with the Md5accSim AXI memory model: register contract, hash path for every
// width with back-pressure and page crossings, zero-length and 2^18-value
// batches, search path with planted targets, the match ring (every value a
// hit, drained by the host on MATCH interrupts, masking), abort, and the
// error paths (DECERR/SLVERR -> ERROR + IRQ, bad width, bad alignment), and
// the rates: search NPIPE digests per clock, hash min(NPIPE, DATA_W/128)
// digests per clock sustained over back-to-back 2^18 batches (4- and 8-byte
// message slots). Any DATA_W (128, 256, 512): the bus width comes from
// DESIGN_PARAMS.LOG2_BUS_BYTES and must match the Verilated ports.
// Expected digests come from OpenSSL's MD5 (jni-fpga/native/tests/testing.h,
// the reference and CHECK of the driver's C tests).
// Prints "N passed, M failed"; exit status 1 on any failure.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

#include "fpgamr_regs.h"
#include "testing.h"
#include "md5acc_sim.h"

static const uint64_t MEM_BASE = 0x10000000;
static const uint64_t MEM_SIZE = 32u << 20;
static std::vector<uint8_t> mem(MEM_SIZE);
static unsigned npipe;
static unsigned bus_bytes;   // bytes per AXI data beat
static unsigned hash_rate;   // digests per clock of the hash path: min(npipe, bus_bytes / 16)

struct Job {
    int op = 0, width = 4;
    uint64_t start = 0, count = 0, src = 0, dst = 0;
    uint32_t cap = 0;
};
struct Result {
    uint32_t status, irq_sts, match_count;
    uint64_t done, cycles, err_addr;
    bool irq_line;
};

static void w64(Md5accSim &s, uint32_t lo, uint64_t v)
{
    s.reg_write(lo, (uint32_t)v);
    s.reg_write(lo + 4, (uint32_t)(v >> 32));
}
static uint64_t r64(Md5accSim &s, uint32_t lo)
{
    uint64_t l = s.reg_read(lo);
    return l | (uint64_t)s.reg_read(lo + 4) << 32;
}

static void launch(Md5accSim &s, const Job &j, uint32_t irq_enable = 3)
{
    s.reg_write(FPGAMR_REG_MODE, (uint32_t)j.op | (uint32_t)j.width << FPGAMR_MODE_WIDTH_SHIFT);
    w64(s, FPGAMR_REG_START_LO, j.start);
    w64(s, FPGAMR_REG_COUNT_LO, j.count);
    w64(s, FPGAMR_REG_SRC_LO, j.src);
    w64(s, FPGAMR_REG_DST_LO, j.dst);
    s.reg_write(FPGAMR_REG_MATCH_CAP, j.cap);
    s.reg_write(FPGAMR_REG_IRQ_ENABLE, irq_enable);
    s.reg_write(FPGAMR_REG_CTRL, FPGAMR_CTRL_START_MASK);
}
static Result finish(Md5accSim &s, uint64_t guard = 50000000)
{
    for (uint64_t i = 0; i < guard && (s.busy() || !s.irq()); i++) s.tick();
    Result r;
    r.irq_line = s.irq();
    r.status = s.reg_read(FPGAMR_REG_STATUS);
    r.irq_sts = s.reg_read(FPGAMR_REG_IRQ_STATUS);
    r.match_count = s.reg_read(FPGAMR_REG_MATCH_COUNT);
    r.done = r64(s, FPGAMR_REG_DONE_LO);
    r.cycles = r64(s, FPGAMR_REG_CYCLES_LO);
    r.err_addr = r64(s, FPGAMR_REG_ERR_ADDR_LO);
    s.reg_write(FPGAMR_REG_IRQ_STATUS, r.irq_sts);
    for (int i = 0; i < 200 && !s.bus_quiet(); i++) s.tick();
    return r;
}
static Result run(Md5accSim &s, const Job &j)
{
    launch(s, j);
    return finish(s);
}
static uint8_t *at(uint64_t bus) { return &mem[bus - MEM_BASE]; }
static unsigned slot_bytes(int w) { return w > 4 ? 8 : 4; }

static void fill_messages(uint64_t src, uint64_t first, uint64_t count, int w, uint32_t junk_seed)
{
    unsigned sb = slot_bytes(w);
    uint32_t x = junk_seed | 1;
    for (uint64_t i = 0; i < count; i++) {
        uint8_t *p = at(src + i * sb);
        for (unsigned k = 0; k < sb; k++) {  // junk past the width must be ignored
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            p[k] = (uint8_t)x;
        }
        uint64_t v = first + i;
        for (int k = 0; k < w; k++) p[k] = (uint8_t)(v >> (8 * (w - 1 - k)));
    }
}
static uint64_t check_digests(uint64_t dst, uint64_t first, uint64_t count, int w)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint8_t d[16];
        ref_value(first + i, w, d);
        if (memcmp(d, at(dst + 16 * i), 16) != 0) {
            if (bad < 3) printf("  digest %llu (value %llx, width %d) wrong\n", (unsigned long long)i,
                                (unsigned long long)(first + i), w);
            bad++;
        }
    }
    return bad;
}

static void set_filter(Md5accSim &s, const std::vector<std::vector<uint8_t>> &digests, bool all_ones = false)
{
    std::vector<uint32_t> words(2 * FPGAMR_FILTER_WORDS, all_ones ? 0xFFFFFFFFu : 0u);
    for (auto &d : digests)
        for (int a = 0; a < 2; a++) {
            uint32_t w;
            memcpy(&w, &d[4 * a], 4);
            uint32_t idx = w & ((1u << FPGAMR_FILTER_IDX_BITS) - 1);
            words[a * FPGAMR_FILTER_WORDS + idx / 32] |= 1u << (idx % 32);
        }
    s.reg_write(FPGAMR_REG_FILTER_ADDR, 0);
    for (uint32_t w : words) s.reg_write(FPGAMR_REG_FILTER_DATA, w);
}

struct Rec { uint64_t value; uint8_t digest[16]; };
static std::vector<Rec> records(uint64_t dst, uint64_t n)
{
    std::vector<Rec> v;
    for (uint64_t i = 0; i < n; i++) {
        Rec r;
        memcpy(&r.value, at(dst + 32 * i), 8);
        memcpy(r.digest, at(dst + 32 * i + 16), 16);
        v.push_back(r);
    }
    return v;
}

// Runs a search job while draining its match ring the way the driver does:
// on each interrupt read MATCH_COUNT, take the new records (record i at
// dst + 32 * (i % cap)), write MATCH_ACK, clear IRQ_STATUS.MATCH. The host
// answers 300 clocks late, so the device fills the ring and waits.
static Result run_ring(Md5accSim &s, const Job &j, std::vector<Rec> &out, bool &saw_full)
{
    uint64_t consumed = 0;
    auto drain = [&](uint64_t upto) {
        for (; consumed < upto; consumed++) {
            Rec r;
            uint64_t a = j.dst + 32 * (consumed % j.cap);
            memcpy(&r.value, at(a), 8);
            memcpy(r.digest, at(a + 16), 16);
            out.push_back(r);
        }
    };
    launch(s, j, 7);
    for (uint64_t guard = 0; guard < 50000000; guard++) {
        s.tick();
        if (!s.irq()) continue;
        uint32_t sts = s.reg_read(FPGAMR_REG_IRQ_STATUS);
        if (sts & (FPGAMR_IRQ_STATUS_DONE_MASK | FPGAMR_IRQ_STATUS_ERROR_MASK)) break;
        for (int i = 0; i < 300; i++) s.tick();
        if (s.reg_read(FPGAMR_REG_STATUS) & FPGAMR_STATUS_MATCH_FULL_MASK) saw_full = true;
        drain(s.reg_read(FPGAMR_REG_MATCH_COUNT));
        s.reg_write(FPGAMR_REG_MATCH_ACK, (uint32_t)consumed);
        s.reg_write(FPGAMR_REG_IRQ_STATUS, FPGAMR_IRQ_STATUS_MATCH_MASK);
    }
    Result r = finish(s);
    drain(r.match_count);
    return r;
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    bool quick = argc > 1 && std::string(argv[1]) == "quick";
    Md5accSim s(12345);
    s.add_region(MEM_BASE, MEM_SIZE, mem.data());

    // ---- register contract
    CHECK(s.reg_read(FPGAMR_REG_DESIGN_ID) == 0x4D443541u, "design id %08x", s.reg_read(FPGAMR_REG_DESIGN_ID));
    CHECK(s.reg_read(FPGAMR_REG_REGMAP_VERSION) == FPGAMR_REGMAP_VERSION, "version");
    uint32_t params = s.reg_read(FPGAMR_REG_DESIGN_PARAMS);
    npipe = params & FPGAMR_DESIGN_PARAMS_PIPELINES_MASK;
    CHECK(npipe >= 1 && (params & FPGAMR_DESIGN_PARAMS_MODE_HASH_MASK) && (params & FPGAMR_DESIGN_PARAMS_MODE_SEARCH_MASK),
          "params %08x", params);
    bus_bytes = 1u << ((params & FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_MASK) >> FPGAMR_DESIGN_PARAMS_LOG2_BUS_BYTES_SHIFT);
    CHECK(bus_bytes == Md5accSim::BUS_BYTES, "LOG2_BUS_BYTES says %u bytes, the ports have %u", bus_bytes,
          Md5accSim::BUS_BYTES);
    hash_rate = npipe < bus_bytes / 16 ? npipe : bus_bytes / 16;
    printf("tb_md5acc_top: %u pipeline(s), %u-bit data bus, params %08x\n", npipe, 8 * bus_bytes, params);
    s.reg_write(FPGAMR_REG_SCRATCH, 0xA5A5F00Du);
    CHECK(s.reg_read(FPGAMR_REG_SCRATCH) == 0xA5A5F00Du, "scratch");
    s.reg_write(FPGAMR_REG_DESIGN_ID, 0);
    CHECK(s.reg_read(FPGAMR_REG_DESIGN_ID) == 0x4D443541u, "design id is read-only");

    // ---- hash path, every width, back-pressure, page crossings, partial last beat
    s.set_stall(25);
    for (int w = 1; w <= 8; w++) {
        Job j;
        j.op = FPGAMR_OP_HASH;
        j.width = w;
        j.count = 1000 + 37 * (uint64_t)w;                 // not a multiple of anything useful
        j.src = MEM_BASE + 0x1000 * w + 0x1000 - bus_bytes;                  // first beat right before a page end
        j.dst = MEM_BASE + 0x100000 + 0x10000 * w + 0x1000 - 3 * bus_bytes;  // bursts split at page ends
        uint64_t first = 0x0123456789ull * (uint64_t)w;
        fill_messages(j.src, first, j.count, w, 77u * (uint32_t)w);
        memset(at(j.dst), 0, j.count * 16 + 64);
        Result r = run(s, j);
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK, "w%d status %08x", w, r.status);
        CHECK(r.irq_line && r.irq_sts == FPGAMR_IRQ_STATUS_DONE_MASK, "w%d irq %d sts %x", w, r.irq_line, r.irq_sts);
        CHECK(r.done == j.count, "w%d done %llu", w, (unsigned long long)r.done);
        CHECK(check_digests(j.dst, first, j.count, w) == 0, "w%d digests", w);
        uint8_t z[16] = {0};
        CHECK(memcmp(at(j.dst + 16 * j.count), z, 16) == 0, "w%d wrote past the end", w);
        CHECK(!s.irq(), "irq cleared by W1C");
    }
    CHECK(s.protocol_errors() == 0, "AXI protocol: %s", s.last_protocol_error().c_str());
    // thesis example: MD5(00 00 01 23)
    {
        Job j;
        j.op = FPGAMR_OP_HASH; j.width = 4; j.count = 1;
        j.src = MEM_BASE; j.dst = MEM_BASE + 0x4000;
        uint8_t m[4] = {0, 0, 1, 0x23};
        memcpy(at(j.src), m, 4);
        Result r = run(s, j);
        static const uint8_t want[16] = {0x09, 0x68, 0x22, 0x47, 0x5d, 0xd5, 0x17, 0xc1,
                                         0x08, 0x9f, 0x4b, 0x58, 0xc7, 0xf3, 0x46, 0xef};
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK && memcmp(at(j.dst), want, 16) == 0, "MD5(00000123): status %08x done %llu, %02x%02x%02x%02x",
              r.status, (unsigned long long)r.done, at(j.dst)[0], at(j.dst)[1], at(j.dst)[2], at(j.dst)[3]);
    }

    // ---- zero-length batch
    {
        Job j;
        j.op = FPGAMR_OP_HASH; j.count = 0; j.src = MEM_BASE; j.dst = MEM_BASE + 0x4000;
        Result r = run(s, j);
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK && r.done == 0 && r.irq_line, "zero-length hash %08x", r.status);
        j.op = FPGAMR_OP_SEARCH;
        j.cap = 1;
        r = run(s, j);
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK && r.done == 0 && r.match_count == 0, "zero-length search");
    }

    // ---- search path with planted targets, stalls
    {
        Job j;
        j.op = FPGAMR_OP_SEARCH; j.width = 5;
        j.start = 0x12345600ull; j.count = 3001;
        j.dst = MEM_BASE + 0x200000; j.cap = 1024;
        std::vector<uint64_t> planted = {j.start, j.start + 1, j.start + 1500, j.start + 3000};
        std::vector<std::vector<uint8_t>> tg;
        for (uint64_t v : planted) { std::vector<uint8_t> d(16); ref_value(v, 5, d.data()); tg.push_back(d); }
        { std::vector<uint8_t> d(16); ref_value(j.start + 3001, 5, d.data()); tg.push_back(d); }  // outside
        set_filter(s, tg);
        Result r = run(s, j);
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK, "search status %08x", r.status);
        CHECK(r.done == j.count, "search done %llu", (unsigned long long)r.done);
        auto recs = records(j.dst, r.match_count);
        std::set<uint64_t> found;
        bool digests_ok = true;
        for (auto &x : recs) {
            uint8_t d[16];
            ref_value(x.value, 5, d);
            if (memcmp(d, x.digest, 16)) digests_ok = false;
            found.insert(x.value);
        }
        CHECK(digests_ok, "match record digests");
        for (uint64_t v : planted) CHECK(found.count(v) == 1, "planted %llx found", (unsigned long long)v);
        CHECK(found.count(j.start + 3001) == 0, "value outside the range not reported");
        CHECK(r.match_count >= planted.size() && r.match_count < planted.size() + 4, "match count %u", r.match_count);
    }

    // ---- match ring: every value hits; a ring of 16 records drained on MATCH
    // interrupts delivers all of them, once each, and nothing outside the ring
    {
        Job j;
        j.op = FPGAMR_OP_SEARCH; j.width = 4; j.start = 1003; j.count = 1000;
        j.dst = MEM_BASE + 0x300000; j.cap = 16;
        memset(at(j.dst), 0xAB, 32 * 18);
        set_filter(s, {}, true);
        std::vector<Rec> recs;
        bool saw_full = false;
        Result r = run_ring(s, j, recs, saw_full);
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK, "ring status %08x", r.status);
        CHECK(r.match_count == 1000 && r.done == 1000 && recs.size() == 1000, "ring counts %u %llu %zu",
              r.match_count, (unsigned long long)r.done, recs.size());
        std::set<uint64_t> vals;
        bool digests_ok = true;
        for (auto &x : recs) {
            uint8_t d[16];
            ref_value(x.value, 4, d);
            digests_ok &= memcmp(d, x.digest, 16) == 0;
            vals.insert(x.value);
        }
        CHECK(vals.size() == 1000 && *vals.begin() == 1003 && *vals.rbegin() == 2002, "every value once");
        CHECK(digests_ok, "ring record digests");
        CHECK(saw_full, "the device waited for the host (STATUS.MATCH_FULL)");
        CHECK(at(j.dst + 32 * 16)[0] == 0xAB, "nothing written past the ring");
    }
    // ---- interrupt masking: MATCH pending but disabled keeps the line low;
    // the device waits with a full ring until the host acknowledges
    {
        Job j;
        j.op = FPGAMR_OP_SEARCH; j.width = 4; j.start = 0; j.count = 200;
        j.dst = MEM_BASE + 0x300000; j.cap = 8;
        launch(s, j, 3);
        for (int i = 0; i < 2000; i++) s.tick();
        uint32_t st = s.reg_read(FPGAMR_REG_STATUS);
        CHECK((st & FPGAMR_STATUS_BUSY_MASK) && (st & FPGAMR_STATUS_MATCH_FULL_MASK), "waiting on a full ring %08x", st);
        CHECK(s.reg_read(FPGAMR_REG_IRQ_STATUS) == FPGAMR_IRQ_STATUS_MATCH_MASK && !s.irq(), "MATCH masked");
        CHECK(s.reg_read(FPGAMR_REG_MATCH_COUNT) == 8, "8 records in the ring");
        s.reg_write(FPGAMR_REG_IRQ_ENABLE, 7);
        s.tick();
        CHECK(s.irq(), "MATCH enabled: the line rises");
        uint32_t acked = 0;
        for (int round = 0; round < 1000 && s.busy(); round++) {
            acked = s.reg_read(FPGAMR_REG_MATCH_COUNT);
            s.reg_write(FPGAMR_REG_MATCH_ACK, acked);
            for (int i = 0; i < 50; i++) s.tick();
        }
        Result r = finish(s);
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK && r.match_count == 200 && r.done == 200, "masked ring job %08x %u",
              r.status, r.match_count);
    }

    // ---- error paths
    s.set_stall(10);
    {
        Job j;  // read from an unmapped address: DECERR
        j.op = FPGAMR_OP_HASH; j.width = 4; j.count = 500;
        j.src = 0x40000000; j.dst = MEM_BASE + 0x4000;
        Result r = run(s, j);
        CHECK((r.status & FPGAMR_STATUS_ERROR_MASK) && ((r.status & FPGAMR_STATUS_ERR_CODE_MASK) >> FPGAMR_STATUS_ERR_CODE_SHIFT) == FPGAMR_ERR_READ_RESP,
              "DECERR read status %08x", r.status);
        CHECK(r.irq_line && r.irq_sts == FPGAMR_IRQ_STATUS_ERROR_MASK, "error irq");
        CHECK(r.err_addr == 0x40000000, "err addr %llx", (unsigned long long)r.err_addr);
        CHECK(s.reg_read(FPGAMR_REG_ERR_ADDR_LO - FPGAMR_KERNEL_PAGE) == 0 &&
                  s.reg_read(FPGAMR_REG_ERR_ADDR_HI - FPGAMR_KERNEL_PAGE) == 0,
              "the user page shows no bus address (3.2: ERR_ADDR only on the kernel page)");
        CHECK(r.done < j.count, "done %llu", (unsigned long long)r.done);
        Job q;  // a search right after a read error starts clean
        q.op = FPGAMR_OP_SEARCH; q.width = 4; q.count = 64; q.dst = MEM_BASE + 0x300000; q.cap = 8;
        set_filter(s, {});
        r = run(s, q);
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK && r.done == 64, "search after a read error %08x", r.status);
    }
    {
        // write into a buffer whose second half answers SLVERR: error mid-batch
        static std::vector<uint8_t> bad(0x8000);
        uint64_t bad_base = 0x20000000;
        s.add_region(bad_base, 0x4000, bad.data());
        s.add_region(bad_base + 0x4000, 0x4000, bad.data() + 0x4000, 2);
        Job j;
        j.op = FPGAMR_OP_HASH; j.width = 6; j.count = 2048;
        j.src = MEM_BASE + 0x10000; j.dst = bad_base;
        fill_messages(j.src, 5, j.count, 6, 3);
        Result r = run(s, j);
        CHECK((r.status & FPGAMR_STATUS_ERROR_MASK) && ((r.status & FPGAMR_STATUS_ERR_CODE_MASK) >> FPGAMR_STATUS_ERR_CODE_SHIFT) == FPGAMR_ERR_WRITE_RESP,
              "SLVERR write status %08x", r.status);
        CHECK(r.err_addr >= bad_base + 0x4000 && r.err_addr < bad_base + 0x8000, "err addr %llx", (unsigned long long)r.err_addr);
        CHECK(r.done >= 0x4000 / 16 && r.done < j.count, "done %llu", (unsigned long long)r.done);
        uint64_t okbad = 0;
        for (uint64_t i = 0; i < 0x4000 / 16; i++) {
            uint8_t d[16];
            ref_value(5 + i, 6, d);
            if (memcmp(d, &bad[16 * i], 16)) okbad++;
        }
        CHECK(okbad == 0, "digests before the error are right");
        s.remove_region(bad_base);
        s.remove_region(bad_base + 0x4000);
    }
    {
        Job j;  // bad width, bad alignment
        j.op = FPGAMR_OP_SEARCH; j.width = 9; j.count = 10; j.dst = MEM_BASE; j.cap = 4;
        Result r = run(s, j);
        CHECK(r.status == (FPGAMR_STATUS_DONE_MASK | FPGAMR_STATUS_ERROR_MASK | (FPGAMR_ERR_BAD_WIDTH << FPGAMR_STATUS_ERR_CODE_SHIFT)),
              "bad width %08x", r.status);
        j.width = 4; j.dst = MEM_BASE + 16;
        r = run(s, j);
        CHECK(r.status == (FPGAMR_STATUS_DONE_MASK | FPGAMR_STATUS_ERROR_MASK | (FPGAMR_ERR_BAD_ALIGN << FPGAMR_STATUS_ERR_CODE_SHIFT)),
              "bad align %08x", r.status);
        CHECK(r.irq_sts == FPGAMR_IRQ_STATUS_ERROR_MASK, "bad config irq");
        j.dst = MEM_BASE; j.cap = 0;
        r = run(s, j);
        CHECK(r.status == (FPGAMR_STATUS_DONE_MASK | FPGAMR_STATUS_ERROR_MASK | (FPGAMR_ERR_BAD_CAP << FPGAMR_STATUS_ERR_CODE_SHIFT)),
              "search without a ring %08x", r.status);
        j.op = FPGAMR_OP_HASH; j.src = MEM_BASE; j.dst = MEM_BASE + 0x4000 + bus_bytes / 2;  // not bus aligned
        r = run(s, j);
        CHECK(r.status == (FPGAMR_STATUS_DONE_MASK | FPGAMR_STATUS_ERROR_MASK | (FPGAMR_ERR_BAD_ALIGN << FPGAMR_STATUS_ERR_CODE_SHIFT)),
              "hash dst bad align %08x", r.status);
        j.src = MEM_BASE + bus_bytes / 2; j.dst = MEM_BASE + 0x4000;
        r = run(s, j);
        CHECK(r.status == (FPGAMR_STATUS_DONE_MASK | FPGAMR_STATUS_ERROR_MASK | (FPGAMR_ERR_BAD_ALIGN << FPGAMR_STATUS_ERR_CODE_SHIFT)),
              "hash src bad align %08x", r.status);
    }

    // ---- abort mid-batch (search and hash), then a normal job still works
    {
        Job j;
        j.op = FPGAMR_OP_SEARCH; j.width = 4; j.start = 0; j.count = 1u << 20;
        j.dst = MEM_BASE + 0x300000; j.cap = 64;
        std::vector<std::vector<uint8_t>> tg(1, std::vector<uint8_t>(16));
        ref_value(0x123, 4, tg[0].data());
        set_filter(s, tg);
        launch(s, j);
        for (int i = 0; i < 3000; i++) s.tick();
        s.reg_write(FPGAMR_REG_CTRL, FPGAMR_CTRL_ABORT_MASK);
        Result r = finish(s);
        CHECK(r.status == (FPGAMR_STATUS_DONE_MASK | FPGAMR_STATUS_ABORTED_MASK), "abort status %08x", r.status);
        CHECK(r.done > 0x123 && r.done < j.count, "abort done %llu", (unsigned long long)r.done);
        auto recs = records(j.dst, r.match_count);
        bool f = false;
        for (auto &x : recs) f |= x.value == 0x123;
        CHECK(f, "target before the abort point found");

        Job h;
        h.op = FPGAMR_OP_HASH; h.width = 4; h.count = 20000;
        h.src = MEM_BASE + 0x400000; h.dst = MEM_BASE + 0x800000;
        fill_messages(h.src, 0, h.count, 4, 9);
        launch(s, h);
        for (int i = 0; i < 4000; i++) s.tick();
        s.reg_write(FPGAMR_REG_CTRL, FPGAMR_CTRL_ABORT_MASK);
        r = finish(s);
        CHECK(r.status == (FPGAMR_STATUS_DONE_MASK | FPGAMR_STATUS_ABORTED_MASK), "hash abort status %08x", r.status);
        CHECK(r.done > 0 && r.done < h.count, "hash abort done %llu", (unsigned long long)r.done);
        CHECK(check_digests(h.dst, 0, r.done, 4) == 0, "digests up to the abort point");

        h.count = 300;
        memset(at(h.dst), 0, 300 * 16);
        r = run(s, h);
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK && r.done == 300 && check_digests(h.dst, 0, 300, 4) == 0,
              "normal job after abort/error");
    }
    CHECK(s.protocol_errors() == 0, "AXI protocol: %s", s.last_protocol_error().c_str());

    // ---- full 2^18 batches without stalls: throughput
    s.set_stall(0);
    {
        Job j;
        j.op = FPGAMR_OP_SEARCH; j.width = 4; j.start = 0; j.count = 1u << 18;
        j.dst = MEM_BASE + 0x300000; j.cap = 64;
        std::vector<std::vector<uint8_t>> tg(1, std::vector<uint8_t>(16));
        ref_value(0x123, 4, tg[0].data());
        set_filter(s, tg);
        Result r = run(s, j);
        auto recs = records(j.dst, r.match_count);
        bool f = false;
        for (auto &x : recs) f |= x.value == 0x123;
        CHECK(r.status == FPGAMR_STATUS_DONE_MASK && r.done == j.count && f, "2^18 search");
        double dpc = (double)j.count / (double)r.cycles;
        printf("search 2^18 values: %llu cycles, %.3f digests/clock (%u pipelines)\n",
               (unsigned long long)r.cycles, dpc, npipe);
        CHECK(r.cycles <= j.count / npipe + 100, "search rate %.3f/clock", dpc);
    }
    if (!quick) {
        // back-to-back 2^18 batches (4-, 8-, 4-byte slots, different buffers),
        // the next launched as soon as the previous one is done
        const uint64_t n = 1u << 18;
        const int widths[3] = {4, 8, 5};
        const uint64_t src[3] = {MEM_BASE, MEM_BASE + 0x500000, MEM_BASE + 0x700000};
        const uint64_t dst[3] = {MEM_BASE + 0x100000, MEM_BASE + 0x900000, MEM_BASE + 0xD00000};
        for (int b = 0; b < 3; b++) fill_messages(src[b], 1000000ull * (uint64_t)b, n, widths[b], 1 + (uint32_t)b);
        // a group of hash lanes never spans two read beats: for an NPIPE that is
        // not a power of two the last group of a beat is short
        auto want_cycles = [&](int w) {
            uint64_t mpb = bus_bytes / slot_bytes(w), groups = (mpb + hash_rate - 1) / hash_rate;
            return n / mpb * groups;
        };
        uint64_t c0 = s.cycles(), sum = 0, want_sum = 0;
        for (int b = 0; b < 3; b++) {
            Job j;
            j.op = FPGAMR_OP_HASH; j.width = widths[b]; j.count = n; j.src = src[b]; j.dst = dst[b];
            Result r = run(s, j);
            sum += r.cycles;
            CHECK(r.status == FPGAMR_STATUS_DONE_MASK && r.done == n, "2^18 hash batch %d status %08x done %llu", b,
                  r.status, (unsigned long long)r.done);
            printf("hash 2^18 messages (%d-byte slots): %llu cycles, %.3f digests/clock (%u pipelines, %u-bit bus)\n",
                   widths[b] > 4 ? 8 : 4, (unsigned long long)r.cycles, (double)n / (double)r.cycles, npipe,
                   8 * bus_bytes);
            want_sum += want_cycles(widths[b]);
            CHECK(r.cycles <= want_cycles(widths[b]) + 200, "hash rate %.3f/clock, want %.3f", (double)n / (double)r.cycles,
                  (double)n / (double)want_cycles(widths[b]));
        }
        uint64_t wall = s.cycles() - c0;
        printf("hash 3 x 2^18 back to back: %llu device cycles, %llu clocks with the register traffic, %.3f digests/clock\n",
               (unsigned long long)sum, (unsigned long long)wall, 3.0 * (double)n / (double)wall);
        CHECK(wall <= want_sum + 3 * 200 + 3 * 400, "sustained hash rate %.3f/clock", 3.0 * (double)n / (double)wall);
        for (int b = 0; b < 3; b++)
            CHECK(check_digests(dst[b], 1000000ull * (uint64_t)b, n, widths[b]) == 0, "2^18 hash batch %d digests", b);
    }
    CHECK(s.protocol_errors() == 0, "AXI protocol: %s", s.last_protocol_error().c_str());
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
