"""md5acc_candgen: the groups it issues, rebuilt into messages, against
Python. Search: every value of START..START+COUNT-1 exactly once, in order,
big-endian in WIDTH bytes and padded, unaligned starts and ends masked,
widths 1..8, credit withheld at random; a stop in the middle. Hash: messages
unpacked from read beats (4- and 8-byte slots) with random gaps, a group never
spanning two beats. The job-constant words (kmc) for every width."""
import ast
import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from benchlib import be, padded_words, start
from md5model import kmc_int

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
N, DATA_W = P["NPIPE"], P["DATA_W"]
HASH_LANES = min(N, DATA_W // 128)


class Groups:
    def __init__(self, dut):
        self.got = []
        cocotb.start_soon(self.watch(dut))

    async def watch(self, dut):
        while True:
            await RisingEdge(dut.clk)
            await ReadOnly()
            if dut.out_valid.value:
                mask = int(dut.out_mask.value)
                m0, m1 = int(dut.out_m0.value), int(dut.out_m1.value)
                self.got.append([(m0 >> (32 * j) & 0xFFFFFFFF, m1 >> (32 * j) & 0xFFFFFFFF)
                                 for j in range(N) if mask >> j & 1])


async def job(dut, op, width, first, count, credit_p=0.8, stop_at=None, beats=None, seed=0):
    rng = random.Random(seed)
    await FallingEdge(dut.clk)
    dut.op.value, dut.width.value, dut.first_value.value, dut.count.value = op, width, first, count
    dut.start.value = 1
    await FallingEdge(dut.clk)
    dut.start.value = 0
    bi = 0
    for cyc in range(200000):
        dut.credit.value = int(rng.random() < credit_p)
        if stop_at is not None and cyc == stop_at:
            dut.stop.value = 1
        gap = rng.random() < 0.3
        if beats is not None:
            dut.rd_valid.value = int(bi < len(beats) and not gap)
            dut.rd_data.value = beats[bi] if bi < len(beats) else 0
        await ReadOnly()
        done = bool(dut.done.value)
        if beats is not None and dut.rd_pop.value:
            assert dut.rd_valid.value
            bi += 1
        await FallingEdge(dut.clk)
        dut.stop.value = 0
        if done:
            break
    for _ in range(3):
        await FallingEdge(dut.clk)
    return bi


@cocotb.test()
async def search_every_value_once(dut):
    for s in ("start", "op", "width", "first_value", "count", "stop", "credit", "rd_valid", "rd_data"):
        getattr(dut, s).value = 0
    g = Groups(dut)
    await start(dut)
    rng = random.Random(N)
    cases = [(4, 0, 1000), (5, 0x12345601, 37), (1, 200, 56), (8, 0xFFFFFFFFFFFFFFF0 - 5, 21), (3, 7, 1),
             (6, (1 << 40) - 3, 100), (2, 0, 0), (7, 0x0123456789ABCD, 64)]
    # the count's low bits plus the skipped lanes carry into the bits the
    # generator's `remaining` zero test covers (2^(bit_length(N) + 1))
    top = 1 << (N.bit_length() + 1)
    cases += [(4, N - 1, top - 1), (4, 1, top - 1), (4, N - 1, top - N + 1)]
    for width, first, count in cases:
        g.got.clear()
        await job(dut, 1, width, first, count, seed=rng.getrandbits(16))
        msgs = [w for grp in g.got for w in grp]
        want = [padded_words(be(first + i, width)) for i in range(count)]
        assert msgs == want, "width %d from %x: %d messages, want %d" % (width, first, len(msgs), count)
        assert len(g.got) == (0 if count == 0 else ((first % N) + count + N - 1) // N), "aligned groups"
        assert int(dut.kmc.value) == kmc_int(width)
    # stop in the middle: a prefix, then nothing
    g.got.clear()
    await job(dut, 1, 4, 0, 100000, credit_p=1.0, stop_at=50)
    msgs = [w for grp in g.got for w in grp]
    assert 0 < len(msgs) < 100000 and msgs == [padded_words(be(i, 4)) for i in range(len(msgs))]
    assert dut.done.value


@cocotb.test()
async def hash_messages_from_beats(dut):
    for s in ("start", "op", "width", "first_value", "count", "stop", "credit", "rd_valid", "rd_data"):
        getattr(dut, s).value = 0
    g = Groups(dut)
    await start(dut)
    rng = random.Random(7)
    for width, count in ((4, 301), (8, 77), (1, 16), (5, 3), (4, 1)):
        slot = 8 if width > 4 else 4
        msgs = [bytes(rng.getrandbits(8) for _ in range(width)) for _ in range(count)]
        raw = b"".join(m + bytes(rng.getrandbits(8) for _ in range(slot - width)) for m in msgs)
        bb = DATA_W // 8
        raw += bytes(-len(raw) % bb)
        beats = [int.from_bytes(raw[i:i + bb], "little") for i in range(0, len(raw), bb)]
        g.got.clear()
        popped = await job(dut, 0, width, 0, count, beats=beats, seed=width)
        got = [w for grp in g.got for w in grp]
        assert got == [padded_words(m) for m in msgs], "hash width %d" % width
        assert popped == len(beats), "every beat popped once"
        assert all(len(grp) <= HASH_LANES for grp in g.got)
