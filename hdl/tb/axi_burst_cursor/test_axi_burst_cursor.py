"""axi_burst_cursor against the rule it implements, every clock: the next
burst is min(MAX_BURST, beats to the next 4 KiB boundary, beats left), for
loads at addresses all over the page (most near its end) and counts on both
sides of the 2 x MAX_BURST bound and up to 2^64 - 1, advances by the whole
length or less, back to back or after pauses, loads in the middle of a
transfer; len_ok is low exactly the clock after a load or an advance."""
import ast
import os
import random

import cocotb
from cocotb.triggers import FallingEdge

from benchlib import start

P = ast.literal_eval(os.environ["BENCH_PARAMS"])
BYTES = P["BYTES"]
MAX_BURST = 16
PAGE_BEATS = 4096 // BYTES


def next_len(addr, left):
    return min(MAX_BURST, PAGE_BEATS - (addr % 4096) // BYTES, left)


def random_load(rng):
    page = rng.randrange(1 << 20) * 4096
    idx = PAGE_BEATS - rng.randint(1, 2 * MAX_BURST + 2) if rng.random() < 0.7 else rng.randrange(PAGE_BEATS)
    beats = rng.choice((0, 1, rng.randint(2, 2 * MAX_BURST + 2), 2 * MAX_BURST - 1, 2 * MAX_BURST,
                        2 * MAX_BURST + 1, rng.randint(33, 5000), rng.randrange(1 << 64), (1 << 64) - 1))
    return page + idx * BYTES, beats


@cocotb.test()
async def next_burst_every_clock(dut):
    dut.load.value = dut.advance.value = dut.adv_len.value = 0
    dut.load_addr.value = dut.load_beats.value = 0
    await start(dut)
    rng = random.Random(P["BYTES"])
    addr, left, changed = 0, 0, False     # the model (reset); changed: a load or an advance the clock before
    loads = advances = partial = 0
    for _ in range(40000):
        await FallingEdge(dut.clk)
        ok = bool(dut.len_ok.value)
        assert ok == (not changed), "len_ok %d the clock after a change: %s" % (ok, changed)
        assert (int(dut.addr.value), int(dut.left.value)) == (addr, left)
        n = int(dut.len.value)
        if ok:
            assert n == next_len(addr, left), "at %x, %d left: len %d" % (addr, left, n)
        load = rng.random() < (0.05 if left else 0.5)
        advance = not load and ok and n > 0 and rng.random() < 0.7
        dut.load.value, dut.advance.value = int(load), int(advance)
        if load:
            addr, left = random_load(rng)
            dut.load_addr.value, dut.load_beats.value = addr, left
            loads += 1
        elif advance:
            k = n if rng.random() < 0.6 else rng.randint(1, n)
            dut.adv_len.value = k
            addr, left = (addr + k * BYTES) % (1 << 32), left - k
            advances += 1
            partial += k < n
        changed = load or advance
    assert loads > 500 and advances > 5000 and partial > 1000, (loads, advances, partial)
