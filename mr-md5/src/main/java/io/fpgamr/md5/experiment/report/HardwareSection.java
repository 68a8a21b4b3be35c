package io.fpgamr.md5.experiment.report;

import io.fpgamr.md5.experiment.Environment;
import io.fpgamr.md5.experiment.ResultRow;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Both sides' hardware: the thesis's machines as its text describes them (its sections 3.2, 6.3, 7.1
 * and 4.5), and the machine of this study as the experiment recorded it when it ran
 * ({@link Environment}), with where its watts came from.
 */
final class HardwareSection {
    private HardwareSection() {
    }

    static void render(ReportContext c) throws IOException {
        c.line("## Hardware");
        c.line();
        c.line("| side | machine | CPU | cores / threads | memory | power meter | framework |");
        c.line("|---|---|---|---|---|---|---|");
        c.line("| thesis | reference x86 system | Intel Core i7-3970X @ 3.50 GHz | 6 cores, 12 threads (2 per core) | 64 GiB DDR3, quad channel "
            + "| APC Back-UPS Pro 1500 at the wall, 1 W resolution, read through apcupsd (whole node) | Disco, stock (ch. 9-11) and patched (ch. 12) |");
        c.line("| thesis | ARM Novena (Kosagi Novena board) | Freescale i.MX6 Quad, ARM Cortex-A9 @ 1.2 GHz | 4 cores, 4 threads | 4 GiB DDR3 @ 1066 "
            + "| shunt resistor on the 16.30 V supply, read by an oscilloscope (whole board) | Disco, stock and patched |");
        c.line("| thesis | ARM-FPGA (DENX MCV SoM on MCVEVK) | Altera Cyclone V SoC, 2 ARM Cortex-A9 @ 800 MHz; FPGA: one pipelined MD5 core "
            + "(OpenCores) at 50 MHz | 2 cores, 2 threads | 1 GiB DDR3 @ 667 | shunt resistor on the 9.28 V supply, read by an oscilloscope "
            + "(whole board) | Disco, stock and patched |");
        Optional<Environment> env = Environment.read(c.dir);
        List<ResultRow> all = c.ok.values().stream().flatMap(List::stream).toList();
        String meter = all.isEmpty() ? "no run done" : meter(c, all);
        if (env.isPresent()) {
            Environment e = env.get();
            c.line("| here | this study's machine" + (e.cluster().equals("embedded")
                    ? " (the embedded cluster: every node's daemons and tasks share it)" : " (the launcher's; the cluster's nodes are the deployment's)")
                + " | " + (e.cpuModel() == null ? "not read" : e.cpuModel()) + " | " + e.cores() + " logical CPUs | " + e.memory() + " | " + meter
                + " | Hadoop " + e.hadoop() + " (fpgamr's job and the plain Hadoop job); " + e.java() + "; " + e.os() + " |");
        } else {
            c.line("| here | not recorded (this study's " + Environment.FILE + " is missing: results from before it was recorded) | | | | " + meter
                + " | Hadoop |");
        }
        c.line();
        c.line("The FPGA node here is simulated (the Verilated design run by this machine's CPU): it has no board, no power of its own "
            + "and no clock but the simulation's; the modelled ARM-FPGA node below is the device alone.");
        c.line();
    }

    /** Where this study's watts came from: the plan's energy flags and the runs' basis. */
    private static String meter(ReportContext c, List<ResultRow> rows) {
        List<String> flags = c.plan.energy() == null ? List.of() : c.plan.energy();
        boolean declared = rows.stream().anyMatch(r -> r.flags() != null && r.flags().contains("declared-power"));
        boolean none = rows.stream().anyMatch(r -> r.flags() != null && r.flags().contains("no-power-source"));
        if (declared) {
            int i = flags.indexOf("--declare-watts");
            return "none: a declared " + (i >= 0 && i + 1 < flags.size() ? flags.get(i + 1) + " W" : "wattage") + " (the plan's energy flags), "
                + "so every energy figure is modelled";
        }
        if (none) {
            return "none found: times only";
        }
        return "measured by the energy monitor's sources (" + (flags.isEmpty() ? "every source this machine has" : String.join(" ", flags))
            + "; RAPL reads the CPU package, not the wall)";
    }
}
