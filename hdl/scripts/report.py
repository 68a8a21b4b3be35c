#!/usr/bin/env python3
"""The accelerator's figures, from the Yosys Cyclone V estimates
(build/synth-cv-pN-wW.log) and the proxy place-and-route reports
(build/pnr-PART-pN-wW.json, nextpnr). Configurations are NPIPE-DATA_W; a
route is CONFIG:PART, PART one of PARTS.

    report.py --check-fit 8-256          exit 1 unless it fits FIT_GOAL of the part
    report.py --synth-table 1-256 8-256  build/synth-report.md
    report.py --check-timing 1-256:ecp5  exit 1 unless Fmax >= the design clock
    report.py --report 1-256 8-256 --routes 1-256:ecp5 8-256:gw5a [--readme README.md]
                                         build/report.json, build/report.md, and the
                                         README's tables between its report markers

ALMs: Yosys does not pack ALMs, so they are estimated from its cells: an ALM
holds one 6-input LUT, or two smaller LUTs, or two bits of carry-chain
arithmetic (MISTRAL_ALUT_ARITH, the adders with the logic in front of them
folded in, rtl/md5_add.v), and up to four registers; an MLAB cell is half an
ALM. est = 6-LUTs + smaller LUTs/2 + arithmetic cells/2 + MLAB cells/2, at
least registers/4; upper (pessimistic) counts every LUT as a whole ALM.
Standard library only.
"""
import argparse
import json
import math
import os
import re
import sys

HDL_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICE = "5CSEBA6U23I7"
DEVICE_ALMS = 41910
DEVICE_M10K = 553
FIT_GOAL = 0.85
# The proxy parts of the place-and-route (README, "Timing"): neither is a
# Cyclone V; `util` names the nextpnr report's resources worth printing.
PARTS = {
    "ecp5": {"part": "LFE5U-85F-6 CABGA756 (proxy: nextpnr-ecp5, not Cyclone V)",
             "short": "LFE5U-85F-6 (proxy)", "util": ("TRELLIS_COMB", "TRELLIS_FF", "DP16KD")},
    "gw5a": {"part": "GW5AST-LV138FPG676AC1/I0 (proxy: nextpnr-himbaechel gowin, not Cyclone V)",
             "short": "GW5AST-138 C1/I0 (proxy)", "util": ("LUT4", "ALU", "DFF", "BSRAM")},
}
# The board's power for the modelled transformations per joule: the thesis's
# ARM-FPGA node (seed 000, section 9.1.3) hashed 2^28 values at a TpW of
# 1306.98 in 32,317 s, i.e. 2^28 / 1306.98 J / 32,317 s = 6.36 W on average.
BOARD_W = 2 ** 28 / 1306.98 / 32317
BOARD_W_SOURCE = ("the thesis's ARM-FPGA node (seed 000, section 9.1.3): 2^28 transformations "
                  "at 1306.98 per joule over 32,317 s = %.2f W average" % BOARD_W)
# Hash path bandwidth model (README): each value moves its message in (4-byte
# slot, widths 1..4) and its 16-byte digest out. The FPGA-to-SDRAM port
# carries DATA_W bits per clock each way; the DE10-Nano's HPS DDR3 (32 bits
# at 400 MHz, double data rate) peaks at 3.2 GB/s for reads and writes together.
DDR_BYTES_PER_S = 3.2e9
HASH_BYTES_PER_VALUE = 4 + 16


def design():
    with open(os.path.join(HDL_DIR, "regmap", "md5acc.json")) as f:
        return json.load(f)["design"]


def split(cfg):
    n, w = cfg.split("-")
    return int(n), int(w)


def synth_figures(build, cfg):
    n, w = split(cfg)
    path = os.path.join(build, "synth-cv-p%d-w%d.log" % (n, w))
    text = open(path).read()
    block = text[text.rfind("=== md5acc_top ==="):]
    cells = {}
    for m in re.finditer(r"^\s+(\d+)\s+(MISTRAL_\w+)\s*$", block, re.M):
        cells[m.group(2)] = cells.get(m.group(2), 0) + int(m.group(1))
    for m in re.finditer(r"^\s+(MISTRAL_\w+)\s+(\d+)\s*$", block, re.M):
        cells[m.group(1)] = cells.get(m.group(1), 0) + int(m.group(2))
    if not cells:
        raise SystemExit("%s: no cell counts (Yosys stat) found" % path)
    small = sum(cells.get("MISTRAL_ALUT%d" % k, 0) for k in (2, 3, 4, 5)) + cells.get("MISTRAL_NOT", 0)
    lut6 = cells.get("MISTRAL_ALUT6", 0)
    arith = cells.get("MISTRAL_ALUT_ARITH", 0)
    mlab = cells.get("MISTRAL_MLAB", 0)
    ff = cells.get("MISTRAL_FF", 0)
    m10k = cells.get("MISTRAL_M10K", 0)
    half = math.ceil(arith / 2) + math.ceil(mlab / 2)
    est = max(lut6 + math.ceil(small / 2) + half, math.ceil(ff / 4))
    upper = max(lut6 + small + half, math.ceil(ff / 4))
    return {"pipelines": n, "data_w": w, "alms_est": est, "alms_upper": upper,
            "alm_fraction": round(est / DEVICE_ALMS, 4), "alm_fraction_upper": round(upper / DEVICE_ALMS, 4),
            "registers": ff, "m10k": m10k, "luts": lut6 + small, "arith_cells": arith, "mlab_cells": mlab}


