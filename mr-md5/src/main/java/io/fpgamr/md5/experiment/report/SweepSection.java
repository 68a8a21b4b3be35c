package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.basisWord;
import static io.fpgamr.md5.experiment.report.Cells.energyFmt;
import static io.fpgamr.md5.experiment.report.Cells.fmt;
import static io.fpgamr.md5.experiment.report.Cells.hashedCell;
import static io.fpgamr.md5.experiment.report.Cells.here;
import static io.fpgamr.md5.experiment.report.Cells.label;
import static io.fpgamr.md5.experiment.report.Cells.mean;
import static io.fpgamr.md5.experiment.report.Cells.powerFmt;
import static io.fpgamr.md5.experiment.report.Cells.ppk;
import static io.fpgamr.md5.experiment.report.Cells.ratio;
import static io.fpgamr.md5.experiment.report.Cells.runsCell;
import static io.fpgamr.md5.experiment.report.Cells.stat;

import io.fpgamr.energy.Stats;
import io.fpgamr.energy.report.StudyCharts;
import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.Published;
import io.fpgamr.md5.experiment.ResultRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** One sweep: the thesis's stage-time and TpW tables, with figure 10.x (reducers) and 11.x (node count) where it varies them. */
final class SweepSection {
    private final ReportContext c;
    private final Plan.Sweep s;

    private SweepSection(ReportContext c, Plan.Sweep s) {
        this.c = c;
        this.s = s;
    }

    static void render(ReportContext c, Plan.Sweep s) throws IOException {
        new SweepSection(c, s).render();
    }

    private void render() throws IOException {
        List<Point> points = c.plan.points(s);
        boolean scaling = s.nodes().size() > 1;
        c.line("## " + heading());
        c.line();
        if (s.title() != null) {
            c.line("The plan's note: " + s.title() + ".");
            c.line();
        }
        c.line(produces(points, scaling));
        c.line();
        c.line("### Stage times [s], mean ± sd (measured)");
        c.line();
        c.line("| job | node type | PpK | maps | reducers | nodes | runs | values hashed | t_map | t_shuffle | t_reduce | t_total | thesis t_total "
            + "| ratio |" + (scaling ? " k_total (this run, computed) | thesis k_total (table 11.1, as printed) |" : ""));
        c.line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" + (scaling ? "---|---|" : ""));
        Point first = points.get(0); // the one-node point of the rows below it, for k
        for (Point p : points) {
            List<ResultRow> rs = c.runs(p.id());
            Optional<Published.Entry> th = thesis(p, scaling);
            Stats total = stat(rs, ResultRow::totalS);
            String k = "";
            if (scaling) {
                if (p.nodes() == s.nodes().get(0)) {
                    first = p;
                }
                List<ResultRow> one = c.runs(first.id());
                k = " " + ratio(mean(rs, ResultRow::totalS), here(c, p.nodeType(), rs, "t_total on " + nodes(p.nodes()), false),
                    mean(one, ResultRow::totalS), here(c, first.nodeType(), one, "t_total on " + nodes(first.nodes()), false))
                    + " | " + th.map(e -> Published.Entry.formatK(e.kTotal())).orElse("") + " |";
            }
            c.line("| " + p.job() + " | " + p.nodeType() + label(rs) + " | " + ppk(p.ppk()) + " | " + p.maps() + " | " + p.reducers() + " | "
                + p.nodes() + " | " + runsCell(c, p) + " | " + hashedCell(rs) + " | " + fmt(stat(rs, ResultRow::mapS)) + " | "
                + fmt(stat(rs, ResultRow::shuffleS)) + " | " + fmt(stat(rs, ResultRow::reduceS)) + " | " + fmt(total) + " | "
                + th.map(e -> Published.Entry.format(e.totalS()) + " (" + e.node() + ")").orElse("") + " | "
                + th.map(e -> ratio(mean(rs, ResultRow::totalS), here(c, p.nodeType(), rs, "t_total", false), Published.Entry.mean(e.totalS()),
                    Cells.thesisSide(e.node(), "t_total", false))).orElse("")
                + " |" + k);
        }
        c.line();
        c.line("### Energy and TpW, mean ± sd (basis per row)");
        c.line();
        c.line("A declared wattage is one stated number, no meter: a declared row's energy is that wattage times the measured time, "
            + "so its energy, TpW and ED²P are modelled and their ± is the time's spread alone.");
        c.line();
        c.line("| job | node type | PpK | reducers | nodes | basis | energy [J] | mean power [W] | TpW [1/J] | ED²P [J·s²] | thesis TpW (measured) "
            + "| ratio |" + (scaling ? " k_TpW (this run, computed) | thesis k_TpW (table 11.2, as printed) |" : ""));
        c.line("|---|---|---|---|---|---|---|---|---|---|---|---|" + (scaling ? "---|---|" : ""));
        first = points.get(0);
        for (Point p : points) {
            List<ResultRow> rs = c.runs(p.id());
            Optional<Published.Entry> th = thesis(p, scaling);
            String k = "";
            if (scaling) {
                if (p.nodes() == s.nodes().get(0)) {
                    first = p;
                }
                List<ResultRow> one = c.runs(first.id());
                k = " " + ratio(mean(rs, ResultRow::tpw), here(c, p.nodeType(), rs, "TpW on " + nodes(p.nodes()), true), mean(one, ResultRow::tpw),
                    here(c, first.nodeType(), one, "TpW on " + nodes(first.nodes()), true))
                    + " | " + th.map(e -> Published.Entry.formatK(e.kTpw())).orElse("") + " |";
            }
            c.line("| " + p.job() + " | " + p.nodeType() + label(rs) + " | " + ppk(p.ppk()) + " | " + p.reducers() + " | "
                + p.nodes() + " | " + basisWord(rs)
                + " | " + energyFmt(rs, ResultRow::energyJ, false) + " | " + powerFmt(rs) + " | " + energyFmt(rs, ResultRow::tpw, false) + " | "
                + energyFmt(rs, ResultRow::ed2pJs2, true) + " | " + th.map(e -> Published.Entry.format(e.tpw()) + " (" + e.node() + ")").orElse("")
                + " | " + th.map(e -> ratio(mean(rs, ResultRow::tpw), here(c, p.nodeType(), rs, "TpW, whole job", true), Published.Entry.mean(e.tpw()),
                    Cells.thesisSide(e.node(), "TpW, whole node", false))).orElse("")
                + " |" + k);
        }
        c.line();
        if (s.reducers().size() > 1) {
            stagesFigure(points);
        }
        if (scaling) {
            scalingFigure(points);
        }
    }

