"""md5acc_hash_sink: groups of 1..LANES digests arrive with random gaps (an
issuer that follows `room` with the pipeline's delay), the write side is
ready at random: every digest lands in order from dst in bursts of at most 16
beats that never cross 4 KiB, the last beat partial with strobes (nothing
written past the last digest), and the FIFO never overflows."""
import ast
import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from benchlib import start
from wrsink import WriteSink

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
LANES, DATA_W, SLACK = P["LANES"], P["DATA_W"], P["SLACK"]


async def job(dut, sink, dst, count, rng):
    await FallingEdge(dut.clk)
    dut.dst.value, dut.count.value, dut.start.value, dut.active.value, dut.drained.value = dst, count, 1, 1, 0
    await FallingEdge(dut.clk)
    dut.start.value = 0
    digests = [rng.getrandbits(128) for _ in range(count)]
    delay = [0] * (SLACK - 2)
    sent = 0
    for clock in range(100000):
        await ReadOnly()
        room = bool(dut.room.value)
        await FallingEdge(dut.clk)
        arriving = delay.pop(0)
        left = count - sent - arriving - sum(delay)     # not yet issued
        issue = room and rng.random() < 0.8 and left > 0
        delay.append(rng.randint(1, min(LANES, left)) if issue else 0)
        if arriving:
            n = arriving
            dut.in_valid.value, dut.in_mask.value = 1, (1 << n) - 1
            dut.in_digest.value = sum(d << (128 * j) for j, d in enumerate(digests[sent:sent + n]))
            sent += n
        else:
            dut.in_valid.value = 0
        if sent == count and not any(delay):
            break
    await FallingEdge(dut.clk)
    dut.in_valid.value = 0
    dut.drained.value = 1
    for _ in range(2000):
        await FallingEdge(dut.clk)
        await ReadOnly()
        if dut.idle.value and not sink.pending:
            break
    await FallingEdge(dut.clk)
    dut.active.value = dut.drained.value = 0
    return digests


@cocotb.test()
async def digests_in_order_in_bursts(dut):
    for s in ("start", "active", "drained", "in_valid", "in_mask", "in_digest", "dst", "count"):
        getattr(dut, s).value = 0
    await start(dut)
    sink = WriteSink(dut, DATA_W, 5, ready_p=0.5)
    rng = random.Random(2)
    bb = DATA_W // 8
    for dst, count in ((0x1000 - 3 * bb, 301), (0x8000, 1), (0x9000 - bb, 2 * (DATA_W // 128) + 1), (0xA000, 64)):
        sink.mem.clear()
        ds = await job(dut, sink, dst, count, rng)
        got = [int.from_bytes(sink.read(dst + 16 * i, 16), "little") for i in range(count)]
        assert got == ds, "job at %x: digests" % dst
        outside = sorted(a for a in sink.mem if not dst <= a < dst + 16 * count)
        assert not outside, "job at %x, %d digests: written outside at %s; last beats %s" % (dst, count, [hex(a) for a in outside[:4]], [(hex(a), hex(b)) for a, b in sink.beats[-3:]])
