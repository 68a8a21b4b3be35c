"""A model of the write DMA's command/data side for the benches of the
modules that feed it (md5acc_match_writer, md5acc_hash_sink): takes commands
and beats with random readiness and writes the strobed bytes into a dict."""
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly


class WriteSink:
    def __init__(self, dut, data_w, seed, ready_p=0.6):
        self.dut, self.bytes, self.rng, self.p = dut, data_w // 8, random.Random(seed), ready_p
        self.mem = {}
        self.bursts = []          # (addr, beats)
        self.pending = []         # commands whose beats are not all in
        self.beats = []           # (addr, strobes)
        self.on_beat = None
        cocotb.start_soon(self.run())

    async def run(self):
        d = self.dut
        while True:
            await FallingEdge(d.clk)
            d.wcmd_ready.value = int(self.rng.random() < self.p)
            d.wdata_ready.value = int(self.rng.random() < self.p and bool(self.pending))
            await ReadOnly()
            if d.wcmd_valid.value and d.wcmd_ready.value:
                a, n = int(d.wcmd_addr.value), int(d.wcmd_len.value) + 1
                assert a % self.bytes == 0 and n <= 16 and a // 4096 == (a + n * self.bytes - 1) // 4096, (hex(a), n)
                self.bursts.append((a, n))
                self.pending.append([a, n])
            if d.wdata_valid.value and d.wdata_ready.value:
                a, n = self.pending[0]
                data, strb = int(d.wdata.value), int(d.wstrb.value)
                self.beats.append((a, strb))
                for j in range(self.bytes):
                    if strb >> j & 1:
                        self.mem[a + j] = data >> (8 * j) & 0xFF
                self.pending[0] = [a + self.bytes, n - 1]
                if n == 1:
                    self.pending.pop(0)
                if self.on_beat:
                    self.on_beat()

    def read(self, addr, n):
        return bytes(self.mem.get(addr + i, 0) for i in range(n))
