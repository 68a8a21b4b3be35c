"""md5acc_compare: a filter loaded word by word (both arrays, every copy)
from a target list; digests of targets hit, digests of others hit only when
both of their filter bits happen to be set (the Python model of the filter
says exactly when), masked lanes and invalid groups never; the value of a
hit lane is base | lane; every group's result LATENCY clocks after it."""
import ast
import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from benchlib import digest_int, start

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
N = P["NPIPE"]
IDX = 14
LATENCY = 4


def filter_bits(targets):
    bits = [set(), set()]
    for t in targets:
        for a in range(2):
            bits[a].add(t >> (32 * a) & ((1 << IDX) - 1))
    return bits


@cocotb.test()
async def hits_follow_the_filter(dut):
    dut.in_valid.value = dut.wr_en.value = 0
    dut.in_mask.value = dut.in_base.value = dut.in_digest.value = 0
    await start(dut)
    rng = random.Random(5)
    targets = [digest_int(bytes([k, 1, 2, 3])) for k in range(40)]
    bits = filter_bits(targets)
    for a in range(2):
        for w in range(1 << (IDX - 5)):
            word = sum(1 << b for b in range(32) if 32 * w + b in bits[a])
            await FallingEdge(dut.clk)
            dut.wr_en.value, dut.wr_array.value, dut.wr_word.value, dut.wr_data.value = 1, a, w, word
    await FallingEdge(dut.clk)
    dut.wr_en.value = 0
    expect = [None] * LATENCY      # the groups in flight, oldest first
    hits = 0
    for clock in range(400):
        await FallingEdge(dut.clk)
        valid = rng.random() < 0.8
        mask = rng.getrandbits(N)
        base = rng.getrandbits(60) << 3
        ds = [rng.choice(targets) if rng.random() < 0.3 else rng.getrandbits(128) for _ in range(N)]
        dut.in_valid.value, dut.in_mask.value, dut.in_base.value = int(valid), mask, base
        dut.in_digest.value = sum(d << (128 * j) for j, d in enumerate(ds))
        await ReadOnly()
        if expect[0] is not None:
            v, m, b, dd = expect[0]
            want = 0
            for j in range(N):
                inf = all((dd[j] >> (32 * a) & ((1 << IDX) - 1)) in bits[a] for a in range(2))
                if v and m >> j & 1 and inf:
                    want |= 1 << j
            assert int(dut.out_hit.value) == want, "clock %d" % clock
            hits += bin(want).count("1")
            for j in range(N):
                if want >> j & 1:
                    assert int(dut.out_value.value) >> (64 * j) & (2 ** 64 - 1) == b | j
                    assert int(dut.out_digest.value) >> (128 * j) & (2 ** 128 - 1) == dd[j]
        expect = expect[1:] + [(valid, mask, base, ds)]
    assert hits > 50
