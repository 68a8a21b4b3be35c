"""md5acc_hits: lanes hit at random, several in one clock, while the reader
takes records with random gaps; every record comes out exactly once. The
issuer follows `room` with the pipeline's delay (SLACK clocks of groups in
flight) and the FIFOs never overflow, even when the reader stalls for long
(the hit-FIFO overflow case: issue stops instead); clear empties them."""
import ast
import os
import random
from collections import Counter

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, Timer

from benchlib import start

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
N, DEPTH, SLACK = P["NPIPE"], P["DEPTH"], P["SLACK"]


@cocotb.test()
async def every_hit_once_and_no_overflow(dut):
    dut.in_hit.value = dut.out_ready.value = dut.clr.value = 0
    dut.in_value.value = dut.in_digest.value = 0
    await start(dut)
    rng = random.Random(9)
    delay = [0] * (SLACK - 1)      # groups issued but not yet at the FIFOs
    pushed, popped = Counter(), Counter()
    seq = 0
    blocked = 0
    for clock in range(4000):
        await FallingEdge(dut.clk)
        stall = 1000 <= clock < 1400          # the reader stops: FIFOs fill
        dut.out_ready.value = int(not stall and rng.random() < 0.5)
        await ReadOnly()
        room = bool(dut.room.value)
        if dut.out_valid.value and dut.out_ready.value:
            popped[(int(dut.out_value.value), int(dut.out_digest.value))] += 1
        issue = room and clock < 3000
        blocked += not room
        arriving = delay.pop(0)
        delay.append(issue)
        mask = rng.getrandbits(N) if arriving else 0
        vals = dig = 0
        for j in range(N):
            if mask >> j & 1:
                seq += 1
                vals |= seq << (64 * j)
                dig |= (seq * 7919) << (128 * j)
                pushed[(seq, seq * 7919)] += 1
        await Timer(1, unit="ps")       # out of the read-only phase, same clock
        dut.in_hit.value, dut.in_value.value, dut.in_digest.value = mask, vals, dig
    dut.in_hit.value = 0
    for _ in range(2000):
        await FallingEdge(dut.clk)
        dut.out_ready.value = 1
        await ReadOnly()
        if dut.out_valid.value:
            popped[(int(dut.out_value.value), int(dut.out_digest.value))] += 1
        if dut.empty.value:
            break
    assert dut.empty.value
    assert blocked > 100, "room fell while the reader stalled"
    assert popped == pushed, "lost %d, extra %d" % (sum((pushed - popped).values()), sum((popped - pushed).values()))
