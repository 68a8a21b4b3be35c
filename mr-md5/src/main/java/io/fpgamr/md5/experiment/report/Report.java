package io.fpgamr.md5.experiment.report;

import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Published;
import io.fpgamr.md5.experiment.ResultRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code DIR/report.md} and its figures ({@code DIR/figures/*.png|svg}) from a plan and its
 * results: per sweep the thesis's stage-time and TpW tables (mean ± sd over the runs) with the
 * thesis's published value and the ratio beside wherever it has one ({@link SweepSection}); both sides'
 * hardware ({@link HardwareSection}); the framework's overhead, the plain Hadoop job against fpgamr's
 * beside the thesis's stock and patched Disco ({@link FrameworkSection}); the framework's share and the engine's, measured
 * apart, each map's time split ({@link ShareSection}); how the work fell on the nodes
 * ({@link BalanceSection}); where the maps' time goes
 * ({@link MapTimeSection}); the emulated ARM node and a modelled Cortex-A9 ({@link ArmSection}); the modelled
 * ARM-FPGA node ({@link ArmFpgaSection}); the three node types side by side, as the thesis's conclusion
 * sets them ({@link NodeTypesSection}); the power charts of
 * the runs ({@link PowerSection}); and every failed run ({@link FailuresSection}). Modelled,
 * declared, emulated and simulated figures are labelled where they appear, and every ratio cell names
 * both its sides: node, source, domain, figure and basis ({@link Cells#ratio}).
 */
public final class Report {
    public static final String FILE = "report.md";

    private Report() {
    }

    /** Writes the report and its figures into {@code dir}; returns the report's path. */
    public static Path write(Plan plan, Published published, Path planFolder, List<ResultRow> rows, Path dir) throws IOException {
        ReportContext c = new ReportContext(plan, published, planFolder, rows, dir);
        Files.createDirectories(dir.resolve(ReportContext.FIGURES));
        render(c);
        Path file = dir.resolve(FILE);
        AtomicFiles.writeString(file, c.markdown());
        return file;
    }

    private static void render(ReportContext c) throws IOException {
        header(c);
        HardwareSection.render(c);
        for (Plan.Sweep s : c.plan.sweeps()) {
            SweepSection.render(c, s);
        }
        FrameworkSection.render(c);
        ShareSection.render(c);
        BalanceSection.render(c);
        MapTimeSection.render(c);
        ArmSection.render(c);
        ArmFpgaSection.render(c);
        NodeTypesSection.render(c);
        PowerSection.render(c);
        FailuresSection.render(c);
    }

    private static void header(ReportContext c) {
        c.line("# " + c.plan.name() + ": the thesis's study, reproduced by fpgamr");
        c.line();
        long runs = c.ok.values().stream().mapToLong(List::size).sum();
        boolean exact = c.ok.values().stream().flatMap(List::stream).allMatch(r -> r.valuesHashed() != null
            && r.valuesHashed().equals(r.valuesExpected()));
        String emulated = c.plan.emulatedRepetitions() == null ? "" : String.format(Locale.ROOT, " (%d per emulated ARM point)",
            c.plan.emulatedRepetitions());
        c.line(String.format(Locale.ROOT, "Domain 2^%d values per job (the thesis: 2^28), %d run(s) per point%s, %d point(s): %d run(s) done, "
            + "%d failed. Values hashed equal 2^%d in every run done: %s.", c.plan.bits(), c.plan.repetitions(), emulated, c.plan.points().size(),
            runs, c.failed.size(), c.plan.bits(), exact ? "yes" : "NO"));
        c.line();
        c.line("Times are measured (the tasks' own clocks). Energy, mean power, TpW and ED²P carry their basis: **declared** (a wattage "
            + "the plan states, no meter: modelled, and the ± of a declared figure is the time's spread alone), **measured** (a power "
            + "source read it), or **simulated FPGA** (maps on the Verilated design run by a CPU: modelled); an **emulated** node's "
            + "figures are an armhf JVM's under QEMU on this x86 host. Each ratio, to three significant figures, names both its sides: "
            + "node, where the figure comes from (here, the thesis, a model), the domain, the figure and its basis, e.g. `2.77× [x86, here, "
            + "2^20, plain job's t_map, measured ÷ x86, here, 2^20, fpgamr's t_map, measured]`: a ratio is no more measured than its "
            + "weaker side. The thesis ran 2^28 values on its own hardware (below); a run of fewer values is mostly fixed cost, so a "
            + "figure of this plan is not divided by one of the thesis's unless the domains are the same or both are rates without "
            + "fixed cost (a cell says \"no ratio\" and why), and measured figures of unlike nodes are not divided. Spreads are "
            + "printed to two significant figures and means to the same place. Device-only figures (the modelled ARM-FPGA device) are "
            + "labelled so and never stand for a whole node. "
            + "Thesis values, as it printed them: " + c.published.source() + ".");
        c.line();
    }
}
