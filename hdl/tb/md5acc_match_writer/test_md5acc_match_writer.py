"""md5acc_match_writer: records arrive with random gaps, the write side is
ready at random, and a slow host consumes the ring and acknowledges late:
every record lands at dst + 32 * (i % cap) in the record layout, none is
written while the ring is full (the writer waits, `full` says so), and a new
job starts an empty ring; a ring of 12 records and a ring of one."""
import ast
import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from benchlib import start
from wrsink import WriteSink

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
DST = 0x10000


@cocotb.test()
async def ring_with_a_slow_host(dut):
    await ring(dut, 12)


@cocotb.test()
async def ring_of_one(dut):
    await ring(dut, 1)


async def ring(dut, CAP):
    for s in ("start", "in_valid", "in_value", "in_digest", "host_ack", "wcmd_ready", "wdata_ready"):
        getattr(dut, s).value = 0
    dut.dst.value, dut.cap.value = DST, CAP
    await start(dut)
    sink = WriteSink(dut, P["DATA_W"], 3)
    rng = random.Random(1)
    recs = [(rng.getrandbits(64), rng.getrandbits(128)) for _ in range(100)]
    taken, acked, saw_full = [], 0, False
    written = [0]
    sink.on_beat = lambda: written.__setitem__(0, written[0] + 1)
    beats_per_rec = 2 if P["DATA_W"] == 128 else 1
    await FallingEdge(dut.clk)
    dut.start.value = 1
    await FallingEdge(dut.clk)
    dut.start.value = 0
    i = 0
    for clock in range(20000):
        if i < len(recs) and rng.random() < 0.7:
            dut.in_valid.value, dut.in_value.value, dut.in_digest.value = 1, recs[i][0], recs[i][1]
        else:
            dut.in_valid.value = 0
        # the host: every 150 clocks it takes what is in memory and acknowledges
        if clock % 150 == 149:
            done = written[0] // beats_per_rec
            for k in range(acked, done):
                at = DST + 32 * (k % CAP)
                rec = sink.read(at, 32)
                taken.append((int.from_bytes(rec[0:8], "little"), int.from_bytes(rec[16:32], "little")))
                assert rec[8:16] == bytes(8)
            acked = done
            dut.host_ack.value = acked
        await ReadOnly()
        saw_full |= bool(dut.full.value)
        assert int(dut.issued.value) - acked <= CAP, "never more than cap records ahead"
        if dut.in_valid.value and dut.in_ready.value:
            i += 1
        await FallingEdge(dut.clk)
        if len(taken) == len(recs):
            break
    assert taken == recs, "%d of %d records, in order" % (len(taken), len(recs))
    assert saw_full, "the writer waited for the host"
    assert all(a in [DST + 32 * k for k in range(CAP)] or P["DATA_W"] == 512 for a, _ in sink.bursts)
    # a new job: the ring starts empty at dst again
    dut.dst.value = DST + 0x1000
    dut.start.value = 1
    await FallingEdge(dut.clk)
    dut.start.value = 0
    dut.host_ack.value = 0
    dut.in_valid.value, dut.in_value.value, dut.in_digest.value = 1, 42, 43
    await ReadOnly()
    assert not dut.full.value and int(dut.issued.value) == 0
    await FallingEdge(dut.clk)
    dut.in_valid.value = 0
    for _ in range(20):
        await FallingEdge(dut.clk)
    assert sink.read(DST + 0x1000, 8) == (42).to_bytes(8, "little")
