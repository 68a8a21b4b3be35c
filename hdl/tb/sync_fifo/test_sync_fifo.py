"""sync_fifo (block-RAM forms with one and two read registers, and the
combinational form): random pushes and pops against a Python queue (order,
count, in_ready, never more than DEPTH words), a clear in the middle, and
reset in the middle; a written word's latency to the output (BRAM + 1
clocks) and a word per clock at full rate."""
import ast
import os
import random
from collections import deque

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from benchlib import start

P = ast.literal_eval(os.environ["BENCH_PARAMS"])


async def idle_start(dut, out_ready):
    dut.in_valid.value = 0
    dut.out_ready.value = out_ready
    dut.clr.value = 0
    await start(dut)


@cocotb.test()
async def random_traffic(dut):
    await idle_start(dut, 0)
    rng = random.Random(P["BRAM"])
    model = deque()
    n_in = n_out = 0
    for cyc in range(6000):
        await FallingEdge(dut.clk)
        phase = (cyc // 1000) % 3        # fill-heavy, drain-heavy, balanced
        push = rng.random() < (0.8, 0.3, 0.5)[phase]
        pop = rng.random() < (0.3, 0.8, 0.5)[phase]
        clear = cyc in (2500, 4400)
        word = rng.getrandbits(P["WIDTH"])
        dut.in_valid.value = int(push)
        dut.in_data.value = word
        dut.out_ready.value = int(pop)
        dut.clr.value = int(clear)
        await ReadOnly()
        assert int(dut.count.value) <= P["DEPTH"]
        in_ready = bool(dut.in_ready.value)
        assert in_ready == (int(dut.count.value) < P["DEPTH"])
        out_valid = bool(dut.out_valid.value)
        if out_valid:
            assert model, "output valid while the model is empty"
            assert int(dut.out_data.value) == model[0], "order: %x, want %x" % (int(dut.out_data.value), model[0])
        await RisingEdge(dut.clk)
        if clear:
            model.clear()
            continue
        if out_valid and pop:
            model.popleft()
            n_out += 1
        if push and in_ready:
            model.append(word)
            n_in += 1
        await ReadOnly()
        if not model:
            assert int(dut.count.value) == 0
    assert n_in > 1000 and n_out > 1000
    # reset in the middle: empty afterwards
    await FallingEdge(dut.clk)
    dut.in_valid.value = 1
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.in_valid.value = 0
    dut.rst.value = 0
    await ReadOnly()
    assert int(dut.count.value) == 0 and not dut.out_valid.value


@cocotb.test()
async def latency_and_full_rate(dut):
    await idle_start(dut, 1)
    # one word into the empty FIFO: out_valid BRAM + 1 clocks after the push
    await FallingEdge(dut.clk)
    dut.in_valid.value = 1
    dut.in_data.value = 0x1234
    await RisingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.in_valid.value = 0
    clocks = 1
    await ReadOnly()
    while not dut.out_valid.value:
        await RisingEdge(dut.clk)
        clocks += 1
        await ReadOnly()
        assert clocks <= 4
    assert clocks == P["BRAM"] + 1, "latency %d clocks" % clocks
    assert int(dut.out_data.value) == 0x1234
    await RisingEdge(dut.clk)
    # a stream pushed and popped every clock: a word out every clock
    n = 40
    out = []
    for cyc in range(n + 4):
        await FallingEdge(dut.clk)
        dut.in_valid.value = int(cyc < n)
        dut.in_data.value = cyc
        await ReadOnly()
        if cyc < n:
            assert dut.in_ready.value
        if dut.out_valid.value:
            out.append(int(dut.out_data.value))
    assert out == list(range(n)), out
