package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.energyFmt;
import static io.fpgamr.md5.experiment.report.Cells.fmt;
import static io.fpgamr.md5.experiment.report.Cells.hashedCell;
import static io.fpgamr.md5.experiment.report.Cells.hostEnergy;
import static io.fpgamr.md5.experiment.report.Cells.label;
import static io.fpgamr.md5.experiment.report.Cells.ppk;
import static io.fpgamr.md5.experiment.report.Cells.ratio;
import static io.fpgamr.md5.experiment.report.Cells.runsCell;
import static io.fpgamr.md5.experiment.report.Cells.stat;
import static io.fpgamr.md5.experiment.report.Cells.thesisSide;

import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.Published;
import io.fpgamr.md5.experiment.ResultRow;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;

/**
 * The ARM node: the plan's emulated ARM points (an armhf JVM under QEMU's Cortex-A9 on this x86
 * host) beside the thesis's measured Novena rows, and a modelled Cortex-A9 rate from the NEON
 * kernel's instructions per value (counted from its disassembly: {@code jni-fpga/native/bench/neon_insns.py})
 * at a named board's clock and a cited cycles-per-instruction figure. Emulated times are not an ARM
 * board's and an emulated node's energy is the x86 host's: no ratio against the thesis is printed
 * for them. The model's rate is compared with the thesis's measured map-stage rate.
 */
final class ArmSection {
    /** The instruction counts {@code make -C jni-fpga/native neon-insns} writes, relative to the plan's folder. */
    static final String INSNS_FILE = "../../jni-fpga/native/build/linux-armhf/neon-insns.properties";
    /** The modelled board: the thesis's ARM node. */
    static final String BOARD = "Novena (Freescale i.MX6 Quad: 4 Cortex-A9 cores at 1.2 GHz)";
    static final int CORES = 4;
    static final double CLOCK_HZ = 1.2e9;
    /**
     * Cycles per NEON instruction: the Cortex-A9's NEON unit has a 64-bit data path, so the kernel's
     * 128-bit (Q register) integer instructions issue in two cycles (ARM DDI 0409, Cortex-A9 NEON
     * Media Processing Engine TRM, chapter 3, instruction timing); other instructions one cycle each,
     * none dual-issued, no stalls or cache misses: a floor on cycles, so a ceiling on the rate.
     */
    static final double NEON_CPI = 2.0;
    static final double OTHER_CPI = 1.0;
    static final String CPI_SOURCE = "ARM DDI 0409 (Cortex-A9 NEON Media Processing Engine TRM), instruction timing: Q-register "
        + "integer instructions take 2 cycles on its 64-bit NEON data path";

    private ArmSection() {
    }

    static void render(ReportContext c) throws IOException {
        List<Point> arm = c.plan.points().stream().filter(p -> p.arm() && p.job().equals("fpgamr")).toList();
        Path insns = c.planFolder.resolve(INSNS_FILE).normalize();
        if (arm.isEmpty() && !Files.isRegularFile(insns)) {
            return;
        }
        String hostEnergy = hostEnergy(arm.stream().flatMap(p -> c.runs(p.id()).stream()).toList());
        TreeSet<String> tables = new TreeSet<>(Cells.BY_NUMBER);
        for (Point p : arm) {
            Published.Entry th = thesisNode(c, p);
            if (th != null) {
                tables.addAll(List.of(th.tables().split(" ")));
            }
        }
        if (Files.isRegularFile(insns)) {
            modelThesis(c).ifPresent(e -> tables.addAll(List.of(e.tables().split(" "))));
        }
        c.line("## The ARM nodes: EMULATED runs and a MODELLED Cortex-A9" + (tables.isEmpty() ? "" : " (thesis " + String.join(", ", tables) + ")"));
        c.line();
        c.line("fpgamr's ARM node runs its maps on Debian's armhf JVM under QEMU's user-mode emulation of a Cortex-A9, on this x86 "
            + "machine, with the linux-armhf library's NEON kernels; an ARM-FPGA node's maps drive, through the same armhf library, the "
            + "Verilated design cross-built for armhf (a simulated device, in the emulated process). Its times are the **emulation's**, not an ARM board's, and its "
            + "energy is " + hostEnergy + ": they stand beside the thesis's measured Novena figures for shape, with no ratio. The "
            + "**modelled** rate below is what the same kernel would do on a real board.");
        c.line();
        if (!arm.isEmpty()) {
            c.line("| job | node type | PpK | maps | reducers | nodes | runs | values hashed | t_map [s] | t_total [s] | TpW [1/J] (the x86 host's energy) "
                + "| thesis node t_map [s] | thesis t_total [s] | thesis TpW [1/J] (measured) |");
            c.line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            for (Point p : arm) {
                List<ResultRow> rs = c.runs(p.id());
                Published.Entry th = thesisNode(c, p);
                c.line("| " + p.job() + " | " + p.nodeType() + label(rs) + " | " + ppk(p.ppk()) + " | " + p.maps() + " | " + p.reducers() + " | " + p.nodes() + " | "
                    + runsCell(c, p) + " | " + hashedCell(rs) + " | " + fmt(stat(rs, ResultRow::mapS)) + label(rs) + " | "
                    + fmt(stat(rs, ResultRow::totalS)) + label(rs) + " | " + energyFmt(rs, ResultRow::tpw, false) + " | "
                    + (th == null ? "" : Published.Entry.format(th.mapS()) + " (" + (p.fpgaMaps() ? "SoCFPGA" : "Novena") + ") | " + Published.Entry.format(th.totalS()) + " | "
                    + Published.Entry.format(th.tpw()) + " (" + th.tables() + ")") + (th == null ? " | | |" : " |"));
            }
            c.line();
        }
        modelled(c, insns);
    }

