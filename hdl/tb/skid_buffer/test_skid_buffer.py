"""skid_buffer: random valid and ready against a Python queue (order, no
word lost or doubled, at most two words held), in_ready a register (a change
of out_ready reaches it a clock later, never on the same clock), a word per
clock while out_ready stays high, then a clear and a reset in the middle."""
import ast
import os
import random
from collections import deque

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from benchlib import start

P = ast.literal_eval(os.environ["BENCH_PARAMS"])


async def step(dut, valid, word, ready, **held):
    """Drives one clock (and `held`, e.g. clr=1); returns (in_ready,
    out_valid, out_data or None) as sampled before its edge."""
    await FallingEdge(dut.clk)
    dut.in_valid.value, dut.in_data.value, dut.out_ready.value = int(valid), word, int(ready)
    for name in ("clr", "rst"):
        getattr(dut, name).value = held.get(name, 0)
    await ReadOnly()
    out_valid = bool(dut.out_valid.value)
    return bool(dut.in_ready.value), out_valid, int(dut.out_data.value) if out_valid else None


@cocotb.test()
async def random_traffic(dut):
    dut.in_valid.value = dut.out_ready.value = dut.clr.value = 0
    await start(dut)
    rng = random.Random(5)
    model = deque()
    n_in = n_out = 0
    for cyc in range(8000):
        phase = (cyc // 1000) % 4            # busy source, busy sink, balanced, both always on
        valid = phase == 3 or rng.random() < (0.9, 0.3, 0.5, 1)[phase]
        ready = phase == 3 or rng.random() < (0.3, 0.9, 0.5, 1)[phase]
        word = rng.getrandbits(P["WIDTH"])
        in_ready, out_valid, out_data = await step(dut, valid, word, ready)
        # registered: in_ready is low exactly when two words are held
        assert in_ready == (len(model) < 2 or not out_valid), (cyc, len(model))
        assert out_valid == bool(model)
        if out_valid:
            assert out_data == model[0], "order: %x, want %x" % (out_data, model[0])
        if phase == 3 and cyc % 1000 > 4:
            assert in_ready and out_valid, "a word per clock while both sides are always on"
        await RisingEdge(dut.clk)
        if out_valid and ready:
            model.popleft()
            n_out += 1
        if valid and in_ready:
            model.append(word)
            n_in += 1
        assert len(model) <= 2
    assert n_in > 3000 and n_out > 3000 and n_in - n_out == len(model)


@cocotb.test()
async def ready_is_registered(dut):
    dut.in_valid.value = dut.out_ready.value = dut.clr.value = 0
    await start(dut)
    # fill both registers with the output stalled
    await step(dut, 1, 1, 0)
    await step(dut, 1, 2, 0)
    in_ready, out_valid, out_data = await step(dut, 1, 3, 0)
    assert not in_ready and out_valid and out_data == 1
    # out_ready rises: in_ready stays low on this clock, rises on the next
    in_ready, out_valid, out_data = await step(dut, 1, 3, 1)
    assert not in_ready and out_valid and out_data == 1, "in_ready must not follow out_ready combinationally"
    in_ready, out_valid, out_data = await step(dut, 1, 3, 1)
    assert in_ready and out_valid and out_data == 2
    in_ready, out_valid, out_data = await step(dut, 0, 0, 1)
    assert out_valid and out_data == 3
    in_ready, out_valid, out_data = await step(dut, 0, 0, 1)
    assert not out_valid and in_ready


@cocotb.test()
async def clear_and_reset_empty_it(dut):
    dut.in_valid.value = dut.out_ready.value = dut.clr.value = 0
    await start(dut)
    for rst_name in ("clr", "rst"):
        await step(dut, 1, 7, 0)
        await step(dut, 1, 8, 0)
        in_ready, out_valid, _ = await step(dut, 0, 0, 0)
        assert out_valid and not in_ready
        await step(dut, 0, 0, 0, **{rst_name: 1})
        in_ready, out_valid, _ = await step(dut, 0, 0, 1)
        assert in_ready and not out_valid, rst_name + " empties both registers"
        in_ready, out_valid, out_data = await step(dut, 1, 9, 1)
        in_ready, out_valid, out_data = await step(dut, 0, 0, 1)
        assert out_valid and out_data == 9, "nothing of before the " + rst_name + " comes out"
        in_ready, out_valid, _ = await step(dut, 0, 0, 1)
        assert not out_valid
