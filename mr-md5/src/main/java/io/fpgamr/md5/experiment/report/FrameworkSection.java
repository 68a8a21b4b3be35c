package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.basisWord;
import static io.fpgamr.md5.experiment.report.Cells.energyFmt;
import static io.fpgamr.md5.experiment.report.Cells.fmt;
import static io.fpgamr.md5.experiment.report.Cells.here;
import static io.fpgamr.md5.experiment.report.Cells.label;
import static io.fpgamr.md5.experiment.report.Cells.mean;
import static io.fpgamr.md5.experiment.report.Cells.nz;
import static io.fpgamr.md5.experiment.report.Cells.ppk;
import static io.fpgamr.md5.experiment.report.Cells.ratio;
import static io.fpgamr.md5.experiment.report.Cells.stat;
import static io.fpgamr.md5.experiment.report.Cells.thesisSide;

import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.Published;
import io.fpgamr.md5.experiment.ResultRow;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The thesis's chapter 12 and fpgamr's answer: the framework's overhead. The thesis set stock Disco
 * against its patched Disco on each node; here the same benchmark written the plain Hadoop way (the
 * baseline job) is set against fpgamr's job, on each node type where the plain job means something,
 * at both PpK: stage times, TpW, where the maps' time goes, and the ratios, beside the thesis's
 * stock and patched rows and theirs.
 */
final class FrameworkSection {
    /** The thesis's comparison (its conclusion's table): 2^18 PpK, one node, stock Disco's rows as chapters 9 and 10 printed them. */
    private record ThesisPair(String node, String name, int stockReducers) {
    }

    private static final List<ThesisPair> THESIS = List.of(new ThesisPair("x86", "reference x86 system", 32),
        new ThesisPair("arm", "ARM Novena", 32), new ThesisPair("arm-fpga", "ARM-FPGA (SoCFPGA)", 4));

    private FrameworkSection() {
    }