    /** The thesis's one-node row of the point's node type (the Novena, tables 9.3, 9.4; the SoCFPGA, 9.1.3) with 4 reducers. */
    private static Published.Entry thesisNode(ReportContext c, Point p) {
        return c.published.find(p.nodeType(), "disco", p.ppk(), 4, 1, false).orElse(null);
    }

    private static void modelled(ReportContext c, Path insns) throws IOException {
        c.line("### A Cortex-A9's rate, MODELLED from the kernel's instructions");
        c.line();
        if (!Files.isRegularFile(insns)) {
            c.line("Not counted: " + insns + " is missing (`make -C jni-fpga/native neon-insns`).");
            c.line();
            return;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(insns)) {
            p.load(r);
        }
        c.line("Instructions per value of the armhf NEON kernel, counted from its disassembly (`jni-fpga/native/bench/neon_insns.py`, "
            + "the loop's path for one target); board " + BOARD + "; cycles per instruction " + fmtNum(NEON_CPI) + " for NEON instructions ("
            + CPI_SOURCE + "), " + fmtNum(OTHER_CPI) + " for the rest, no dual issue, no stalls: an upper bound on the rate.");
        c.line();
        c.line("| kernel loop | instructions / value | NEON / value | cycles / value (modelled) | values/s of one core (modelled) | values/s of "
            + CORES + " cores (modelled) | thesis Novena map stage, values/s (measured) | model / thesis |");
        c.line("|---|---|---|---|---|---|---|---|");
        for (String kind : List.of("search", "hash")) {
            if (p.getProperty(kind + ".insns") == null) {
                continue;
            }
            double all = Double.parseDouble(p.getProperty(kind + ".insns"));
            double neon = Double.parseDouble(p.getProperty(kind + ".neon"));
            double cycles = NEON_CPI * neon + OTHER_CPI * (all - neon);
            double core = CLOCK_HZ / cycles;
            double board = CORES * core;
            if (kind.equals("search")) {
                c.armModelledRate = board;
            }
            Published.Entry th = modelThesis(c).orElse(null);
            Double thesisRate = th == null ? null : Math.pow(2, 28) / Published.Entry.mean(th.mapS());
            c.line("| " + kind + (kind.equals("search") ? " (search mode: 45 of MD5's 64 steps, early exit)" : " (bench mode: every digest)")
                + " | " + fmtNum(all) + " | " + fmtNum(neon) + " | " + fmtNum(cycles) + " | " + sci(core) + " | " + sci(board) + " | "
                + (thesisRate == null ? "" : sci(thesisRate) + " (" + th.tables() + ", 2^28 / t_map)") + " | "
                + ratio(board, new Cells.Side("Cortex-A9 NEON " + kind + " kernel on " + CORES + " cores", "model", "per value", "values/s", "modelled",
                    true), thesisRate, thesisSide("arm", "patched Disco's map-stage values/s", true)) + " |");
        }
        c.line();
        c.line("The thesis hashed in Python on Disco: its Novena's map stage is framework and interpreter time far more than MD5. "
            + "The model counts only the kernel's own instructions: it says how much of the board the thesis's software left unused, "
            + "not what fpgamr's whole job would take there (its JVM, Hadoop's task start and the shuffle are not modelled).");
        c.line();
    }

    /** The thesis's row the model is set beside: its best measured Novena map stage, chapter 12's patched Disco, 2^28 values. */
    private static Optional<Published.Entry> modelThesis(ReportContext c) {
        return c.published.find("arm", "patched", 262144, 32, 1, false);
    }

    private static String fmtNum(double v) {
        return String.format(Locale.ROOT, v == Math.rint(v) ? "%.0f" : "%.1f", v);
    }

    private static String sci(double v) {
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
