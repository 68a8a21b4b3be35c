#!/usr/bin/env python3
"""Checks the compiled DE10-Nano device tree, read back with fdtget.

usage: check_dtb.py DTB

The accelerator's node against what the driver binds to (the UAPI header's
FPGAMR_OF_COMPATIBLE) and hdl/regmap/md5acc.json's platform section; the rest
against hand-typed board and SoC facts, each with its source.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
REGMAP = os.path.join(ROOT, "hdl", "regmap", "md5acc.json")
UAPI = os.path.join(ROOT, "kernel", "include", "uapi", "linux", "fpgamr.h")

# Cyclone V HPS TRM, "Interrupts": FPGA-to-HPS interrupt 0 is GIC SPI 40; GIC level-high = 4
F2H_IRQ0_SPI, IRQ_TYPE_LEVEL_HIGH = 40, 4
# Terasic DE10-Nano User Manual: 1 GB DDR3 on the HPS; Cyclone V HPS TRM: the SDRAM at 0
# (U-Boot 2023.01 socfpga_cyclone5_de10_nano.dts: reg = <0x0 0x40000000>)
MEMORY = [0x0, 0x40000000]
# Linux 6.1 arch/arm/boot/dts/socfpga.dtsi: the SDRAM controller's syscon and the bridges
SDR = ("altr,sdr-ctl", [0xFFC25000, 0x1000])
LW_BRIDGE = ("/soc/fpga_bridge@ff400000", "altr,socfpga-lwhps2fpga-bridge")
F2SDRAM_BRIDGE = ("/soc/fpga_bridge@ffc25080", "altr,socfpga-fpga2sdram-bridge", [0xFFC25080, 0x4])
# the accelerator's CMA pool: 64 MiB, 4 MiB aligned (deploy/board/README.md, "Device tree")
CMA = ("shared-dma-pool", 0x4000000, 0x400000)
GIC = "arm,cortex-a9-gic"
SOC = "altr,socfpga-cyclone5"

failed = 0


def fdtget(dtb, node, prop, kind="s"):
    p = subprocess.run(["fdtget", "-t", kind, dtb, node, prop], capture_output=True, text=True)
    if p.returncode:
        return None
    out = p.stdout.strip()
    return [int(x) for x in out.split()] if kind == "u" else out


def nodes(dtb, path):
    p = subprocess.run(["fdtget", "-l", dtb, path], capture_output=True, text=True)
    return p.stdout.split() if p.returncode == 0 else []


def phandle_node(dtb, phandle):
    for top in [""] + ["/" + n for n in nodes(dtb, "/")]:
        for n in [top] + [top + "/" + c for c in nodes(dtb, top or "/")]:
            if fdtget(dtb, n or "/", "phandle", "u") == [phandle]:
                return n
    return None


def check(what, got, want):
    global failed
    ok = got == want
    failed += not ok
    show = lambda v: " ".join("0x%x" % x for x in v) if isinstance(v, list) else repr(v)
    print("%s %-44s %s%s" % ("ok  " if ok else "FAIL", what, show(got),
                             "" if ok else " (expected %s)" % show(want)))


def main(argv):
    if len(argv) != 2:
        print("usage: check_dtb.py DTB", file=sys.stderr)
        return 2
    dtb = argv[1]
    with open(REGMAP) as f:
        rm = json.load(f)
    with open(UAPI) as f:
        compatible = re.search(r'#define\s+FPGAMR_OF_COMPATIBLE\s+"([^"]+)"', f.read()).group(1)
    base = int(rm["platform"]["regs_base"], 16)
    acc = "/soc/md5acc@%x" % base

    check("/ compatible has", SOC in (fdtget(dtb, "/", "compatible") or "").split(), True)
    check("/memory reg", fdtget(dtb, "/memory", "reg", "u"), MEMORY)
    check(acc + " compatible", fdtget(dtb, acc, "compatible"), compatible)
    check(acc + " reg", fdtget(dtb, acc, "reg", "u"), [base, rm["window_bytes"]])
    check(acc + " interrupts", fdtget(dtb, acc, "interrupts", "u"),
          [0, F2H_IRQ0_SPI + rm["platform"]["f2h_irq"], IRQ_TYPE_LEVEL_HIGH])
    parent = fdtget(dtb, acc, "interrupt-parent", "u") or fdtget(dtb, "/soc", "interrupt-parent", "u")
    gic = phandle_node(dtb, parent[0]) if parent else None
    check(acc + " interrupt parent", fdtget(dtb, gic, "compatible") if gic else None, GIC)
    region = fdtget(dtb, acc, "memory-region", "u")
    cma = phandle_node(dtb, region[0]) if region else None
    check(acc + " memory-region in", cma.rsplit("/", 1)[0] if cma else None, "/reserved-memory")
    if cma:
        check(cma + " compatible", fdtget(dtb, cma, "compatible"), CMA[0])
        check(cma + " reusable", fdtget(dtb, cma, "reusable") is not None, True)
        check(cma + " size", fdtget(dtb, cma, "size", "u"), [CMA[1]])
        check(cma + " alignment", fdtget(dtb, cma, "alignment", "u"), [CMA[2]])
    sdr = [("/soc/" + n) for n in nodes(dtb, "/soc") if fdtget(dtb, "/soc/" + n, "compatible") == SDR[0] + " syscon"]
    check("the altr,sdr-ctl syscon's reg", fdtget(dtb, sdr[0], "reg", "u") if len(sdr) == 1 else sdr, SDR[1])
    check(LW_BRIDGE[0] + " compatible", fdtget(dtb, LW_BRIDGE[0], "compatible"), LW_BRIDGE[1])
    check(LW_BRIDGE[0] + " status", fdtget(dtb, LW_BRIDGE[0], "status"), "okay")
    check(F2SDRAM_BRIDGE[0] + " compatible", fdtget(dtb, F2SDRAM_BRIDGE[0], "compatible"), F2SDRAM_BRIDGE[1])
    check(F2SDRAM_BRIDGE[0] + " reg", fdtget(dtb, F2SDRAM_BRIDGE[0], "reg", "u"), F2SDRAM_BRIDGE[2])
    check(F2SDRAM_BRIDGE[0] + " status", fdtget(dtb, F2SDRAM_BRIDGE[0], "status"), "okay")
    print("board dtb: %d checks failed" % failed if failed else "board dtb: all checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
