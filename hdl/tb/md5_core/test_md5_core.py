"""md5_core: RFC 1321 digests of one-block messages up to 8 bytes and random
messages of every width, one per clock and with gaps, LATENCY = 65; generic
RTL and the Cyclone V ALM-cell form. The ALM form (Yosys's cell models, some
ten times slower on Icarus) gets fewer messages and widths: its adders are
checked kind by kind in md5_add's bench, here only that the core wires them
up (the widths differ only in kmc, the same logic in both forms)."""
import ast
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly

from benchlib import digest_int, padded_words
from md5model import kmc_int

LATENCY = 65
ALM = "MD5ACC_MISTRAL" in ast.literal_eval(os.environ["BENCH_DEFINES"])
WIDTHS, PER_WIDTH = ((3, 4, 8), 24) if ALM else (range(1, 9), 150)
RFC = {b"": "d41d8cd98f00b204e9800998ecf8427e", b"a": "0cc175b9c0f1b6a831c399e269772661",
       b"abc": "900150983cd24fb0d6963f7d28e17f72"}


async def run_width(dut, msgs, width, gaps):
    """Feeds msgs (all of `width` bytes) one per clock (or with random gaps)
    and checks each digest exactly LATENCY clocks after its message."""
    await FallingEdge(dut.clk)
    dut.kmc.value = kmc_int(width)
    rng = random.Random(width)
    sched = []              # (clock the message went in, message)
    clock = 0
    queue = list(msgs)
    expect = {}
    while queue or any(c + LATENCY >= clock for c in expect):
        await FallingEdge(dut.clk)
        if queue and not (gaps and rng.random() < 0.3):
            m = queue.pop(0)
            m0, m1 = padded_words(m)
            dut.in_m0.value, dut.in_m1.value = m0, m1
            expect[clock] = m
        else:
            dut.in_m0.value, dut.in_m1.value = rng.getrandbits(32), rng.getrandbits(32)
        await ReadOnly()
        c = clock - LATENCY
        if c in expect:
            m = expect.pop(c)
            assert dut.out_digest.value.is_resolvable, "MD5(%s) at clock %d: %s" % (m.hex(), clock, dut.out_digest.value)
            got = int(dut.out_digest.value)
            assert got == digest_int(m), "MD5(%s): %032x, want %032x" % (m.hex(), got, digest_int(m))
            sched.append(m)
        clock += 1
    return len(sched)


@cocotb.test()
async def rfc_vectors_then_every_width(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for m, hexd in RFC.items():
        assert digest_int(m) == int.from_bytes(bytes.fromhex(hexd), "little")
        assert await run_width(dut, [m], len(m), False) == 1
    # back to back (odd widths) and with random gaps (even widths)
    rng = random.Random(1)
    for w in WIDTHS:
        msgs = [bytes(rng.getrandbits(8) for _ in range(w)) for _ in range(PER_WIDTH)]
        assert await run_width(dut, msgs, w, gaps=(w % 2 == 0)) == PER_WIDTH
