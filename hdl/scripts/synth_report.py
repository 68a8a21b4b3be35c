#!/usr/bin/env python3
"""Turn Yosys `stat` logs (synth_intel_alm, flattened) into the resource
report hdl/build/synth-report.md for the 5CSEBA6 (41,910 ALMs, 553 M10K).

    synth_report.py OUT.md build/synth-p1.log build/synth-p2.log ...

Yosys does not pack ALMs; the ALM figure is an estimate: one ALM holds one
6-input LUT, or two smaller LUTs, or two bits of carry-chain arithmetic, and
up to four registers; an MLAB 32x1 cell is half an ALM (20 of them fill a
10-ALM LAB). "upper" counts every LUT as a whole ALM.
"""
import math
import re
import sys

DEVICE_ALMS = 41910
DEVICE_M10K = 553
DEVICE_REGS = 4 * DEVICE_ALMS
FIT_GOAL = 0.85


def parse(path):
    cells = {}
    text = open(path).read()
    # the last stat block of the log is the flattened design
    block = text[text.rfind("Number of cells"):]
    for m in re.finditer(r"^\s+(MISTRAL_\w+)\s+(\d+)\s*$", block, re.M):
        cells[m.group(1)] = cells.get(m.group(1), 0) + int(m.group(2))
    t = re.search(r"Time spent:|CPU: user ([\d.]+)s", text)
    cpu = re.findall(r"CPU: user ([\d.]+)s", text)
    return cells, float(cpu[-1]) if cpu else float("nan")


def main():
    out = sys.argv[1]
    rows = []
    for path in sys.argv[2:]:
        n = int(re.search(r"p(\d+)", path.split("/")[-1]).group(1))
        c, cpu = parse(path)
        small = sum(c.get("MISTRAL_ALUT%d" % k, 0) for k in (2, 3, 4, 5)) + c.get("MISTRAL_NOT", 0)
        lut6 = c.get("MISTRAL_ALUT6", 0)
        arith = c.get("MISTRAL_ALUT_ARITH", 0)
        mlab = c.get("MISTRAL_MLAB", 0)
        ff = c.get("MISTRAL_FF", 0)
        m10k = c.get("MISTRAL_M10K", 0)
        logic = lut6 + math.ceil(small / 2) + math.ceil(arith / 2) + math.ceil(mlab / 2)
        est = max(logic, math.ceil(ff / 4))
        upper = max(lut6 + small + math.ceil(arith / 2) + math.ceil(mlab / 2), math.ceil(ff / 4))
        rows.append((n, lut6 + small, arith, ff, mlab, m10k, est, upper, cpu))
    lines = ["# md5acc synthesis report (Yosys synth_intel_alm -family cyclonev)", "",
             "Target: 5CSEBA6U23I7 (DE10-Nano), %d ALMs, %d M10K blocks. ALMs are estimated "
             "from Yosys cells (Yosys does not pack ALMs; Quartus will report the real figure): "
             "est = 6-LUTs + smaller LUTs/2 + carry bits/2 + MLAB cells/2, at least registers/4; "
             "upper = every LUT a whole ALM. Goal: >= 4 pipelines with their DMA in %d%% of the part."
             % (DEVICE_ALMS, DEVICE_M10K, int(FIT_GOAL * 100)), "",
             "| pipelines | LUTs | carry bits | registers | MLAB cells | M10K | ALMs (est) | % of part | ALMs (upper) | fits 85% (est) | yosys CPU s |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for n, luts, arith, ff, mlab, m10k, est, upper, cpu in rows:
        lines.append("| %d | %d | %d | %d | %d | %d | %d | %.1f%% | %d | %s | %.0f |"
                     % (n, luts, arith, ff, mlab, m10k, est, 100.0 * est / DEVICE_ALMS, upper,
                        "yes" if est <= FIT_GOAL * DEVICE_ALMS and m10k <= DEVICE_M10K else "no", cpu))
    text = "\n".join(lines) + "\n"
    with open(out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
