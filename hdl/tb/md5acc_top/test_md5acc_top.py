"""md5acc_top (2 pipelines, 256-bit bus) between cocotbext-axi's AXI4-Lite
master and AXI RAM, random pauses on every channel of both buses: a hash job
(digests against hashlib, DONE interrupt), a search job whose every value
hits, its match ring drained on MATCH interrupts, a jammed search (every
value hits, a ring of two records, MATCH_ACK never written) that ABORT brings
to idle, and a reset in the middle of a batch followed by a clean job. The C++ Verilator bench
(tb_md5acc_top.cpp) is the fuller integration bench."""
import os
import random
import re

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam

from benchlib import be, md5, pauses, start

HDR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "jni-fpga", "native", "include",
                   "fpgamr_regs.h")
_h = open(HDR).read()
R = {m.group(1): int(m.group(2), 16) for m in re.finditer(r"#define FPGAMR_REG_(\w+) 0x([0-9A-F]+)u", _h)}
C = {m.group(1): int(m.group(2), 0) for m in re.finditer(r"#define FPGAMR_(\w+) (0x[0-9A-F]+|\d+)u", _h)}
MEM = 1 << 20


class Acc:
    def __init__(self, dut, seed):
        self.dut = dut
        self.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM)
        self.regs = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
        chans = [self.ram.write_if.aw_channel, self.ram.write_if.w_channel, self.ram.write_if.b_channel,
                 self.ram.read_if.ar_channel, self.ram.read_if.r_channel,
                 self.regs.write_if.aw_channel, self.regs.write_if.w_channel, self.regs.write_if.b_channel,
                 self.regs.read_if.ar_channel, self.regs.read_if.r_channel]
        for i, ch in enumerate(chans):
            ch.set_pause_generator(pauses(seed + i, 25))

    async def rd(self, reg):
        return int.from_bytes((await self.regs.read(R[reg], 4)).data, "little")

    async def wr(self, reg, v):
        await self.regs.write(R[reg], (v & 0xFFFFFFFF).to_bytes(4, "little"))

    async def launch(self, op, width, start_v=0, count=0, src=0, dst=0, cap=0, irq=3):
        await self.wr("MODE", op | width << 8)
        for name, v in (("START", start_v), ("COUNT", count), ("SRC", src), ("DST", dst)):
            await self.wr(name + "_LO", v)
            await self.wr(name + "_HI", v >> 32)
        await self.wr("MATCH_CAP", cap)
        await self.wr("IRQ_ENABLE", irq)
        await self.wr("CTRL", 1)

    async def wait_irq(self, limit=200000):
        for _ in range(limit):
            if self.dut.irq.value:
                return
            await RisingEdge(self.dut.clk)
        raise AssertionError("no interrupt")

    async def load_filter(self, digests, all_ones=False):
        words = [0xFFFFFFFF if all_ones else 0] * (2 * C["FILTER_WORDS"])
        for d in digests:
            for a in range(2):
                idx = int.from_bytes(d[4 * a:4 * a + 4], "little") & ((1 << C["FILTER_IDX_BITS"]) - 1)
                words[a * C["FILTER_WORDS"] + idx // 32] |= 1 << (idx % 32)
        await self.wr("FILTER_ADDR", 0)
        for w in words:
            await self.wr("FILTER_DATA", w)


def init(dut):
    for s in ("s_axil_awvalid", "s_axil_wvalid", "s_axil_bready", "s_axil_arvalid", "s_axil_rready"):
        getattr(dut, s).value = 0


@cocotb.test()
async def hash_then_search_ring(dut):
    init(dut)
    acc = Acc(dut, 21)
    await start(dut)
    assert await acc.rd("DESIGN_ID") == C["DESIGN_ID"] and await acc.rd("CLOCK_KHZ") > 0
    # hash: 150 messages of 3 bytes in 4-byte slots, digests 16 bytes each
    rng = random.Random(1)
    msgs = [bytes(rng.getrandbits(8) for _ in range(3)) for _ in range(150)]
    acc.ram.write(0x1000, b"".join(m + b"\xee" for m in msgs))
    await acc.launch(0, 3, count=150, src=0x1000, dst=0x8000)
    await acc.wait_irq()
    assert await acc.rd("STATUS") == C["STATUS_DONE_MASK"] and await acc.rd("DONE_LO") == 150
    assert await acc.rd("IRQ_STATUS") == C["IRQ_STATUS_DONE_MASK"]
    await acc.wr("IRQ_STATUS", 7)
    got = acc.ram.read(0x8000, 16 * 150)
    assert [got[16 * i:16 * i + 16] for i in range(150)] == [md5(m) for m in msgs]
    assert acc.ram.read(0x8000 + 16 * 150, 16) == bytes(16), "nothing past the last digest"

    # search: every value hits (filter all ones), a ring of 8 drained on MATCH interrupts
    await acc.load_filter([], all_ones=True)
    first, count, ring, cap = 1000, 60, 0x20000, 8
    await acc.launch(1, 4, start_v=first, count=count, dst=ring, cap=cap, irq=7)
    seen, consumed = [], 0
    while True:
        await acc.wait_irq()
        sts = await acc.rd("IRQ_STATUS")
        n = await acc.rd("MATCH_COUNT")
        for i in range(consumed, n):
            rec = acc.ram.read(ring + 32 * (i % cap), 32)
            v = int.from_bytes(rec[0:8], "little")
            assert rec[16:32] == md5(be(v, 4)), "record digest of %d" % v
            seen.append(v)
        consumed = n
        if sts & (C["IRQ_STATUS_DONE_MASK"] | C["IRQ_STATUS_ERROR_MASK"]):
            break
        await acc.wr("MATCH_ACK", consumed)
        await acc.wr("IRQ_STATUS", C["IRQ_STATUS_MATCH_MASK"])
    assert await acc.rd("STATUS") == C["STATUS_DONE_MASK"] and await acc.rd("DONE_LO") == count
    assert sorted(seen) == list(range(first, first + count)), "every value once through the ring"
    await acc.wr("IRQ_STATUS", 7)


@cocotb.test()
async def abort_a_jammed_search(dut):
    """A job that jams the device on purpose (issue 39): an all-ones filter,
    a ring of two records and no MATCH_ACK, so the match writer waits for
    ever with its hit FIFO full. ABORT drops the pending hits: the device
    goes idle (DONE and ABORTED, two records written), and the next search
    sees only its own hits."""
    init(dut)
    acc = Acc(dut, 45)
    await start(dut)
    await acc.load_filter([], all_ones=True)
    ring, cap, count = 0x30000, 2, 5000
    await acc.launch(1, 4, start_v=0, count=count, dst=ring, cap=cap, irq=C["IRQ_STATUS_DONE_MASK"])
    for _ in range(200):
        if await acc.rd("STATUS") & C["STATUS_MATCH_FULL_MASK"]:
            break
    else:
        raise AssertionError("the ring never filled")
    await ClockCycles(dut.clk, 3000)
    assert dut.busy.value and not dut.irq.value, "jammed: still running"
    assert await acc.rd("MATCH_COUNT") == cap and await acc.rd("STATUS") == (
        C["STATUS_BUSY_MASK"] | C["STATUS_MATCH_FULL_MASK"])
    await acc.wr("CTRL", C["CTRL_ABORT_MASK"])
    await acc.wait_irq(limit=2000)
    assert not dut.busy.value
    assert await acc.rd("STATUS") == C["STATUS_DONE_MASK"] | C["STATUS_ABORTED_MASK"]
    assert await acc.rd("MATCH_COUNT") == cap, "the dropped hits were never written"
    done = await acc.rd("DONE_LO")
    assert cap <= done < count, "values done at the abort: %d" % done
    recs = [acc.ram.read(ring + 32 * i, 32) for i in range(cap + 1)]
    got = [int.from_bytes(r[0:8], "little") for r in recs[:cap]]
    assert len(set(got)) == cap and max(got) < done, "two of the first values: %s" % got
    assert [r[16:32] for r in recs[:cap]] == [md5(be(v, 4)) for v in got]
    assert recs[cap] == bytes(32), "nothing written past the ring"
    await acc.wr("IRQ_STATUS", 7)
    # the next search on the same device: only its own hits, none of the aborted job's
    first, count, ring, cap = 7000, 20, 0x38000, 32
    await acc.launch(1, 4, start_v=first, count=count, dst=ring, cap=cap, irq=C["IRQ_STATUS_DONE_MASK"])
    await acc.wait_irq()
    assert await acc.rd("STATUS") == C["STATUS_DONE_MASK"] and await acc.rd("MATCH_COUNT") == count
    seen = sorted(int.from_bytes(acc.ram.read(ring + 32 * i, 8), "little") for i in range(count))
    assert seen == list(range(first, first + count))


@cocotb.test()
async def reset_mid_batch(dut):
    init(dut)
    acc = Acc(dut, 33)
    await start(dut)
    acc.ram.write(0x1000, bytes(range(256)) * 64)
    await acc.launch(0, 4, count=4000, src=0x1000, dst=0x40000)
    await ClockCycles(dut.clk, 300)
    assert dut.busy.value
    await FallingEdge(dut.clk)
    dut.rst.value = 1          # the accelerator and both bus models together
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)
    assert not dut.busy.value and not dut.irq.value
    assert await acc.rd("STATUS") == 0 and await acc.rd("DONE_LO") == 0
    msgs = [be(v, 4) for v in range(40)]
    acc.ram.write(0x2000, b"".join(msgs))
    await acc.launch(0, 4, count=40, src=0x2000, dst=0x9000)
    await acc.wait_irq()
    assert await acc.rd("STATUS") == C["STATUS_DONE_MASK"]
    got = acc.ram.read(0x9000, 16 * 40)
    assert [got[16 * i:16 * i + 16] for i in range(40)] == [md5(m) for m in msgs]
