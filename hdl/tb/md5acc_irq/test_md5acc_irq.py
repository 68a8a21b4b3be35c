"""md5acc_irq: set events and held conditions, write-1-to-clear, a set
winning over its clear in the same clock, masking by the enables."""
import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from benchlib import start


async def clock(dut, set_=0, clear=None, enable=None):
    await FallingEdge(dut.clk)
    dut.set.value = set_
    dut.clear.value = int(clear is not None)
    dut.clear_mask.value = clear or 0
    dut.enable_we.value = int(enable is not None)
    dut.enable_in.value = enable or 0
    await FallingEdge(dut.clk)
    dut.set.value = 0
    dut.clear.value = 0
    dut.enable_we.value = 0
    await ReadOnly()
    return int(dut.status.value), int(dut.enable.value), int(dut.irq.value)


@cocotb.test()
async def set_clear_mask(dut):
    for s in ("set", "clear", "clear_mask", "enable_we", "enable_in"):
        getattr(dut, s).value = 0
    await start(dut)
    assert await clock(dut) == (0, 0, 0)
    assert await clock(dut, set_=0b001) == (0b001, 0, 0), "DONE pending, masked"
    assert await clock(dut, enable=0b110) == (0b001, 0b110, 0), "other bits enabled: line low"
    assert await clock(dut, set_=0b100) == (0b101, 0b110, 1), "MATCH enabled: line high"
    assert await clock(dut, clear=0b100) == (0b001, 0b110, 0), "W1C of MATCH"
    assert await clock(dut, set_=0b010, clear=0b010) == (0b011, 0b110, 1), "set wins over clear"
    assert await clock(dut, clear=0b111) == (0, 0b110, 0)
    # a held condition comes back after each clear
    await FallingEdge(dut.clk)
    dut.set.value = 0b100
    for _ in range(3):
        await FallingEdge(dut.clk)
        dut.clear.value = 1
        dut.clear_mask.value = 0b100
        await FallingEdge(dut.clk)
        dut.clear.value = 0
        await ReadOnly()
        assert int(dut.status.value) == 0b100 and dut.irq.value == 1
    await FallingEdge(dut.clk)
    dut.set.value = 0
    assert await clock(dut, clear=0b100) == (0, 0b110, 0)
    # reset clears status and enables
    await clock(dut, set_=0b011, enable=0b011)
    await FallingEdge(dut.clk)
    dut.rst.value = 1
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    await ReadOnly()
    assert int(dut.status.value) == 0 and int(dut.enable.value) == 0 and dut.irq.value == 0
