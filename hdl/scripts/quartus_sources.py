#!/usr/bin/env python3
"""Checks, without Quartus, that the DE10-Nano project (hdl/quartus) names every source
once, agrees with itself and configures the HPS as the board's references say: the files
Quartus compiles are the .qsf's own plus those the Platform Designer system's .qip brings,
i.e. the files of each component (<component>_hw.tcl) the system (soc_system.tcl)
instantiates. It reads the .qsf, runs the .tcl files in tclsh with Platform Designer's
commands recording what they are given, and fails, one line per problem, on:
  - a file named twice (by path, or by name: qsys-generate copies a system's files into
    one folder), a file missing, a SEARCH_PATH (Quartus would look for modules there);
  - a module defined twice or missing: Verilator lints the union of the files, each
    component's top with the parameters the system gives it; only the listed include
    files are visible to it;
  - the board top's system ports against the system's exported interfaces, and the .qsf's pin
    assignments against the top's ports;
  - h2f_reset reaching the fabric other than once, into the reset synchroniser that also
    waits for the PLL's lock, and the accelerator's reset from anything but it;
  - the overlay's bridges (hdl/dts) against the bridges the system enables;
  - the HPS instance against references written by hand (scripts/ref/, sources cited there):
    a parameter altera_hps does not define (altera_hps.tsv), a DDR3 value other than the
    DE10-Nano's, a board peripheral (de10nano_pinmux.tsv: SD/MMC, UART0, EMAC1, USB1, I2C,
    SPIM1) not on the HPS pins U-Boot's de10-nano pinmux_config.h gives it, another on HPS
    pins, the HPS pins not exported; and altera_hps.tsv's controller timings against U-Boot's
    clock counts;
  - set_project_property before create_system;
  - quartus/Makefile: the HPS SDRAM pin script not run, run other than under quartus_sta -t,
    before the analysis (quartus_map) or after the compile.

    quartus_sources.py [--hdl DIR] [--quick]
--quick lints at one pipeline (the module structure is the same; scripts/test_quartus_sources.py).
Exit 0 when consistent, 1 with the problems listed.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

# the driver: Platform Designer's commands print what they are given; every other unknown
# command (the many property setters) does nothing
TCL_DRIVER = r"""
rename package _tcl_package
proc package {args} {
    if {[lindex $args 0] eq "require" && [lindex $args end-1] eq "qsys"} { return }
    return [_tcl_package {*}$args]
}
proc rec {args} { puts -nonewline "[join $args \x1f]\x1e" }
proc set_module_property {name value} { rec module_property $name $value }
proc add_fileset {name kind args} { rec fileset $name $kind }
proc set_fileset_property {fs name value} { rec fileset_property $fs $name $value }
proc add_fileset_file {name type how path args} { rec file $name $type $path }
proc add_parameter {name type default args} { rec parameter $name $default }
proc create_system {name} { rec system $name }
proc set_project_property {name value} { rec project_property $name $value }
proc add_instance {name kind args} { rec instance $name $kind }
proc set_instance_parameter_value {inst name value} { rec instance_parameter $inst $name $value }
proc add_connection {from to} { rec connection $from $to }
proc set_connection_parameter_value {conn name value} { rec connection_parameter $conn $name $value }
proc add_interface {name kind dir} { rec interface $name $kind $dir }
proc set_interface_property {name prop value} { rec interface_property $name $prop $value }
proc unknown {args} { return "" }
source [lindex $argv 0]
"""

# Quartus's own IP the system may instantiate: its files come from Quartus, not from here
QUARTUS_IP = {"altera_hps", "altera_pll", "clock_source"}
# the references written by hand (their sources are cited in the files)
REF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref")
HPS_PIN_SCRIPT = "hps_sdram_p0_pin_assignments.tcl"


class Failed(Exception):
    """A file the check cannot read: reported as one problem."""


class Problems(list):
    def add(self, fmt, *args):
        self.append(fmt % args if args else fmt)


def tcl_records(path):
    """What one .tcl file gives Platform Designer's commands: a list of records (lists of words)."""
    with tempfile.NamedTemporaryFile("w", suffix=".tcl", delete=False) as f:
        f.write(TCL_DRIVER)
        driver = f.name
    try:
        p = subprocess.run(["tclsh", driver, os.path.abspath(path)], capture_output=True, text=True)
    finally:
        os.unlink(driver)
    if p.returncode:
        raise Failed("%s: %s" % (os.path.basename(path), (p.stderr.strip().splitlines() or ["tclsh failed"])[0]))
    return [r.split("\x1f") for r in p.stdout.split("\x1e") if r]


