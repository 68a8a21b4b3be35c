"""md5acc_pipes: groups of messages with random lane masks and random gaps go
in one per clock; 66 clocks later (an input register, then md5_core) each comes out with its tag and every
lane's digest (hashlib), the array never stalling; reset clears the valid
bits in flight. Each tap repeats out_valid and out_tag while its enable is
on (the enables change between runs of groups, as a job's kind does) and is
0 while it is off, its tag 0 too."""
import ast
import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from benchlib import digest_int, padded_words, start
from md5model import kmc_int

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
N = P["NPIPE"]
TAPS = P["TAPS"]
LATENCY = 66  # the input register and md5_core's 65


@cocotb.test()
async def groups_in_order_with_tags(dut):
    dut.in_valid.value = 0
    dut.in_tag.value = 0
    dut.in_m0.value = dut.in_m1.value = 0
    dut.tap_en.value = 0
    width = 4
    dut.kmc.value = kmc_int(width)
    await start(dut)
    rng = random.Random(3)
    sent = {}
    outs = 0
    tap_en = 0
    taps_on = [0] * TAPS
    for clock in range(1200):
        await FallingEdge(dut.clk)
        # a new enable only once the groups of the last one are out
        if clock % 300 == 0:
            tap_en = rng.getrandbits(TAPS) if clock else (1 << TAPS) - 1
            dut.tap_en.value = tap_en
        if clock % 300 < 200 and rng.random() < 0.7:
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
        tap_valid, tap_tag = int(dut.tap_valid.value), int(dut.tap_tag.value)
        for t in range(TAPS):
            on = c in sent and tap_en >> t & 1
            assert tap_valid >> t & 1 == on, "tap %d valid at clock %d" % (t, clock)
            assert tap_tag >> (N * t) & ((1 << N) - 1) == (sent[c][0] if on else 0), "tap %d tag" % t
            taps_on[t] += on
        if c in sent:
            tag, msgs = sent.pop(c)
            assert int(dut.out_tag.value) == tag
            d = int(dut.out_digest.value)
            for j, m in enumerate(msgs):
                assert d >> (128 * j) & ((1 << 128) - 1) == digest_int(m), "lane %d" % j
            outs += 1
    assert outs > 500 and not sent
    assert all(n > 100 for n in taps_on), taps_on
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
        assert not dut.out_valid.value and not dut.tap_valid.value
        await FallingEdge(dut.clk)
