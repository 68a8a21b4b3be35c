"""md5_step: random state and words through one registered step, against the
Python model (t carried one step early, the three sources of M)."""
import ast
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from md5model import step

P = ast.literal_eval(os.environ["BENCH_PARAMS"])


@cocotb.test()
async def random_states(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    rng = random.Random(P["STEP"])
    prev = None
    for _ in range(1000):
        await FallingEdge(dut.clk)
        ins = [rng.getrandbits(32) for _ in range(6)]
        dut.in_t.value, dut.in_b.value, dut.in_c.value, dut.in_d.value, dut.mn.value, dut.kmc.value = ins
        await RisingEdge(dut.clk)
        await ReadOnly()
        got = tuple(int(s.value) for s in (dut.out_t, dut.out_b, dut.out_c, dut.out_d))
        want = step(P["STEP"], *ins)
        assert got == want, "step %d, in %s: %s, want %s" % (P["STEP"], [hex(v) for v in ins],
                                                            [hex(v) for v in got], [hex(v) for v in want])