def read_qsf(path):
    """(name, value) of each set_global_assignment, in order."""
    out = []
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*set_global_assignment\s+-name\s+(\S+)\s+(\"[^\"]*\"|\S+)", line)
            if m:
                out.append((m.group(1), m.group(2).strip('"')))
    return out


class Component:
    """A <name>_hw.tcl: its NAME, synthesis top, parameters' defaults and files."""

    def __init__(self, path):
        self.path = path
        self.name = self.top = None
        self.defaults, self.files = {}, []
        synth = set()
        recs = tcl_records(path)
        for r in recs:
            if r[0] == "fileset" and r[2] == "QUARTUS_SYNTH":
                synth.add(r[1])
        for r in recs:
            if r[0] == "module_property" and r[1] == "NAME":
                self.name = r[2]
            elif r[0] == "fileset_property" and r[1] in synth and r[2] == "TOP_LEVEL":
                self.top = r[3]
            elif r[0] == "parameter":
                self.defaults[r[1]] = r[2]
        # add_fileset_file follows its add_fileset: files of the synthesis fileset only
        current = None
        for r in recs:
            if r[0] == "fileset":
                current = r[1]
            elif r[0] == "file" and current in synth:
                self.files.append((r[1], r[2], os.path.normpath(os.path.join(os.path.dirname(path), r[3]))))


class System:
    """A Platform Designer system script: instances, their parameters, connections, exports."""

    def __init__(self, path, recs):
        self.path = path
        self.name = next(r[1] for r in recs if r[0] == "system")
        kinds = [r[0] for r in recs]
        self.properties_first = kinds.index("project_property") < kinds.index("system") \
            if "project_property" in kinds else False
        self.instances = {r[1]: r[2] for r in recs if r[0] == "instance"}
        self.params = {}
        for r in recs:
            if r[0] == "instance_parameter":
                self.params.setdefault(r[1], {})[r[2]] = r[3]
        self.connections = [(r[1], r[2]) for r in recs if r[0] == "connection"]
        self.cparams = {}
        for r in recs:
            if r[0] == "connection_parameter":
                self.cparams.setdefault(r[1], {})[r[2]] = r[3]
        self.exports = {}
        for r in recs:
            if r[0] == "interface_property" and r[2] == "EXPORT_OF":
                self.exports[r[1]] = r[3]

    def param(self, inst, name, default=None):
        return self.params.get(inst, {}).get(name, default)


def lint(problems, top, vfiles, includes, params, quick):
    """Verilator over the union of the files, only the listed includes visible."""
    with tempfile.TemporaryDirectory() as inc:
        for f in includes:
            if os.path.exists(f):
                os.symlink(f, os.path.join(inc, os.path.basename(f)))
        argv = ["verilator", "--lint-only", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-MULTITOP",
                "-Werror-MODDUP", "-I" + inc, "--top-module", top]
        for k, v in sorted(params.items()):
            argv.append("-G%s=%s" % (k, 1 if quick and k == "NPIPE" else v))
        p = subprocess.run(argv + [os.path.abspath(f) for f in vfiles], cwd=inc, capture_output=True, text=True)
    if p.returncode:
        for line in p.stderr.splitlines():
            m = re.match(r"%(Error|Warning)(-MODDUP)?: (.*)", line)
            if m and (m.group(2) or m.group(1) == "Error") and not m.group(3).startswith("Exiting due to"):
                problems.add("verilator (top %s): %s", top, m.group(3))
        if not problems:
            problems.add("verilator (top %s) failed: %s", top, p.stderr.strip()[-300:])


