package io.fpgamr.md5.cli;

import io.fpgamr.energy.JobEnergy;
import io.fpgamr.energy.Stats;
import io.fpgamr.energy.Timeline;
import io.fpgamr.md5.balance.Balance;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run report for people: preimages on stdout (hashcat's potfile lines), the figures on stderr.
 * Every figure that comes from a simulated FPGA says so.
 */
final class RunPrinter {
    private static final String SIMULATED = "SIMULATED FPGA: a CPU ran the HDL model, so these are the simulation's figures, not an FPGA's";

    private final PrintStream out;
    private final PrintStream err;

    RunPrinter(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    void print(RunConfig config, RunReport report) {
        for (String line : report.preimages()) {
            out.println(line);
        }
        out.flush();
        if (report.preimages().isEmpty()) {
            err.println("fpgamr: no preimage found for " + config.targets().size() + " target(s) among 2^" + config.domain().bits() + " values");
        }
        if (report.repetitions() == null) {
            RunReport.JobRun run = report.runs().get(0);
            job(run);
            err.println("  energy: " + energyLine(run.energy()) + "; report in " + run.energyDir());
        } else {
            repetitions(report);
        }
    }

    /** The summary of one job: values hashed, the stage table, where its maps ran, the FPGA's figures. */
    private void job(RunReport.JobRun run) {
        JobSummary s = run.summary();
        err.printf("fpgamr: values hashed %d of %d%n", s.valuesHashed(), s.valuesExpected());
        if (s.shuffle() != null) {
            err.printf(Locale.ROOT, "  shuffle: %d map output records, %d reduce input records, %.1f bytes per record%n",
                s.shuffle().mapOutputRecords(), s.shuffle().reduceInputRecords(), s.shuffle().bytesPerRecord());
        }
        err.printf("  %-8s %9s%n", "stage", "seconds");
        JobSummary.Stages st = s.stages();
        double[] seconds = {st.mapS(), st.shuffleS(), st.reduceS(), st.totalS()};
        for (int i = 0; i < seconds.length; i++) {
            err.printf(Locale.ROOT, "  %-8s %9.2f%n", Timeline.STAGES.get(i), seconds[i]);
        }
        err.printf(Locale.ROOT, "  values/s %.4g overall, %.4g in the map stage%n", s.valuesPerS(), s.mapValuesPerS());
        if (run.simulated()) {
            err.println("  (stage times and values/s: " + SIMULATED + ")");
        }
        for (Map.Entry<String, MapsOnNode> n : s.mapsByNode().entrySet()) {
            MapsOnNode m = n.getValue();
            err.printf("  maps on %s (%s): %d cpu, %d fpga%s%n", n.getKey(), m.describe(), m.cpu(), m.fpga(), m.simulated() ? " (simulated)" : "");
        }
        balance(s.balance());
        timeline(s.timeline(), run.simulated());
        if (s.fpga() != null) {
            err.println("  " + s.fpga().line());
        }
        fallbackWarning(run);
        err.println("  output in " + s.output());
    }

    /** Per node and engine: the speed it was given, its maps and values, the node's last map end; then the straggler. */
    private void balance(Balance b) {
        if (b == null || b.nodes().isEmpty()) {
            return;
        }
        err.println("  balance (" + (b.design().equals("stream") ? "stream: maps claimed units sized by their speed while they ran"
            : "static: equal splits") + "):");
        err.printf("  %-22s %-8s %-18s %-34s %5s %14s %13s%n", "node", "type", "engine", "speed given (values/s of a map)", "maps",
            "values hashed", "last map end");
        for (Map.Entry<String, Balance.NodeShare> n : b.nodes().entrySet()) {
            Balance.NodeShare ns = n.getValue();
            boolean firstLine = true;
            for (Balance.EngineShare e : ns.engines()) {
                String given = e.speedGiven() == null ? "none" : String.format(Locale.ROOT, "%.3g (%s%s)", e.speedGiven(), e.speedSource(),
                    e.simulated() && !e.speedSource().contains("simulated") ? ", simulated" : "");
                err.printf(Locale.ROOT, "  %-22s %-8s %-18s %-34s %5d %14d %13s%n", firstLine ? n.getKey() : "", firstLine ? ns.type() : "",
                    e.engine(), given, e.maps(), e.valuesHashed(), firstLine ? String.format(Locale.ROOT, "%.2f s", ns.lastMapEndS()) : "");
                firstLine = false;
            }
        }
        err.printf(Locale.ROOT, "  straggler %.2f s (the last node's last map end minus the earliest node's)%n", b.stragglerS());
    }

    /** Where the job's time went: each phase's first and last time since submission, its tasks, its source; per node where they differ. */
    private void timeline(JobTimeline t, boolean simulated) {
        if (t == null) {
            return;
        }
        err.println("  timeline (measured wall clock, seconds since submission; job history " + t.history()
            + (simulated ? "; the FPGA maps' hashing ran on simulated FPGAs" : "") + "):");
        err.printf("  %-26s %6s %9s %9s  %s%n", "phase", "count", "first", "last", "source");
        for (JobTimeline.Phase p : t.phases()) {
            err.printf(Locale.ROOT, "  %-26s %6d %9.2f %9.2f  %s%n", p.phase(), p.count(), p.firstS(), p.lastS(), p.source());
            if (p.byNode() != null) {
                for (Map.Entry<String, JobTimeline.OnNode> n : p.byNode().entrySet()) {
                    err.printf(Locale.ROOT, "    on %-21s %6d %9.2f %9.2f%n", n.getKey(), n.getValue().count(), n.getValue().firstS(),
                        n.getValue().lastS());
                }
            }
        }
    }

    private void fallbackWarning(RunReport.JobRun run) {
        if (run.javaFallbackMaps() > 0) {
            err.printf("  warning: %d map(s) hashed in pure Java: no native kernel for their platform%n", run.javaFallbackMaps());
        }
    }

    /** One line per run of repeated runs, as each ends. */
    void runLine(int i, RunReport.JobRun run) {
        JobSummary.Stages st = run.summary().stages();
        err.printf(Locale.ROOT, "fpgamr: run %d: %s values hashed, map %.2f s, shuffle %.2f s, reduce %.2f s, total %.2f s; energy %s%s%n", i,
            run.summary().valuesHashed(), st.mapS(), st.shuffleS(), st.reduceS(), st.totalS(), energyLine(run.energy()),
            run.simulated() ? " (simulated FPGA)" : "");
        fallbackWarning(run);
    }

    /** The thesis's way of giving repeated runs: each figure as mean ± standard deviation. */
    private void repetitions(RunReport report) {
        List<RunReport.JobRun> runs = report.runs();
        err.printf("fpgamr: %d runs, each hashed %d values%n", runs.size(), report.summary().valuesExpected());
        err.printf("  %-8s %20s%n", "figure", "mean ± sd");
        for (String[] f : new String[][] {{"map_s", "map", "s"}, {"shuffle_s", "shuffle", "s"}, {"reduce_s", "reduce", "s"},
            {"total_s", "total", "s"}, {"energy_j", "energy", "J"}, {"mean_w", "power", "W"}, {"tpw", "TpW", "values/J"}}) {
            Stats st = report.repetitions().stat(f[0]);
            if (st != null) {
                err.printf("  %-8s %20s %s%n", f[1], st.format(f[0].equals("tpw") ? 0 : 2), f[2]);
            }
        }
        if (report.simulated()) {
            err.println("  (" + SIMULATED + "; energy and TpW are modelled)");
        }
        if (report.repetitions().stat("energy_j") == null) {
            boolean none = runs.stream().allMatch(r -> r.energy().energyJ() == null);
            err.println(none ? "  energy: " + energyLine(runs.get(0).energy())
                : "  energy: not measured in every run (see each run's report): no mean given");
        }
        err.println("  output in " + report.summary().output() + " (run-1 .. run-" + runs.size() + ")");
        err.println("  energy report over the runs in " + runs.get(0).energyDir().getParent());
    }

    private static String energyLine(JobEnergy e) {
        if (e.energyJ() == null) {
            String why = e.unavailable();
            return e.status() + (why != null && !why.equals(e.status()) ? " (" + why + ")" : "");
        }
        return String.format(Locale.ROOT, "%.1f J (%s), mean %.1f W, TpW %.4g values/J%s", e.energyJ(), e.status(), e.meanW(), e.tpw(),
            e.simulated() ? " (modelled: maps on a simulated FPGA, the joules are the simulating CPU's)" : "");
    }
}