def usage_error(msg):
    print("report.py: " + msg, file=sys.stderr)
    sys.exit(2)


def split_route(route):
    cfg, _, part = route.partition(":")
    if part not in PARTS:
        usage_error("%s: a route is CONFIG:PART, PART one of %s" % (route, ", ".join(PARTS)))
    return cfg, part


def timing_figures(build, route):
    cfg, part = split_route(route)
    n, w = split(cfg)
    path = os.path.join(build, "pnr-%s-p%d-w%d.json" % (part, n, w))
    rep = json.load(open(path))
    clocks = {k: v for k, v in rep.get("fmax", {}).items() if "clk" in k}
    if not clocks:
        raise SystemExit("%s: no clock in the nextpnr report" % path)
    fmax = min(v["achieved"] for v in clocks.values())
    util = rep.get("utilization", {})
    used = {k: util[k]["used"] for k in PARTS[part]["util"] if k in util}
    avail = {k: util[k]["available"] for k in used}
    return {"fmax_mhz": round(fmax, 2), "timing_part": PARTS[part]["part"], "timing_part_key": part,
            "route_used": used, "route_available": avail}


def rates(row, clock_mhz):
    if row["fmax_mhz"] is None:     # not routed: no rate without a clock the route supports
        return {"design_clock_mhz": clock_mhz, "hash_lanes": min(row["pipelines"], row["data_w"] // 128)}
    n, w, fmax = row["pipelines"], row["data_w"], row["fmax_mhz"]
    lanes = min(n, w // 128)
    search = n * fmax * 1e6
    hash_clock = lanes * fmax * 1e6
    hash_ddr = DDR_BYTES_PER_S / HASH_BYTES_PER_VALUE
    hashv = min(hash_clock, hash_ddr)
    return {"design_clock_mhz": clock_mhz, "hash_lanes": lanes,
            "search_values_per_s": round(search),
            "hash_values_per_s": round(hashv),
            "hash_bound": "HPS DDR3 (3.2 GB/s peak, 20 bytes per value)" if hash_ddr < hash_clock
                          else "hash lanes x Fmax",
            "search_tpj_modelled": round(search / BOARD_W),
            "hash_tpj_modelled": round(hashv / BOARD_W)}


def md_table(rows):
    head = ["pipelines", "data_w", "alms_est", "alms_upper", "alm_fraction", "registers", "m10k",
            "fmax_mhz", "timing_part", "search_values_per_s", "hash_values_per_s",
            "search_tpj_modelled", "hash_tpj_modelled"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = []
        for h in head:
            v = r.get(h, "")
            if r.get("fmax_mhz") is None and h in ("fmax_mhz", "timing_part", "search_values_per_s",
                                                  "hash_values_per_s", "search_tpj_modelled",
                                                  "hash_tpj_modelled"):
                v = "not routed" if h == "fmax_mhz" else "-"
            elif h == "timing_part":
                v = PARTS[r["timing_part_key"]]["short"]
            elif h == "alm_fraction":
                v = "%.1f%%" % (100 * v)
            elif h in ("search_values_per_s", "hash_values_per_s", "search_tpj_modelled", "hash_tpj_modelled"):
                v = "%.3g" % v
            elif isinstance(v, int):
                v = "{:,}".format(v)
            cells.append(str(v))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def report_md(rows, d):
    return "\n".join([
        "md5acc on the DE10-Nano (%s, %s ALMs, %d M10K): Yosys `synth_intel_alm -family cyclonev` "
        "estimate (alms_est; alms_upper counts every LUT as a whole ALM; goal: alm_fraction <= %d%%), "
        "Fmax from a place-and-route on a proxy part (%s; Quartus is not installable here, so no "
        "Cyclone V timing exists), design clock %d MHz. **Modelled, not measured:** "
        "search_values_per_s = pipelines x Fmax; hash_values_per_s = min(hash lanes x Fmax, "
        "HPS DDR3 3.2 GB/s peak / 20 bytes per value); *_tpj_modelled = those rates / %.2f W, "
        "the board power of %s." % (DEVICE, "{:,}".format(DEVICE_ALMS), DEVICE_M10K, int(100 * FIT_GOAL),
                                    "; ".join(PARTS[p]["part"] for p in PARTS
                                              if any(r.get("timing_part_key") == p for r in rows))
                                    or "none routed", d["clock_mhz"], BOARD_W, BOARD_W_SOURCE),
        "", md_table(rows), ""])


def replace_readme(path, text):
    with open(path) as f:
        cur = f.read()
    a, b = "<!-- report:begin (make -C hdl report) -->", "<!-- report:end -->"
    if a not in cur or b not in cur:
        raise SystemExit("%s: report markers missing" % path)
    new = cur[:cur.index(a) + len(a)] + "\n" + text + cur[cur.index(b):]
    with open(path, "w") as f:
        f.write(new)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--check-fit")
    ap.add_argument("--check-timing")
    ap.add_argument("--synth-table", nargs="+")
    ap.add_argument("--report", nargs="+")
    ap.add_argument("--readme")
    ap.add_argument("--routes", nargs="*", default=[], help="with --report: the routes to read, "
                    "CONFIG:PART (one per configuration); the other configurations are reported as not routed")
    a = ap.parse_args()
    d = design()
    if a.check_fit:
        s = synth_figures(a.build, a.check_fit)
        ok = s["alm_fraction"] <= FIT_GOAL and s["m10k"] <= DEVICE_M10K
        print("fit: %d pipelines, %d-bit bus: %s ALMs est (%.1f%% of %s), %s upper (%.1f%%), %s registers, "
              "%d M10K: %s" % (s["pipelines"], s["data_w"], "{:,}".format(s["alms_est"]), 100 * s["alm_fraction"],
                               "{:,}".format(DEVICE_ALMS), "{:,}".format(s["alms_upper"]),
                               100 * s["alm_fraction_upper"], "{:,}".format(s["registers"]), s["m10k"],
                               "fits %d%% of the part" % (100 * FIT_GOAL) if ok else
                               "DOES NOT FIT %d%% of the part" % (100 * FIT_GOAL)))
        return 0 if ok else 1
    if a.check_timing:
        t = timing_figures(a.build, a.check_timing)
        n, w = split(split_route(a.check_timing)[0])
        ok = t["fmax_mhz"] >= d["clock_mhz"]
        print("timing: %d pipeline(s), %d-bit bus: Fmax %.2f MHz on %s, design clock %d MHz: %s; used %s"
              % (n, w, t["fmax_mhz"], t["timing_part"], d["clock_mhz"], "met" if ok else "NOT MET",
                 ", ".join("%s %d/%d" % (k, v, t["route_available"][k]) for k, v in t["route_used"].items())))
        return 0 if ok else 1
    if a.synth_table:
        rows = [synth_figures(a.build, c) for c in a.synth_table]
        head = ["pipelines", "data_w", "alms_est", "alms_upper", "alm_fraction", "registers", "m10k",
                "luts", "arith_cells", "mlab_cells"]
        text = "\n".join(["# md5acc synthesis estimate (Yosys synth_intel_alm -family cyclonev)", "",
                          "| " + " | ".join(head) + " |", "|" + "---|" * len(head)] +
                         ["| " + " | ".join(str(r[h]) for h in head) + " |" for r in rows]) + "\n"
        with open(os.path.join(a.build, "synth-report.md"), "w") as f:
            f.write(text)
        print(text)
        return 0
    if a.report:
        rows = []
        routes = {}
        for route in a.routes:
            cfg, _ = split_route(route)
            if cfg in routes:
                usage_error("--routes: two routes of %s (one per configuration)" % cfg)
            routes[cfg] = route
        for c in a.report:
            r = synth_figures(a.build, c)
            if c in routes:
                r.update(timing_figures(a.build, routes[c]))
            else:   # its route was not run (make report REPORT_ROUTES=...): said so in every output
                r.update({"fmax_mhz": None, "timing_part": "not routed"})
            r.update(rates(r, d["clock_mhz"]))
            rows.append(r)
        doc = {"device": DEVICE, "device_alms": DEVICE_ALMS, "device_m10k": DEVICE_M10K, "fit_goal": FIT_GOAL,
               "design_clock_mhz": d["clock_mhz"], "default": "%d-%d" % (d["pipelines"], d["data_w"]),
               "board_power_w_modelled": round(BOARD_W, 3), "board_power_source": BOARD_W_SOURCE,
               "estimate": "Yosys synth_intel_alm -family cyclonev, cells -> ALMs as in scripts/report.py",
               "modelled": ["search_values_per_s", "hash_values_per_s", "search_tpj_modelled",
                            "hash_tpj_modelled"],
               "configurations": rows}
        with open(os.path.join(a.build, "report.json"), "w") as f:
            json.dump(doc, f, indent=2)
        text = report_md(rows, d)
        with open(os.path.join(a.build, "report.md"), "w") as f:
            f.write(text)
        print(text)
        if a.readme:
            replace_readme(a.readme, text)
        return 0
    ap.error("nothing to do")


if __name__ == "__main__":
    sys.exit(main())
