"""reset_sync: the reset asserted at once by h2f_reset or a PLL out of lock
(between clock edges, with no edge at all), released exactly STAGES rising
edges after the last cause clears, only on a rising edge; a cause returning
during the count starts it again."""
import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge, Timer

STAGES = eval(os.environ.get("BENCH_PARAMS", "{}")).get("STAGES", 3)


async def release_edges(dut):
    """Rising edges of clk until rst falls; checks it falls only just after one."""
    edges = 0
    while True:
        await RisingEdge(dut.clk)
        edges += 1
        await ReadOnly()
        if dut.rst.value == 0:
            return edges
        assert edges < 100, "reset never released"


@cocotb.test()
async def held_until_locked(dut):
    dut.arst_n.value = 1
    dut.locked.value = 0
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    await ClockCycles(dut.clk, 20)
    await ReadOnly()
    assert dut.rst.value == 1, "released while the PLL is not locked"
    await FallingEdge(dut.clk)
    dut.locked.value = 1
    assert await release_edges(dut) == STAGES


@cocotb.test()
async def asserted_without_clock_edge(dut):
    """h2f_reset, then the lock lost, each mid-cycle: rst rises before the next edge."""
    dut.arst_n.value = 1
    dut.locked.value = 1
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    await release_edges(dut)
    for sig, val in (("arst_n", 0), ("locked", 0)):
        await RisingEdge(dut.clk)
        await Timer(3, unit="ns")
        getattr(dut, sig).value = val
        await Timer(1, unit="ns")
        assert dut.rst.value == 1, "%s did not assert the reset at once" % sig
        await ClockCycles(dut.clk, 5)
        await ReadOnly()
        assert dut.rst.value == 1, "%s held: the reset must stay" % sig
        await FallingEdge(dut.clk)
        getattr(dut, sig).value = 1 - val
        assert await release_edges(dut) == STAGES


@cocotb.test()
async def both_causes_and_a_glitch(dut):
    """Released only when both causes have gone; a lock lost during the count restarts it."""
    dut.arst_n.value = 0
    dut.locked.value = 0
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.locked.value = 1
    await ClockCycles(dut.clk, 10)
    await ReadOnly()
    assert dut.rst.value == 1, "released while h2f_reset is held"
    await FallingEdge(dut.clk)
    dut.arst_n.value = 1
    await ClockCycles(dut.clk, STAGES - 1)
    await FallingEdge(dut.clk)
    dut.locked.value = 0
    await Timer(1, unit="ns")
    dut.locked.value = 1
    assert await release_edges(dut) == STAGES, "the count did not start again after the glitch"
    # and stays released
    await ClockCycles(dut.clk, 20)
    await ReadOnly()
    assert dut.rst.value == 0
