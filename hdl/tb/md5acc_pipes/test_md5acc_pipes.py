"""md5acc_pipes: groups of messages with random lane masks and random gaps go
in one per clock; 65 clocks later each comes out with its tag and every
lane's digest (hashlib), the array never stalling; reset clears the valid
bits in flight."""
import ast
import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from benchlib import digest_int, padded_words, start
from md5model import kmc_int

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
N = P["NPIPE"]
LATENCY = 65


@cocotb.test()
async def groups_in_order_with_tags(dut):
    dut.in_valid.value = 0
    dut.in_tag.value = 0
    dut.in_m0.value = dut.in_m1.value = 0
    width = 4
    dut.kmc.value = kmc_int(width)
    await start(dut)
    rng = random.Random(3)
    sent = {}
    outs = 0
    for clock in range(600):
        await FallingEdge(dut.clk)
        if clock < 500 and rng.random() < 0.7:
            msgs = [bytes(rng.getrandbits(8) for _ in range(width)) for _ in range(N)]
            tag = rng.getrandbits(N)
            m0 = m1 = 0
            for j, m in enumerate(msgs):
                a, b = padded_words(m)
                m0 |= a << (32 * j)
                m1 |= b << (32 * j)
            dut.in_valid.value, dut.in_tag.value, dut.in_m0.value, dut.in_m1.value = 1, tag, m0, m1
            sent[clock] = (tag, msgs)
        else:
            dut.in_valid.value = 0
            dut.in_m0.value = rng.getrandbits(32 * N)
        await ReadOnly()
        c = clock - LATENCY
        assert bool(dut.out_valid.value) == (c in sent), "valid at clock %d" % clock
        if c in sent:
            tag, msgs = sent.pop(c)
            assert int(dut.out_tag.value) == tag
            d = int(dut.out_digest.value)
            for j, m in enumerate(msgs):
                assert d >> (128 * j) & ((1 << 128) - 1) == digest_int(m), "lane %d" % j
            outs += 1
    assert outs > 300 and not sent
    # reset with groups in flight: nothing comes out afterwards
    await FallingEdge(dut.clk)
    dut.in_valid.value = 1
    for _ in range(10):
        await FallingEdge(dut.clk)
    dut.in_valid.value = 0
    dut.rst.value = 1
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    for _ in range(LATENCY + 5):
        await ReadOnly()
        assert not dut.out_valid.value
        await FallingEdge(dut.clk)
