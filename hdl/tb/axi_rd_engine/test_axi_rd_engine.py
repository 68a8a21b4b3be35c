"""axi_rd_engine against cocotbext-axi's AXI RAM, random pauses on AR and R
and random gaps on the output stream: every beat in order, the burst rules
(INCR, full beats, <= MAX_BURST, never across 4 KiB), a stop in the middle
(busy falls once the outstanding bursts are in), and a reset in the middle of
a transfer (RAM and engine together) followed by a clean transfer."""
import ast
import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge
from cocotbext.axi import AxiRamRead, AxiReadBus

from benchlib import pauses, start

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
BYTES = P["DATA_W"] // 8
MEM = 1 << 20


class Bench:
    def __init__(self, dut, seed):
        self.dut = dut
        self.ram = AxiRamRead(AxiReadBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM)
        self.ram.ar_channel.set_pause_generator(pauses(seed, 30))
        self.ram.r_channel.set_pause_generator(pauses(seed + 1, 30))
        self.rng = random.Random(seed)
        self.bursts = []
        cocotb.start_soon(self.watch_ar())

    async def watch_ar(self):
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            await ReadOnly()
            if d.m_axi_arvalid.value and d.m_axi_arready.value:
                a, n = int(d.m_axi_araddr.value), int(d.m_axi_arlen.value) + 1
                assert int(d.m_axi_arburst.value) == 1 and int(d.m_axi_arsize.value) == BYTES.bit_length() - 1
                assert a % BYTES == 0 and n <= 16 and a // 4096 == (a + n * BYTES - 1) // 4096, (hex(a), n)
                self.bursts.append((a, n))

    async def transfer(self, addr, nbeats, stop_after=None):
        d = self.dut
        await FallingEdge(d.clk)
        d.addr.value = addr
        d.nbeats.value = nbeats
        d.start.value = 1
        await FallingEdge(d.clk)
        d.start.value = 0
        got = []
        while len(got) < nbeats:
            if stop_after is not None and len(got) >= stop_after:
                d.stop.value = 1
            ready = self.rng.random() < 0.7
            d.out_ready.value = int(ready)
            await ReadOnly()
            if ready and d.out_valid.value:
                got.append(int(d.out_data.value).to_bytes(BYTES, "little"))
            if stop_after is not None and len(got) >= stop_after and not d.busy.value:
                break
            await FallingEdge(d.clk)
        await FallingEdge(d.clk)
        d.out_ready.value = 0
        d.stop.value = 0
        return got


@cocotb.test()
async def beats_in_order_across_pages(dut):
    dut.start.value = dut.stop.value = dut.clr_err.value = dut.out_ready.value = 0
    dut.addr.value = dut.nbeats.value = 0
    b = Bench(dut, 5)
    await start(dut)
    data = bytes(random.Random(1).getrandbits(8) for _ in range(MEM))
    b.ram.write(0, data)
    for addr, n in ((0x1000 - 3 * BYTES, 40), (0x3000, 1), (0x5000 - BYTES, 2), (0x8000 + 5 * BYTES, 333)):
        b.bursts.clear()
        got = await b.transfer(addr, n)
        assert b"".join(got) == data[addr:addr + n * BYTES], "transfer at %x" % addr
        assert sum(k for _, k in b.bursts) == n
        await FallingEdge(dut.clk)
        assert not dut.busy.value and not dut.err.value


@cocotb.test()
async def stop_then_reset_mid_transfer(dut):
    dut.start.value = dut.stop.value = dut.clr_err.value = dut.out_ready.value = 0
    b = Bench(dut, 9)
    await start(dut)
    data = bytes(random.Random(2).getrandbits(8) for _ in range(MEM))
    b.ram.write(0, data)
    got = await b.transfer(0x10000, 400, stop_after=50)
    assert 50 <= len(got) < 400 and b"".join(got) == data[0x10000:0x10000 + len(got) * BYTES]
    for _ in range(200):
        await FallingEdge(dut.clk)
        if not dut.busy.value:
            break
    assert not dut.busy.value, "busy falls once the issued bursts are in"
    # reset (engine and RAM) while bursts are in flight, then a clean transfer
    await FallingEdge(dut.clk)
    dut.addr.value, dut.nbeats.value, dut.start.value = 0x20000, 300, 1
    await FallingEdge(dut.clk)
    dut.start.value = 0
    for _ in range(30):
        await FallingEdge(dut.clk)
    dut.rst.value = 1
    await FallingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    await ReadOnly()
    assert not dut.busy.value and not dut.out_valid.value
    got = await b.transfer(0x30000, 64)
    assert b"".join(got) == data[0x30000:0x30000 + 64 * BYTES]
