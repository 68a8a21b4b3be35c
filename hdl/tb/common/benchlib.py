"""Shared helpers of the cocotb benches (tb/*/test_*.py): clock and reset,
random pause generators for cocotbext-axi channels, and the software MD5
the digests are checked against (hashlib)."""
import hashlib
import itertools
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, ReadOnly


async def start(dut, rst="rst", cycles=4):
    """Starts a 10 ns clock on dut.clk and holds the reset for `cycles`."""
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    if rst:
        getattr(dut, rst).value = 1
        await ClockCycles(dut.clk, cycles)
        getattr(dut, rst).value = 0
    await RisingEdge(dut.clk)


def pauses(seed, percent=25):
    """An endless random pause pattern (True = pause) for set_pause_generator."""
    rng = random.Random(seed)
    return (rng.random() < percent / 100.0 for _ in itertools.count())


def md5(msg):
    return hashlib.md5(bytes(msg)).digest()


def be(value, width):
    """value encoded big-endian in width bytes (the project's messages)."""
    return (value & ((1 << (8 * width)) - 1)).to_bytes(width, "big")


def digest_int(msg):
    """MD5 of msg as the RTL's 128-bit vector (digest byte j at bits 8j+7:8j)."""
    return int.from_bytes(md5(msg), "little")


def padded_words(msg):
    """Block words 0 and 1 of a message of at most 8 bytes (RFC 1321 padding)."""
    b = bytes(msg) + b"\x80" + bytes(8)
    return int.from_bytes(b[0:4], "little"), int.from_bytes(b[4:8], "little")


async def settle(dut):
    await ReadOnly()
