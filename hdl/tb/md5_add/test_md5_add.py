"""md5_add: random operands through each KIND, generic RTL and the Cyclone V
ALM-cell form (MD5ACC_MISTRAL, Yosys's own cell models), against Python."""
import ast
import os
import random

import cocotb
from cocotb.triggers import Timer

from md5model import MASK, f

P = ast.literal_eval(os.environ["BENCH_PARAMS"])


@cocotb.test()
async def random_operands(dut):
    rng = random.Random(P["KIND"])
    edge = [0, 1, MASK, 0x80000000, 0x7FFFFFFF]
    for n in range(3000):
        x, y, z, w = [rng.choice(edge) if n < 200 else rng.getrandbits(32) for _ in range(4)]
        dut.x.value, dut.y.value, dut.z.value, dut.w.value = x, y, z, w
        await Timer(1, unit="ns")
        if P["KIND"] < 4:
            want = (w + f(P["KIND"], x, y, z)) & MASK
        else:
            want = (x + y + P["K"]) & MASK
        got = int(dut.s.value)
        assert got == want, "x=%08x y=%08x z=%08x w=%08x: %08x, want %08x" % (x, y, z, w, got, want)
