"""md5acc_regfile through cocotbext-axi's AXI4-Lite master with random pauses
on all five channels: identity registers, read/write configuration, read-only
registers, CTRL/FILTER_DATA/IRQ strobes, MATCH_ACK cleared at a job start,
status read back, unmapped addresses, the two pages of register map 3 (the
job's registers and ERR_ADDR answer only on the kernel page: their user-page
offsets and the user registers' kernel-page aliases read zero and ignore
writes), and
interleaved reads and writes."""
import ast
import os
import random
import re

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge, ReadOnly
from cocotbext.axi import AxiLiteBus, AxiLiteMaster

from benchlib import pauses, start

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
HDR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "jni-fpga", "native", "include",
                   "fpgamr_regs.h")
R = {m.group(1): int(m.group(2), 16) for m in re.finditer(r"#define FPGAMR_REG_(\w+) 0x([0-9A-F]+)u", open(HDR).read())}
CONST = {m.group(1): int(m.group(2), 0) for m in re.finditer(r"#define FPGAMR_(\w+) (0x[0-9A-F]+|\d+)u", open(HDR).read())}


def master(dut, seed):
    m = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
    for i, ch in enumerate((m.write_if.aw_channel, m.write_if.w_channel, m.write_if.b_channel,
                            m.read_if.ar_channel, m.read_if.r_channel)):
        ch.set_pause_generator(pauses(seed + i, 30))
    return m


async def rd(m, reg):
    return int.from_bytes((await m.read(R[reg], 4)).data, "little")


async def wr(m, reg, v):
    await m.write(R[reg], (v & 0xFFFFFFFF).to_bytes(4, "little"))


class Strobes:
    """Counts the one-clock strobes and records what came with them."""
    def __init__(self, dut):
        self.start = self.abort = self.irq_clear = self.irq_enable = 0
        self.filter = []
        cocotb.start_soon(self.watch(dut))

    async def watch(self, dut):
        while True:
            await RisingEdge(dut.clk)
            await ReadOnly()
            self.start += int(dut.start_req.value)
            self.abort += int(dut.abort_req.value)
            self.irq_clear += int(dut.irq_clear.value)
            self.irq_enable += int(dut.irq_enable_we.value)
            if dut.filter_we.value:
                self.filter.append((int(dut.filter_array.value), int(dut.filter_word.value), int(dut.wr_data.value)))