def board_top_ports(path, system):
    """The port names the board top connects on its instance of the system."""
    with open(path) as f:
        text = re.sub(r"//.*", "", f.read())
    m = re.search(r"\b%s\s+\w+\s*\((.*?)\);" % re.escape(system), text, re.S)
    return re.findall(r"\.(\w+)\s*\(", m.group(1)) if m else None


def module_ports(paths, module):
    """{port: (msb, lsb) or None} of `module`'s ANSI header in one of `paths`; None if not found."""
    for path in paths:
        with open(path) as f:
            text = re.sub(r"//.*", "", f.read())
        m = re.search(r"\bmodule\s+%s\s*\((.*?)\);" % re.escape(module), text, re.S)
        if m:
            return {p: (int(a), int(b)) if a else None for a, b, p in
                    re.findall(r"\b(?:input|output|inout)\s+(?:wire\s+)?(?:\[(\d+):(\d+)\]\s*)?(\w+)", m.group(1))}
    return None


def check_pin_assignments(problems, qsf, assigns, top_files):
    """Each pin assignment of the .qsf names a port (or a bit of one) of the top: Quartus ignores
    an assignment to a name it cannot find, with a warning."""
    top = next((v for n, v in assigns if n == "TOP_LEVEL_ENTITY"), None)
    ports = module_ports(top_files, top) if top else None
    if ports is None:
        problems.add("%s: TOP_LEVEL_ENTITY %s is no module of its files", os.path.basename(qsf), top)
        return
    with open(qsf) as f:
        for line in f:
            m = re.match(r"\s*set_(?:location|instance)_assignment\s.*-to\s+(\w+)(?:\[(\d+)\])?\s*$", line)
            if not m:
                continue
            name, bit = m.group(1), m.group(2)
            width = ports.get(name, False)
            if width is False or (bit is not None and (width is None or not min(width) <= int(bit) <= max(width))):
                problems.add("%s: %s: no such port of %s", os.path.basename(qsf), line.strip(), top)