    /** The sweep's heading, from what it runs: its jobs, node types, inputs, reducers and nodes. */
    private String heading() {
        String inputs = String.join(", ", s.inputs().stream().map(in -> ppk(in.ppk()) + " PpK with " + in.maps() + " maps").toList());
        return "Sweep " + s.name() + ": " + String.join(" and ", s.jobs()) + " on " + String.join(" and ", s.nodeTypes()) + ", " + inputs + ", "
            + list(s.reducers()) + " reducer(s), " + list(s.nodes()) + " node(s)";
    }

    private static String nodes(int n) {
        return n + (n == 1 ? " node" : " nodes");
    }

    private static String list(List<Integer> xs) {
        return xs.size() == 1 ? xs.get(0).toString() : String.join(", ", xs.subList(0, xs.size() - 1).stream().map(String::valueOf).toList())
            + " and " + xs.get(xs.size() - 1);
    }

    /** What the sweep produces, and which thesis rows (by their tables) it is set beside: those it found, no others. */
    private String produces(List<Point> points, boolean scaling) {
        TreeSet<String> tables = new TreeSet<>(Cells.BY_NUMBER);
        TreeSet<String> nodes = new TreeSet<>();
        for (Point p : points) {
            thesis(p, scaling).ifPresent(e -> {
                tables.addAll(List.of(e.tables().split(" ")));
                nodes.add(e.node());
            });
        }
        List<String> parts = new ArrayList<>(List.of("a stage-time table", "an energy and TpW table"));
        if (s.reducers().size() > 1) {
            parts.add("a chart of stage times per reducer count");
        }
        if (scaling) {
            parts.add("k coefficients and a chart of them against node count");
        }
        return "This sweep produces " + String.join(", ", parts) + ". "
            + (tables.isEmpty() ? "No thesis row has its configuration: no thesis figure is set beside it."
                : "Set beside the thesis's " + String.join(" and ", nodes) + " rows of its tables " + String.join(", ", tables) + " on "
                + (s.thesisFramework().equals("patched") ? "its patched Disco (chapter 12)" : "stock Disco")
                + (s.thesisReducers() == null ? "" : "; this plan's reducers " + s.reducers() + " stand for the thesis's " + s.thesisReducers())
                + (scaling ? "; the thesis scaled ARM Novena boards, this sweep embedded nodes sharing one machine's cores" : "") + ".");
    }