    static void render(ReportContext c) {
        Optional<Plan.Sweep> sweep = c.plan.sweeps().stream().filter(s -> s.jobs().contains("baseline") && s.jobs().contains("fpgamr")).findFirst();
        if (sweep.isEmpty()) {
            return;
        }
        Plan.Sweep s = sweep.get();
        c.line("## The framework's overhead (thesis chapter 12): the plain Hadoop job against fpgamr's");
        c.line();
        c.line("The thesis found its FPGA's speed lost in its framework and measured it by patching Disco: the same job on stock and on "
            + "patched Disco, node by node. fpgamr's counterpart sets the same benchmark written the plain Hadoop way (the baseline job, "
            + "`BaselineJob`: `MessageDigest` in the mapper, hashing and emitting value by value, `Text` pairs through Hadoop's own sort "
            + "and merge) against fpgamr's job (the native or FPGA engine in batches, `ByteKeyCollector`, `KeyRunShuffle`) on the same "
            + "cluster: the first stands for stock Disco, the second for the patched one. Neither side is the thesis's framework, and this "
            + "plan's domain, maps and reducers are its own (below); the ratios compare shapes, not machines.");
        c.line();
        c.line("**1 PpK is not the thesis's 1 PpK.** The thesis's mapper at 1 PpK was called once per value and hashed and emitted once per "
            + "call. fpgamr's job reads the same records of one value each, but its mapper batches them across `map()` calls (consecutive "
            + "values, up to 2^18) and hashes and emits each batch at once; the plain job hashes and emits once per `map()` call, as the "
            + "thesis's did.");
        c.line();
        c.line("### The thesis: stock Disco against its patched Disco (2^18 PpK, 32 maps, one node; tables 9.1-12.2, as printed)");
        c.line();
        c.line("| thesis node | t_map stock [s] | t_map patched [s] | t_map stock ÷ patched | TpW stock | TpW patched | TpW patched ÷ stock "
            + "|");
        c.line("|---|---|---|---|---|---|---|");
        for (ThesisPair t : THESIS) {
            Optional<Published.Entry> stock = c.published.find(t.node(), "disco", 262144, t.stockReducers(), 1, false);
            Optional<Published.Entry> patched = c.published.find(t.node(), "patched", 262144, 32, 1, false);
            if (stock.isEmpty() || patched.isEmpty()) {
                continue;
            }
            Published.Entry a = stock.get();
            Published.Entry b = patched.get();
            c.line("| " + t.name() + (t.stockReducers() != 32 ? " (stock: " + t.stockReducers() + " reducers, section " + a.tables() + ")" : "")
                + " | " + Published.Entry.format(a.mapS()) + " | " + Published.Entry.format(b.mapS()) + " | "
                + ratio(Published.Entry.mean(a.mapS()), thesisSide(t.node(), "stock Disco's t_map", false), Published.Entry.mean(b.mapS()),
                    thesisSide(t.node(), "patched Disco's t_map", false)) + " | " + Published.Entry.format(a.tpw()) + " | "
                + Published.Entry.format(b.tpw()) + " | " + ratio(Published.Entry.mean(b.tpw()), thesisSide(t.node(), "patched Disco's TpW", false),
                    Published.Entry.mean(a.tpw()), thesisSide(t.node(), "stock Disco's TpW", false))
                + " |");
        }
        c.line();
        c.line("### Here: the plain Hadoop job against fpgamr's, per node type and PpK");
        c.line();
        c.line("Stage times and map-task times measured; TpW with its basis. Map tasks: the maps' whole time summed over the maps; the engine "
            + "share is the part inside the engine's calls (fpgamr's counters; the plain job hashes inline and does not count it).");
        c.line();
        c.line("| node type | PpK | job | runs | t_map [s] | t_shuffle [s] | t_reduce [s] | t_total [s] | TpW [1/J] | TpW basis | map tasks [s] "
            + "| engine share | t_map plain ÷ fpgamr | TpW fpgamr ÷ plain |");
        c.line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (String type : Plan.NODE_TYPES) {
            for (Plan.Input in : s.inputs()) {
                int reducers = s.reducers().get(0);
                int nodes = s.nodes().get(0);
                Point plain = new Point("baseline", type, c.plan.bits(), in.ppk(), in.maps(), reducers, nodes);
                Point ours = new Point("fpgamr", type, c.plan.bits(), in.ppk(), in.maps(), reducers, nodes);
                List<ResultRow> rp = c.runs(plain.id());
                List<ResultRow> ro = c.runs(ours.id());
                if (type.equals("fpga")) {
                    // the plain job has no FPGA engine: its row would be the x86 row again
                    ro = fpgaRuns(c, in.ppk());
                    if (ro.isEmpty()) {
                        continue;
                    }
                    c.line("| fpga | " + ppk(in.ppk()) + " | plain | | the plain job has no FPGA engine: no row (it would be the x86 row "
                        + "again) | | | | | | | | | |");
                    c.line(row("fpga" + label(ro), in.ppk(), "fpgamr", ro) + " | | |");
                    continue;
                }
                if (rp.isEmpty() && ro.isEmpty()) {
                    continue;
                }
                if (rp.isEmpty()) {
                    // the node's label is its fpgamr runs': this row has no figure of its own
                    c.line("| " + type + label(ro) + " | " + ppk(in.ppk()) + " | plain | | no run: this plan runs the plain job "
                        + (c.plan.points().stream().anyMatch(p -> p.job().equals("baseline") && p.arm()) ? "not here" : "on x86 only")
                        + " | | | | | | | | | |");
                } else {
                    c.line(row(type + label(rp), in.ppk(), "plain (" + in.maps() + " maps, " + reducers + " reducers)", rp) + " | | |");
                }
                c.line(row(type + label(ro), in.ppk(), "fpgamr", ro) + " | "
                    + ratio(mean(rp, ResultRow::mapS), here(c, type, rp, "plain job's t_map", false), mean(ro, ResultRow::mapS),
                        here(c, type, ro, "fpgamr's t_map", false)) + " | "
                    + ratio(mean(ro, ResultRow::tpw), here(c, type, ro, "fpgamr's TpW", true), mean(rp, ResultRow::tpw),
                        here(c, type, rp, "plain job's TpW", true)) + " |");
            }
        }
        c.line();
        c.line("The plain job runs on x86" + (c.plan.points().stream().anyMatch(p -> p.job().equals("baseline") && p.arm()) ? " and the "
            + "emulated ARM node" : "") + " here; the thesis's ARM Novena and ARM-FPGA rows meet fpgamr's other node types in \"The three "
            + "node types side by side\" below. The FPGA row is the Verilated design run by a CPU (see the modelled ARM-FPGA device below "
            + "for the device alone).");
        c.line();
    }

    /** fpgamr's runs on the FPGA node at this PpK, from any sweep (the plain job's sweep has none: it runs on x86 only). */
    private static List<ResultRow> fpgaRuns(ReportContext c, int ppk) {
        return c.plan.points().stream().filter(p -> p.job().equals("fpgamr") && p.fpga() && p.ppk() == ppk).findFirst()
            .map(p -> c.runs(p.id())).orElse(List.of());
    }

    private static String row(String type, int ppk, String job, List<ResultRow> rs) {
        Double maps = mean(rs, r -> r.mapTasksS() == null ? null : r.mapTasksS() + nz(r.sortS()));
        Double engine = mean(rs, ResultRow::engineS);
        return "| " + type + " | " + ppk(ppk) + " | " + job + " | " + rs.size() + " | " + fmt(stat(rs, ResultRow::mapS)) + " | "
            + fmt(stat(rs, ResultRow::shuffleS)) + " | " + fmt(stat(rs, ResultRow::reduceS)) + " | " + fmt(stat(rs, ResultRow::totalS)) + " | "
            + energyFmt(rs, ResultRow::tpw, false) + " | " + basisWord(rs) + " | " + (maps == null ? "" : String.format(Locale.ROOT, "%.2f", maps))
            + " | " + (job.startsWith("plain") || maps == null || engine == null || maps == 0 ? "not counted"
                : String.format(Locale.ROOT, "%.1f%%", 100 * engine / maps));
    }
}