def check(hdl, quick=False, ref=REF):
    problems = Problems()
    qdir = os.path.join(hdl, "quartus")
    qsfs = sorted(f for f in os.listdir(qdir) if f.endswith(".qsf"))
    if len(qsfs) != 1:
        problems.add("quartus/: %d .qsf files, not one", len(qsfs))
        return problems
    qsf = os.path.join(qdir, qsfs[0])
    assigns = read_qsf(qsf)
    try:
        components = [Component(os.path.join(qdir, f)) for f in sorted(os.listdir(qdir)) if f.endswith("_hw.tcl")]
        systems = []
        for f in sorted(os.listdir(qdir)):
            if f.endswith(".tcl") and not f.endswith("_hw.tcl"):
                recs = tcl_records(os.path.join(qdir, f))
                if any(r[0] == "system" for r in recs):
                    systems.append(System(os.path.join(qdir, f), recs))
    except Failed as e:
        problems.add(str(e))
        return problems
    by_name = {c.name: c for c in components}

    # the files Quartus compiles: (file as named, where it was named, path, kind)
    sources = []
    top_files = []
    for name, value in assigns:
        if name == "SEARCH_PATH":
            problems.add("%s: SEARCH_PATH %s: Quartus would look for modules outside the file lists", qsfs[0], value)
        elif name in ("VERILOG_FILE", "SYSTEMVERILOG_FILE", "VHDL_FILE", "VERILOG_INCLUDE_FILE"):
            path = os.path.normpath(os.path.join(qdir, value))
            sources.append((value, qsfs[0], path, "VERILOG_INCLUDE" if name == "VERILOG_INCLUDE_FILE" else "VERILOG"))
            top_files.append(path)
        elif name == "QIP_FILE":
            m = re.fullmatch(r"(\w+)/synthesis/(\w+)\.qip", value)
            sysm = [s for s in systems if m and s.name == m.group(2) == m.group(1)]
            if not sysm:
                problems.add("%s: QIP_FILE %s is not the .qip of a system built here (%s)", qsfs[0], value,
                             ", ".join("%s/synthesis/%s.qip" % (s.name, s.name) for s in systems) or "none")
                continue
            system = sysm[0]
            for inst, kind in sorted(system.instances.items()):
                if kind in by_name:
                    for fname, ftype, path in by_name[kind].files:
                        sources.append((fname, "%s (%s in %s)" % (os.path.basename(by_name[kind].path), inst,
                                                                 os.path.basename(system.path)), path, ftype))
                elif kind not in QUARTUS_IP:
                    problems.add("%s: instance %s of %s: no %s_hw.tcl here and not Quartus's IP",
                                 os.path.basename(system.path), inst, kind, kind)
    qips = [v for n, v in assigns if n == "QIP_FILE"]
    if len(qips) != len(set(qips)):
        problems.add("%s: a QIP_FILE named twice", qsfs[0])

    seen_path, seen_name = {}, {}
    for named, where, path, kind in sources:
        if not os.path.isfile(path):
            problems.add("%s: %s is missing (%s)", where, named, os.path.relpath(path, hdl))
        base = os.path.basename(path)
        if path in seen_path:
            problems.add("%s named twice: in %s and in %s", os.path.relpath(path, hdl), seen_path[path], where)
        elif base in seen_name:
            problems.add("two files named %s: %s (%s) and %s (%s)", base, os.path.relpath(seen_name[base][1], hdl),
                         seen_name[base][0], os.path.relpath(path, hdl), where)
        seen_path.setdefault(path, where)
        seen_name.setdefault(base, (where, path))
    if problems:
        return problems
    check_pin_assignments(problems, qsf, assigns, top_files)

    vfiles = [p for _, _, p, k in sources if k != "VERILOG_INCLUDE"]
    includes = [p for _, _, p, k in sources if k == "VERILOG_INCLUDE"]
    for system in systems:
        if not any(q == "%s/synthesis/%s.qip" % (system.name, system.name) for q in qips):
            continue
        for inst, kind in sorted(system.instances.items()):
            if kind in by_name:
                c = by_name[kind]
                params = dict(c.defaults)
                params.update({k: v for k, v in system.params.get(inst, {}).items() if k in c.defaults})
                lint(problems, c.top, vfiles, includes, params, quick)
        check_system(problems, hdl, system, by_name, top_files)
        try:
            check_hps(problems, system, ref)
        except (OSError, KeyError, ValueError) as e:
            problems.add("scripts/ref: unreadable reference (%s: %s)", type(e).__name__, e)
    check_flow(problems, qdir)
    return problems