    /**
     * The thesis's row a point of a sweep stands for: its x86 rows for this machine's CPU, its ARM
     * rows for the node-count study (the thesis scaled ARM boards only), none for a simulated FPGA
     * nor an emulated ARM node (ArmSection puts those beside the thesis's Novena, without ratios).
     */
    private Optional<Published.Entry> thesis(Point p, boolean scaling) {
        if (!p.job().equals("fpgamr") || p.fpga() || p.arm()) {
            return Optional.empty();
        }
        return c.published.find(scaling ? "arm" : "x86", s.thesisFramework(), p.ppk(), s.thesisReducers(p.reducers()), p.nodes(), scaling);
    }

    /** Figure 10.x: stage times per reducer count, stacked, one chart per node type and input. */
    private void stagesFigure(List<Point> points) throws IOException {
        Map<String, List<Point>> groups = new LinkedHashMap<>();
        for (Point p : points) {
            if (p.nodes() == s.nodes().get(0)) {
                groups.computeIfAbsent(p.job() + "-" + p.nodeType() + "-ppk" + p.ppk(), k -> new ArrayList<>()).add(p);
            }
        }
        for (Map.Entry<String, List<Point>> g : groups.entrySet()) {
            List<String> cats = new ArrayList<>();
            Map<String, List<Double>> series = new LinkedHashMap<>();
            String rest = "rest of t_total (submission to the first map, completion)";
            for (String st : List.of("map", "shuffle", "reduce", rest)) {
                series.put(st, new ArrayList<>());
            }
            for (Point p : g.getValue()) {
                List<ResultRow> rs = c.runs(p.id());
                cats.add(p.reducers() + " reducers");
                series.get("map").add(mean(rs, ResultRow::mapS));
                series.get("shuffle").add(mean(rs, ResultRow::shuffleS));
                series.get("reduce").add(mean(rs, ResultRow::reduceS));
                series.get(rest).add(mean(rs, r -> r.totalS() == null ? null : r.totalS() - r.mapS() - r.shuffleS() - r.reduceS()));
            }
            Point first = g.getValue().get(0);
            String name = s.name() + "-stages-" + g.getKey();
            StudyCharts.write(StudyCharts.bars("Stage times per reducer count: " + first.job() + " on " + first.nodeType() + ", "
                + ppk(first.ppk()) + " PpK, " + first.maps() + " maps (measured)", "reducers", "mean time [s]", cats, series, true), c.figure(name));
            c.image("Stage times per reducer count, " + g.getKey(), name);
        }
    }

    /** Figure 11.x: scaling with node count as the thesis's k (time over the one-node time), ours beside the thesis's. */
    private void scalingFigure(List<Point> points) throws IOException {
        List<Double> x = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("fpgamr k_total (measured)", new ArrayList<>());
        series.put("thesis k_total (ARM Novena cluster, table 11.1 as printed)", new ArrayList<>());
        Double base = null;
        for (Point p : points) {
            if (!p.job().equals("fpgamr")) {
                continue;
            }
            Double t = mean(c.runs(p.id()), ResultRow::totalS);
            Double thK = thesis(p, true).map(Published.Entry::kTotal).orElse(null);
            if (x.isEmpty()) {
                base = t;
            }
            x.add((double) p.nodes());
            series.get("fpgamr k_total (measured)").add(t == null || base == null ? null : t / base);
            series.get("thesis k_total (ARM Novena cluster, table 11.1 as printed)").add(thK);
        }
        String name = s.name() + "-scaling";
        StudyCharts.write(StudyCharts.lines("Scaling with node count: total time over the one-node time (embedded nodes share one machine)",
            "nodes", "k_total", x, series), c.figure(name));
        c.image("Scaling with node count", name);
    }
}
