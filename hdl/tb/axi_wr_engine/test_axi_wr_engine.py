"""axi_wr_engine against cocotbext-axi's AXI RAM, random pauses on AW, W and
B and random gaps on the command and data streams: every burst lands with its
strobes, WLAST where the command says, one OKAY acknowledgement per burst with
its beats, idle at the end; then a reset in the middle of a burst; then the
W stage's handshake driven by hand: a beat per clock while WREADY is high,
and a ready that is registered (WREADY's rise reaches data_ready a clock
later, through the skid register)."""
import ast
import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge
from cocotbext.axi import AxiRamWrite, AxiWriteBus

from benchlib import pauses, start

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
BYTES = P["DATA_W"] // 8
MEM = 1 << 20


async def drive(dut, cmds, beats, rng):
    """cmds: [(addr, nbeats)]; beats: [(data, strb)] in order."""
    async def cmd_side():
        for a, n in cmds:
            await FallingEdge(dut.clk)
            while rng.random() < 0.3:
                dut.cmd_valid.value = 0
                await FallingEdge(dut.clk)
            dut.cmd_valid.value, dut.cmd_addr.value, dut.cmd_len.value = 1, a, n - 1
            await ReadOnly()
            while not dut.cmd_ready.value:
                await FallingEdge(dut.clk)
                await ReadOnly()
            await FallingEdge(dut.clk)
            dut.cmd_valid.value = 0

    async def data_side():
        for data, strb in beats:
            await FallingEdge(dut.clk)
            while rng.random() < 0.3:
                dut.data_valid.value = 0
                await FallingEdge(dut.clk)
            dut.data_valid.value, dut.data.value, dut.strb.value = 1, data, strb
            await ReadOnly()
            while not dut.data_ready.value:
                await FallingEdge(dut.clk)
                await ReadOnly()
            await FallingEdge(dut.clk)
            dut.data_valid.value = 0

    c = cocotb.start_soon(cmd_side())
    await data_side()
    await c


@cocotb.test()
async def bursts_land_and_are_acknowledged(dut):
    dut.cmd_valid.value = dut.data_valid.value = dut.clr_err.value = 0
    ram = AxiRamWrite(AxiWriteBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM)
    await start(dut)
    for i, ch in enumerate((ram.aw_channel, ram.w_channel, ram.b_channel)):
        ch.set_pause_generator(pauses(11 + i, 30))
    rng = random.Random(4)
    acks = []

    async def watch():
        while True:
            await RisingEdge(dut.clk)
            await ReadOnly()
            if dut.ack_valid.value:
                acks.append(int(dut.ack_beats.value))
    cocotb.start_soon(watch())
    cmds, beats, want = [], [], {}
    a = 0x1000 - 2 * BYTES
    for k in range(40):
        n = rng.randint(1, 16)
        n = min(n, (4096 - a % 4096) // BYTES)
        cmds.append((a, n))
        for i in range(n):
            data = rng.getrandbits(8 * BYTES)
            strb = (1 << BYTES) - 1 if rng.random() < 0.8 else rng.getrandbits(BYTES)
            beats.append((data, strb))
            for j in range(BYTES):
                if strb >> j & 1:
                    want[a + i * BYTES + j] = data >> (8 * j) & 0xFF
        a += n * BYTES + rng.choice((0, 0, 4096))
    await drive(dut, cmds, beats, rng)
    for _ in range(500):
        await FallingEdge(dut.clk)
        if dut.idle.value and len(acks) == len(cmds):
            break
    assert dut.idle.value and not dut.err.value
    assert acks == [n for _, n in cmds], "one OKAY acknowledgement per burst with its beats"
    mem = ram.read(0, a + 4096)
    bad = [hex(k) for k, v in want.items() if mem[k] != v]
    assert not bad, "bytes wrong at %s" % bad[:5]
    # bytes without strobe stay zero
    strobed = set(want)
    assert all(mem[k] == 0 for k in range(0, a) if k not in strobed)


@cocotb.test()
async def reset_mid_burst(dut):
    dut.cmd_valid.value = dut.data_valid.value = dut.clr_err.value = 0
    ram = AxiRamWrite(AxiWriteBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM)
    await start(dut)
    await FallingEdge(dut.clk)
    dut.cmd_valid.value, dut.cmd_addr.value, dut.cmd_len.value = 1, 0x2000, 15
    dut.data_valid.value, dut.data.value, dut.strb.value = 1, 0x55, (1 << BYTES) - 1
    for _ in range(5):
        await FallingEdge(dut.clk)
    dut.cmd_valid.value = dut.data_valid.value = 0
    dut.rst.value = 1
    await FallingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    await ReadOnly()
    assert dut.idle.value and not dut.m_axi_wvalid.value and not dut.m_axi_awvalid.value
    rng = random.Random(8)
    await drive(dut, [(0x3000, 2)], [(0xAB, (1 << BYTES) - 1), (0xCD, (1 << BYTES) - 1)], rng)
    for _ in range(100):
        await FallingEdge(dut.clk)
        if dut.idle.value:
            break
    assert ram.read(0x3000, 1) == b"\xab" and ram.read(0x3000 + BYTES, 1) == b"\xcd"



@cocotb.test()
async def full_rate_and_registered_ready(dut):
    """One 16-beat burst, WREADY by hand: high 8 clocks, low 4, then high."""
    dut.cmd_valid.value = dut.data_valid.value = dut.clr_err.value = 0
    dut.m_axi_awready.value = 1
    dut.m_axi_wready.value = 1
    dut.m_axi_bvalid.value = dut.m_axi_bresp.value = dut.m_axi_bid.value = 0
    await start(dut)
    await FallingEdge(dut.clk)
    dut.cmd_valid.value, dut.cmd_addr.value, dut.cmd_len.value = 1, 0x4000, 15
    await FallingEdge(dut.clk)
    dut.cmd_valid.value = 0
    dut.data_valid.value, dut.strb.value = 1, (1 << BYTES) - 1
    taken, sent, ready = 0, [], []       # per clock: data_ready; beats sent (clock, data, last)
    for clk in range(40):
        wready = 0 if 8 <= clk < 12 else 1
        dut.m_axi_wready.value = wready
        dut.data_valid.value = int(taken < 16)
        dut.data.value = taken
        await ReadOnly()
        ready.append(int(dut.data_ready.value))
        if dut.m_axi_wvalid.value and wready:
            sent.append((clk, int(dut.m_axi_wdata.value), int(dut.m_axi_wlast.value)))
        taken += int(dut.data_ready.value) and taken < 16
        await FallingEdge(dut.clk)
    assert [d for _, d, _ in sent] == list(range(16)), sent
    assert [l for _, _, l in sent] == [0] * 15 + [1]
    clocks = [c for c, _, _ in sent]
    # taken from clock 1 (the burst's AW went at clock 0), sent from clock 2
    assert ready[:9] == [0] + [1] * 8 and clocks[:6] == list(range(2, 8)), \
        "a beat per clock while WREADY is high"
    # WREADY falls at clock 8: the output register holds a beat, the skid
    # register takes one more, then ready falls
    assert ready[8] == 1 and ready[9:13] == [0, 0, 0, 0], ready
    # WREADY rises at clock 12: ready follows one clock later, not combinationally
    assert ready[13] == 1, ready
    assert clocks[6:] == list(range(12, 22)), "full rate again once WREADY is back"