def check_system(problems, hdl, system, components, top_files):
    sysf = os.path.basename(system.path)
    kinds = system.instances
    hps = [i for i, k in kinds.items() if k == "altera_hps"]
    pll = [i for i, k in kinds.items() if k == "altera_pll"]
    acc = [i for i, k in kinds.items() if k == "md5acc"]
    sync = [i for i, k in kinds.items() if k == "reset_sync"]
    if len(hps) != 1 or len(pll) != 1 or len(acc) != 1 or len(sync) != 1:
        problems.add("%s: not one each of altera_hps, altera_pll, md5acc, reset_sync", sysf)
        return
    hps, pll, acc, sync = hps[0], pll[0], acc[0], sync[0]

    # reset: h2f_reset once, into the synchroniser; the accelerator's reset from it only
    h2f = hps + ".h2f_reset"
    uses = [c for c in system.connections if h2f in c] + [e for e, of in system.exports.items() if of == h2f]
    if uses != [(h2f, sync + ".arst")]:
        problems.add("%s: h2f_reset must reach the fabric once, into %s.arst; it goes to %s", sysf, sync,
                     ", ".join(u[1] if isinstance(u, tuple) else "export " + u for u in uses) or "nothing")
    if (pll + ".locked", sync + ".locked") not in system.connections or system.param(pll, "gui_use_locked") != "true":
        problems.add("%s: %s.locked does not hold %s (the fabric would leave reset before its clock is stable)",
                     sysf, pll, sync)
    into_acc = [a for a, b in system.connections if b == acc + ".reset"] + \
        [e for e, of in system.exports.items() if of == acc + ".reset"]
    if into_acc != [sync + ".reset_out"]:
        problems.add("%s: %s.reset must come from %s.reset_out only; it comes from %s", sysf, acc, sync,
                     ", ".join(into_acc) or "nothing")
    for path in top_files:
        with open(path) as f:
            if re.search(r"h2f_reset", re.sub(r"//.*", "", f.read())):
                problems.add("%s uses h2f_reset: its one path is inside %s", os.path.basename(path), sysf)

    # the board top's ports on the system: each an exported interface's
    for path in top_files:
        ports = board_top_ports(path, system.name)
        if ports is None:
            continue
        for port in ports:
            if not any(port.startswith(e + "_") for e in system.exports):
                problems.add("%s: port %s of %s is none of its exported interfaces (%s)", os.path.basename(path),
                             port, system.name, ", ".join(sorted(system.exports)))
        for e in system.exports:
            if not any(port.startswith(e + "_") for port in ports):
                problems.add("%s: %s's exported interface %s is not connected", os.path.basename(path), system.name, e)

    width = system.param(hps, "F2SDRAM_Width", "").split()

    # the overlay against the system
    with open(os.path.join(hdl, "dts", "fpgamr-md5acc.dtso")) as f:
        dts = re.sub(r"/\*.*?\*/|//[^\n]*", "", f.read(), flags=re.S)
    m = re.search(r"fpga-bridges\s*=\s*([^;]*);", dts)
    listed = re.findall(r"&(\w+)", m.group(1)) if m else []
    used = []
    if system.param(hps, "LWH2F_Enable") == "true":
        used.append("fpga_bridge0")
    if int(system.param(hps, "S2F_Width", "0") or 0):
        used.append("fpga_bridge1")
    if int(system.param(hps, "F2S_Width", "0") or 0):
        used.append("fpga_bridge2")
    if width:
        used.append("fpga_bridge3")
    if sorted(listed) != used:
        problems.add("overlay: fpga-bridges %s, the system uses %s", ", ".join(listed) or "none", ", ".join(used))