@cocotb.test()
async def registers(dut):
    for s in ("status", "irq_status", "irq_enable", "match_count", "values_done", "cycles", "err_addr", "job_start", "jobs_started"):
        getattr(dut, s).value = 0
    await start(dut)
    m = master(dut, 1)
    st = Strobes(dut)
    assert await rd(m, "DESIGN_ID") == CONST["DESIGN_ID"]
    assert await rd(m, "REGMAP_VERSION") == CONST["REGMAP_VERSION"]
    assert await rd(m, "DESIGN_PARAMS") == P["DESIGN_PARAMS_VALUE"]
    assert await rd(m, "CLOCK_KHZ") == P["CLOCK_KHZ"]
    await wr(m, "DESIGN_ID", 0)
    assert await rd(m, "DESIGN_ID") == CONST["DESIGN_ID"], "read-only"
    assert await rd(m, "MODE") == 4 << 8, "reset MODE: width 4, hash"

    # configuration registers: written, read back, on the outputs
    cfg = {"START": 0x0123456789ABCDEF, "COUNT": 0x40000, "SRC": 0x1000_0000, "DST": 0x2000_0040}
    for name, v in cfg.items():
        await wr(m, name + "_LO", v)
        await wr(m, name + "_HI", v >> 32)
    await wr(m, "MODE", 1 | 5 << 8)
    await wr(m, "MATCH_CAP", 4096)
    await wr(m, "MATCH_ACK", 77)
    for name, v in cfg.items():
        assert (await rd(m, name + "_HI")) << 32 | await rd(m, name + "_LO") == v, name
        assert int(getattr(dut, "cfg_" + name.lower()).value) == v, name
    assert int(dut.cfg_op.value) == 1 and int(dut.cfg_width.value) == 5
    assert int(dut.cfg_cap.value) == 4096 and await rd(m, "MATCH_ACK") == 77

    # status read back
    dut.status.value = 0x0000_0312
    dut.match_count.value = 12345
    dut.values_done.value = 0x1_0000_0002
    dut.cycles.value = 0x2_0000_0003
    dut.irq_status.value = 0b101
    dut.irq_enable.value = 0b011
    assert await rd(m, "STATUS") == 0x0312
    assert await rd(m, "MATCH_COUNT") == 12345
    assert (await rd(m, "DONE_LO"), await rd(m, "DONE_HI")) == (2, 1)
    assert (await rd(m, "CYCLES_LO"), await rd(m, "CYCLES_HI")) == (3, 2)
    dut.err_addr.value = 0x0000_0007_3000_0040
    assert (await rd(m, "ERR_ADDR_LO"), await rd(m, "ERR_ADDR_HI")) == (0x3000_0040, 7)
    assert (await rd(m, "IRQ_STATUS"), await rd(m, "IRQ_ENABLE")) == (0b101, 0b011)
    assert await rd(m, "CTRL") == 0 and int.from_bytes((await m.read(0xFFC, 4)).data, "little") == 0, "unmapped"
    dut.jobs_started.value = 0xC0FFEE01
    assert await rd(m, "JOBS_STARTED") == 0xC0FFEE01

    # register map 3: the job's registers live on the kernel page only
    page = CONST["KERNEL_PAGE"]
    assert page == 0x1000 and all(R[r] & page for r in ("CTRL", "MODE", "START_LO", "COUNT_LO", "COUNT_HI", "SRC_LO",
                                                         "SRC_HI", "DST_LO", "DST_HI", "MATCH_CAP"))
    assert not any(R[r] & page for r in ("STATUS", "IRQ_STATUS", "MATCH_ACK", "FILTER_DATA", "JOBS_STARTED"))
    for r in ("MODE", "COUNT_LO", "SRC_LO", "DST_LO", "MATCH_CAP"):
        user_alias = R[r] - page
        assert int.from_bytes((await m.read(user_alias, 4)).data, "little") == 0, r
        await m.write(user_alias, (0x5A5A5A40).to_bytes(4, "little"))
    assert int(dut.cfg_src.value) == cfg["SRC"] and int(dut.cfg_dst.value) == cfg["DST"], "user-page writes ignored"
    assert int(dut.cfg_count.value) == cfg["COUNT"] and int(dut.cfg_cap.value) == 4096
    assert int.from_bytes((await m.read(page + R["STATUS"], 4)).data, "little") == 0, "no user register on the kernel page"
    # 3.2: a failing burst's bus address only on the kernel page; its 3.1 offsets on the user page read 0
    assert all(R[r] & page for r in ("ERR_ADDR_LO", "ERR_ADDR_HI"))
    for r in ("ERR_ADDR_LO", "ERR_ADDR_HI"):
        assert int.from_bytes((await m.read(R[r] - page, 4)).data, "little") == 0, r
    assert int.from_bytes((await m.read(page + 0x80 + (R["SRC_LO"] - page), 4)).data, "little") == 0, "no alias past 0x7C"

    # strobes
    await m.write(R["CTRL"] - page, (1).to_bytes(4, "little"))  # the user page has no CTRL
    await wr(m, "CTRL", 1)
    await wr(m, "CTRL", 2)
    await wr(m, "IRQ_STATUS", 0b100)
    await wr(m, "IRQ_ENABLE", 0b111)
    await wr(m, "FILTER_ADDR", 510)
    for k in range(4):
        await wr(m, "FILTER_DATA", 0xA0 + k)
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    assert (st.start, st.abort, st.irq_clear, st.irq_enable) == (1, 1, 1, 1)
    assert st.filter == [(0, 510, 0xA0), (0, 511, 0xA1), (1, 0, 0xA2), (1, 1, 0xA3)], st.filter
    assert await rd(m, "FILTER_ADDR") == 514

    # a job start clears MATCH_ACK
    await FallingEdge(dut.clk)
    dut.job_start.value = 1
    await FallingEdge(dut.clk)
    dut.job_start.value = 0
    assert await rd(m, "MATCH_ACK") == 0


@cocotb.test()
async def interleaved_random(dut):
    """Reads and writes issued together, every channel pausing at random."""
    await start(dut)
    m = master(dut, 7)
    rng = random.Random(3)
    regs = ["SCRATCH", "START_LO", "START_HI", "COUNT_LO", "SRC_LO", "DST_HI", "MATCH_CAP", "MATCH_ACK"]
    model = {r: await rd(m, r) for r in regs}
    for _ in range(60):
        ops = []
        for _ in range(4):
            r = rng.choice(regs)
            if rng.random() < 0.5:
                v = rng.getrandbits(32)
                model[r] = v
                ops.append(cocotb.start_soon(wr(m, r, v)))
            else:
                ops.append(cocotb.start_soon(rd(m, r)))
        for o in ops:
            await o
    for r in regs:
        assert await rd(m, r) == model[r], r