def read_tsv(path, columns):
    """The rows of a reference file (tab-separated, '#' comments) as dicts of `columns`."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                rows.append(dict(zip(columns, line.rstrip("\n").split("\t"))))
    return rows


def same_value(got, want):
    try:
        return float(got) == float(want)
    except ValueError:
        return got == want


def check_hps(problems, system, ref):
    """The HPS instance against altera_hps's parameters and the DE10-Nano's references."""
    sysf = os.path.basename(system.path)
    if system.properties_first:
        problems.add("%s: set_project_property before create_system (no system is open yet)", sysf)
    hps = [i for i, k in system.instances.items() if k == "altera_hps"][0]
    params = system.params.get(hps, {})
    names = read_tsv(os.path.join(ref, "altera_hps.tsv"), ("name", "unit", "value", "clocks", "meaning"))
    known = {r["name"]: r for r in names}
    for name in params:
        if name not in known:
            problems.add("%s: %s %s: no such altera_hps parameter (scripts/ref/altera_hps.tsv)", sysf, hps, name)
    # the DDR3 values: the board's, named as the component names them
    for r in names:
        if r["value"] == "-":
            continue
        unit = "" if r["unit"] == "-" else " " + r["unit"]
        got = params.get(r["name"])
        if got is None:
            problems.add("%s: %s %s is not set; the DE10-Nano's is %s%s (%s)", sysf, hps, r["name"], r["value"],
                         unit, r["meaning"])
        elif not same_value(got, r["value"]):
            problems.add("%s: %s %s is %s; the DE10-Nano's is %s%s (%s)", sysf, hps, r["name"], got, r["value"],
                         unit, r["meaning"])
    # the reference's controller timings against U-Boot's clock counts for the board
    mhz = float(known["MEM_CLK_FREQ"]["value"])
    scale = {"ns": 1e-3, "us": 1.0, "clocks": None}
    for r in names:
        if r["clocks"] == "-":
            continue
        clocks = round(float(r["value"])) if scale[r["unit"]] is None else \
            math.ceil(round(float(r["value"]) * scale[r["unit"]] * mhz, 6))
        if clocks != int(r["clocks"]):
            problems.add("scripts/ref/altera_hps.tsv: %s %s %s at %g MHz is %d clocks; U-Boot's de10-nano "
                         "sdram_config.h has %s", r["name"], r["value"], r["unit"], mhz, clocks, r["clocks"])
    # the board's peripherals on the HPS pins U-Boot muxes for them, and no other
    board = read_tsv(os.path.join(ref, "de10nano_pinmux.tsv"), ("peripheral", "mode", "pins", "registers", "signals"))
    wired = {r["peripheral"]: r for r in board}
    for r in board:
        for suffix, want in (("_PinMuxing", r["pins"]), ("_Mode", r["mode"])):
            got = params.get(r["peripheral"] + suffix)
            if got != want:
                problems.add("%s: %s %s%s is %s; the DE10-Nano wires %s to %s (pin mux %s: %s)", sysf, hps, r["peripheral"],
                             suffix, "unset" if got is None else "{%s}" % got, r["peripheral"],
                             "{%s} {%s}" % (r["pins"], r["mode"]), r["registers"], r["signals"])
    for name, value in sorted(params.items()):
        m = re.fullmatch(r"(\w+)_PinMuxing", name)
        if m and value.startswith("HPS I/O") and m.group(1) not in wired:
            problems.add("%s: %s %s {%s}: the DE10-Nano wires no %s to HPS pins (scripts/ref/de10nano_pinmux.tsv)",
                         sysf, hps, name, value, m.group(1))
    if any(v.startswith("HPS I/O") for n, v in params.items() if n.endswith("_PinMuxing")) and \
            hps + ".hps_io" not in system.exports.values():
        problems.add("%s: %s.hps_io is not exported: the HPS peripherals' pins would reach no board pin", sysf, hps)


def check_flow(problems, qdir):
    """quartus/Makefile: the HPS SDRAM pin script under quartus_sta -t, after analysis, before the compile."""
    with open(os.path.join(qdir, "Makefile")) as f:
        lines = [l.strip() for l in f if l.startswith("\t")]
    pins = [i for i, l in enumerate(lines) if HPS_PIN_SCRIPT in l]
    if not pins:
        problems.add("quartus/Makefile: %s is never run: the HPS memory pins get no I/O standard", HPS_PIN_SCRIPT)
    for i in pins:
        if not lines[i].startswith("quartus_sta -t "):
            problems.add("quartus/Makefile: %s runs as `%s`; it must run under quartus_sta -t (it reads the "
                         "analysed netlist)", HPS_PIN_SCRIPT, lines[i].split()[0] + " " + lines[i].split()[1])
        if not any(l.startswith("quartus_map ") for l in lines[:i]):
            problems.add("quartus/Makefile: %s runs before quartus_map (it needs the analysed netlist)",
                         HPS_PIN_SCRIPT)
        if any("--flow compile" in l for l in lines[:i]):
            problems.add("quartus/Makefile: %s runs after the compile (the fitter would place the HPS memory pins "
                         "without it)", HPS_PIN_SCRIPT)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hdl", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    for tool in ("tclsh", "verilator"):
        if not shutil.which(tool):
            print("quartus_sources: %s is not installed" % tool, file=sys.stderr)
            return 2
    problems = check(os.path.abspath(a.hdl), a.quick)
    for p in problems:
        print("quartus project: " + p)
    if problems:
        return 1
    print("quartus project: every source named once, every module defined once; resets and overlay bridges "
          "agree; the HPS instance matches altera_hps's parameters and the DE10-Nano's DDR3 and pin multiplexing; "
          "the HPS SDRAM pin script runs under quartus_sta")
    return 0


if __name__ == "__main__":
    sys.exit(main())
