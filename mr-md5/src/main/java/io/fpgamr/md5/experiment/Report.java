package io.fpgamr.md5.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.energy.Mappers;
import io.fpgamr.energy.Stats;
import io.fpgamr.energy.report.StudyCharts;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code DIR/report.md} and its figures ({@code DIR/figures/*.png|svg}) from a plan and its
 * results: per sweep the thesis's stage-time and TpW tables (mean ± sd over the runs) with the
 * thesis's published value and the ratio beside wherever it has one; fpgamr against the plain
 * Hadoop job; where the maps' time goes; the modelled ARM-FPGA node; the power charts of the runs;
 * and every failed run. Modelled and declared figures are labelled where they appear.
 */
public final class Report {
    public static final String FILE = "report.md";
    static final String FIGURES = "figures";

    private final Plan plan;
    private final Published published;
    private final Path planFolder;
    private final Path dir;
    private final Map<String, List<ResultRow>> ok = new LinkedHashMap<>();
    private final List<ResultRow> failed = new ArrayList<>();
    private final StringBuilder md = new StringBuilder();

    private Report(Plan plan, Published published, Path planFolder, List<ResultRow> rows, Path dir) {
        this.plan = plan;
        this.published = published;
        this.planFolder = planFolder;
        this.dir = dir;
        for (ResultRow r : rows) {
            if (r.ok()) {
                ok.computeIfAbsent(r.point(), k -> new ArrayList<>()).add(r);
            } else {
                failed.add(r);
            }
        }
    }

    /** Writes the report and its figures into {@code dir}; returns the report's path. */
    public static Path write(Plan plan, Published published, Path planFolder, List<ResultRow> rows, Path dir) throws IOException {
        Report r = new Report(plan, published, planFolder, rows, dir);
        Files.createDirectories(dir.resolve(FIGURES));
        r.render();
        Path file = dir.resolve(FILE);
        AtomicFiles.writeString(file, r.md.toString());
        return file;
    }

    private void render() throws IOException {
        line("# " + plan.name() + ": the thesis's study, reproduced by fpgamr");
        line();
        long runs = ok.values().stream().mapToLong(List::size).sum();
        boolean exact = ok.values().stream().flatMap(List::stream).allMatch(r -> r.valuesHashed() != null
            && r.valuesHashed().equals(r.valuesExpected()));
        line(String.format(Locale.ROOT, "Domain 2^%d values per job (the thesis: 2^28), %d run(s) per point, %d point(s): %d run(s) done, "
            + "%d failed. Values hashed equal 2^%d in every run done: %s.", plan.bits(), plan.repetitions(), plan.points().size(), runs,
            failed.size(), plan.bits(), exact ? "yes" : "NO"));
        line();
        line("Times are measured (the tasks' own clocks). Energy, mean power, TpW and ED²P carry their basis: **declared** (a wattage "
            + "the plan states, no meter: modelled), **measured** (a power source read it), or **simulated FPGA** (maps on the Verilated "
            + "design run by a CPU: modelled). Ratios are fpgamr / thesis; the thesis ran 2^28 values on its own hardware, so time "
            + "ratios at another domain size compare shapes, not speeds. Thesis values: " + published.source() + ".");
        line();
        for (Plan.Sweep s : plan.sweeps()) {
            sweep(s);
        }
        baseline();
        whereTimeGoes();
        armFpga();
        powerFigures();
        failures();
    }

    // ---- one sweep: the thesis's timing and TpW tables

    private void sweep(Plan.Sweep s) throws IOException {
        line("## " + (s.title() != null ? s.title() : s.name()) + (s.tables() == null ? "" : " (thesis " + String.join(", ", s.tables()) + ")"));
        line();
        List<Point> points = plan.points(s);
        boolean scaling = s.nodes().size() > 1;
        line("Compared with the thesis's " + (scaling ? "ARM Novena cluster" : "reference x86 system") + " on "
            + (s.thesisFramework().equals("patched") ? "its patched Disco (chapter 12)" : "Disco")
            + (s.thesisReducers() == null ? "" : "; this plan's reducers " + s.reducers() + " stand for the thesis's " + s.thesisReducers())
            + ".");
        line();
        line("### Stage times [s], mean ± sd");
        line();
        line("| job | node type | PpK | maps | reducers | nodes | runs | values hashed | t_map | t_shuffle | t_reduce | t_total | thesis t_total "
            + "| ratio |" + (scaling ? " k_total | thesis k_total |" : ""));
        line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" + (scaling ? "---|---|" : ""));
        Double total1 = null;
        Double thesisTotal1 = null;
        for (Point p : points) {
            List<ResultRow> rs = ok.getOrDefault(p.id(), List.of());
            Optional<Published.Entry> th = thesis(s, p, scaling);
            Stats total = stat(rs, ResultRow::totalS);
            String k = "";
            if (scaling) {
                if (p.nodes() == s.nodes().get(0)) {
                    total1 = rs.isEmpty() ? null : total.mean();
                    thesisTotal1 = th.map(e -> Published.Entry.mean(e.totalS())).orElse(null);
                }
                k = " " + ratio(rs.isEmpty() ? null : total.mean(), total1) + " | "
                    + ratio(th.map(e -> Published.Entry.mean(e.totalS())).orElse(null), thesisTotal1) + " |";
            }
            line("| " + p.job() + " | " + p.nodeType() + label(rs) + " | " + ppk(p.ppk()) + " | " + p.maps() + " | " + p.reducers() + " | "
                + p.nodes() + " | " + runsCell(p) + " | " + hashedCell(rs) + " | " + fmt(stat(rs, ResultRow::mapS)) + " | "
                + fmt(stat(rs, ResultRow::shuffleS)) + " | " + fmt(stat(rs, ResultRow::reduceS)) + " | " + fmt(total) + " | "
                + th.map(e -> Published.Entry.format(e.totalS()) + " (" + e.node() + ")").orElse("") + " | "
                + ratio(rs.isEmpty() ? null : total.mean(), th.map(e -> Published.Entry.mean(e.totalS())).orElse(null)) + " |" + k);
        }
        line();
        line("### Energy and TpW, mean ± sd");
        line();
        line("| job | node type | PpK | reducers | nodes | basis | energy [J] | mean power [W] | TpW [1/J] | ED²P [J·s²] | thesis TpW | ratio |");
        line("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Point p : points) {
            List<ResultRow> rs = ok.getOrDefault(p.id(), List.of());
            Optional<Published.Entry> th = thesis(s, p, scaling);
            Stats tpw = stat(rs, ResultRow::tpw);
            line("| " + p.job() + " | " + p.nodeType() + " | " + ppk(p.ppk()) + " | " + p.reducers() + " | " + p.nodes() + " | " + basis(rs)
                + " | " + fmt(stat(rs, ResultRow::energyJ)) + " | " + fmt(stat(rs, ResultRow::meanW)) + " | " + fmt(tpw) + " | "
                + fmtSci(stat(rs, ResultRow::ed2pJs2)) + " | " + th.map(e -> Published.Entry.format(e.tpw()) + " (" + e.node() + ")").orElse("")
                + " | " + ratio(tpw.n() == 0 ? null : tpw.mean(), th.map(e -> Published.Entry.mean(e.tpw())).orElse(null)) + " |");
        }
        line();
        if (s.reducers().size() > 1) {
            stagesFigure(s, points);
        }
        if (scaling) {
            scalingFigure(s, points);
        }
    }

    /**
     * The thesis's row a point of a sweep stands for: its x86 rows for this machine's CPU, its ARM
     * rows for the node-count study (the thesis scaled ARM boards only), none for a simulated FPGA.
     */
    private Optional<Published.Entry> thesis(Plan.Sweep s, Point p, boolean scaling) {
        if (!p.job().equals("fpgamr") || p.fpga()) {
            return Optional.empty();
        }
        return published.find(scaling ? "arm" : "x86", s.thesisFramework(), p.ppk(), s.thesisReducers(p.reducers()), p.nodes(), scaling);
    }

    /** Figure 10.x: stage times per reducer count, stacked, one chart per node type and input. */
    private void stagesFigure(Plan.Sweep s, List<Point> points) throws IOException {
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
                List<ResultRow> rs = ok.getOrDefault(p.id(), List.of());
                cats.add(p.reducers() + " reducers");
                series.get("map").add(mean(rs, ResultRow::mapS));
                series.get("shuffle").add(mean(rs, ResultRow::shuffleS));
                series.get("reduce").add(mean(rs, ResultRow::reduceS));
                series.get(rest).add(mean(rs, r -> r.totalS() == null ? null : r.totalS() - r.mapS() - r.shuffleS() - r.reduceS()));
            }
            Point first = g.getValue().get(0);
            String name = s.name() + "-stages-" + g.getKey();
            StudyCharts.write(StudyCharts.bars("Stage times per reducer count: " + first.job() + " on " + first.nodeType() + ", "
                + ppk(first.ppk()) + " PpK, " + first.maps() + " maps (measured)", "reducers", "mean time [s]", cats, series, true), figure(name));
            image("Stage times per reducer count, " + g.getKey(), name);
        }
    }

    /** Figure 11.x: scaling with node count as the thesis's k (time over the one-node time), ours beside the thesis's. */
    private void scalingFigure(Plan.Sweep s, List<Point> points) throws IOException {
        List<Double> x = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("fpgamr k_total (measured)", new ArrayList<>());
        series.put("thesis k_total (ARM Novena cluster)", new ArrayList<>());
        Double base = null;
        Double thesisBase = null;
        for (Point p : points) {
            if (!p.job().equals("fpgamr")) {
                continue;
            }
            Double t = mean(ok.getOrDefault(p.id(), List.of()), ResultRow::totalS);
            Double th = thesis(s, p, true).map(e -> Published.Entry.mean(e.totalS())).orElse(null);
            if (x.isEmpty()) {
                base = t;
                thesisBase = th;
            }
            x.add((double) p.nodes());
            series.get("fpgamr k_total (measured)").add(t == null || base == null ? null : t / base);
            series.get("thesis k_total (ARM Novena cluster)").add(th == null || thesisBase == null ? null : th / thesisBase);
        }
        String name = s.name() + "-scaling";
        StudyCharts.write(StudyCharts.lines("Scaling with node count: total time over the one-node time (embedded nodes share one machine)",
            "nodes", "k_total", x, series), figure(name));
        image("Scaling with node count", name);
    }

    // ---- fpgamr against the plain Hadoop job

    private void baseline() {
        List<Point> base = plan.points().stream().filter(p -> p.job().equals("baseline")).toList();
        if (base.isEmpty()) {
            return;
        }
        line("## fpgamr against the same search written the plain Hadoop way");
        line();
        line("The baseline job: one record per value, `MessageDigest` in the mapper, `Text` keys and values (`BaselineJob`). "
            + "Speed-up = baseline t_total / fpgamr t_total; TpW ratio = fpgamr TpW / baseline TpW (same energy basis for both).");
        line();
        line("| node type | PpK | maps | reducers | nodes | baseline t_total [s] | fpgamr t_total [s] | speed-up | baseline TpW | fpgamr TpW | TpW ratio |");
        line("|---|---|---|---|---|---|---|---|---|---|---|");
        for (Point b : base) {
            Point f = new Point("fpgamr", b.nodeType(), b.bits(), b.ppk(), b.maps(), b.reducers(), b.nodes());
            List<ResultRow> rb = ok.getOrDefault(b.id(), List.of());
            List<ResultRow> rf = ok.getOrDefault(f.id(), List.of());
            line("| " + b.nodeType() + label(rb) + " | " + ppk(b.ppk()) + " | " + b.maps() + " | " + b.reducers() + " | " + b.nodes() + " | "
                + fmt(stat(rb, ResultRow::totalS)) + " | " + fmt(stat(rf, ResultRow::totalS)) + " | "
                + ratio(mean(rb, ResultRow::totalS), mean(rf, ResultRow::totalS)) + " | " + fmt(stat(rb, ResultRow::tpw)) + " | "
                + fmt(stat(rf, ResultRow::tpw)) + " | " + ratio(mean(rf, ResultRow::tpw), mean(rb, ResultRow::tpw)) + " |");
        }
        line();
    }

    // ---- chapter 12: where the maps' time goes

    private void whereTimeGoes() throws IOException {
        Map<String, double[]> byType = new LinkedHashMap<>();
        Map<String, Integer> runsByType = new LinkedHashMap<>();
        for (List<ResultRow> rs : ok.values()) {
            for (ResultRow r : rs) {
                if (!r.job().equals("fpgamr") || r.mapTasksS() == null || r.engineS() == null) {
                    continue;
                }
                String type = r.nodeType() + (r.flags() != null && r.flags().contains("simulated-fpga")
                    ? " (simulated: the engine is a CPU running the RTL)" : "");
                double[] a = byType.computeIfAbsent(type, k -> new double[9]);
                a[0] += r.mapTasksS() + nz(r.sortS());
                a[1] += r.startupS();
                a[2] += r.engineS();
                a[3] += nz(r.fpgaDeviceS());
                a[4] += nz(r.fpgaHostS());
                a[5] += r.readS();
                a[6] += r.writeS();
                a[7] += r.spillS() + nz(r.sortS());
                a[8] += r.engineCpuS() == null ? 0 : r.engineCpuS();
                runsByType.merge(type, 1, Integer::sum);
            }
        }
        if (byType.isEmpty()) {
            return;
        }
        line("## Where the maps' time goes (thesis chapter 12)");
        line();
        line("Per job (mean over its runs), summed over its maps, wall seconds: a map's whole time (its JVM's start to the end of its "
            + "output), of which the task's start (its JVM's start to its setup: the container's launch), the engine's calls (the CPU kernels; on an FPGA the driver's calls, "
            + "device time inside), reading records (between batches), writing output, spilling and writing the map output "
            + "(sort/merge), and the rest. FPGA device time is modelled (cycles at the clock), driver host time measured.");
        line();
        line("| node type | runs | map time | start | engine | engine CPU | FPGA device (modelled) | FPGA driver host | read | write | spill/sort "
            + "| rest | not engine |");
        line("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Map.Entry<String, double[]> e : byType.entrySet()) {
            double n = runsByType.get(e.getKey());
            double[] a = e.getValue();
            double rest = a[0] - a[1] - a[2] - a[5] - a[6] - a[7];
            line(String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %.2f | %s | %s | %.2f | %.2f | %.2f | %.2f | %.1f%% |", e.getKey(),
                (int) n, a[0] / n, a[1] / n, a[2] / n, a[8] / n, a[3] > 0 ? String.format(Locale.ROOT, "%.4f", a[3] / n) : "",
                a[4] > 0 ? String.format(Locale.ROOT, "%.3f", a[4] / n) : "", a[5] / n, a[6] / n, a[7] / n, rest / n,
                a[0] > 0 ? 100 * (1 - a[2] / a[0]) : 0.0));
        }
        line();
        // the same as a chart: each node type's map time by where it went, stacked
        List<String> cats = new ArrayList<>(byType.keySet().stream().map(t -> t.replaceAll(" \\(.*", "")).toList());
        Map<String, List<Double>> series = new LinkedHashMap<>();
        String[] parts = {"task start", "engine (wall)", "reading records", "writing output", "spill/sort", "rest"};
        for (String part : parts) {
            series.put(part, new ArrayList<>());
        }
        for (Map.Entry<String, double[]> e : byType.entrySet()) {
            double n = runsByType.get(e.getKey());
            double[] a = e.getValue();
            double[] v = {a[1], a[2], a[5], a[6], a[7], a[0] - a[1] - a[2] - a[5] - a[6] - a[7]};
            for (int i = 0; i < parts.length; i++) {
                series.get(parts[i]).add(v[i] / n);
            }
        }
        String name = "where-time-goes";
        StudyCharts.write(StudyCharts.bars("Where the maps' time goes, per job (measured; a simulated FPGA's engine time is the simulation's)",
            "node type", "map time, summed over maps [s]", cats, series, true), figure(name));
        image("Where the maps' time goes", name);
    }

    private static double nz(Double d) {
        return d == null ? 0 : d;
    }

    // ---- the modelled ARM-FPGA node

    private void armFpga() throws IOException {
        Plan.ArmFpga m = plan.armFpga();
        List<ResultRow> sim = ok.values().stream().flatMap(List::stream)
            .filter(r -> r.job().equals("fpgamr") && r.nodeType().equals("fpga") && r.fpgaDeviceCycles() != null).toList();
        if (m == null || sim.isEmpty()) {
            return;
        }
        double mhz = m.clockMhz();
        String clockSource = m.clockSource();
        double watts = m.boardWatts();
        String wattsSource = m.boardWattsSource();
        if (m.report() != null) {
            Path rep = planFolder.resolve(m.report());
            if (Files.isRegularFile(rep)) {
                JsonNode j = Mappers.JSON.readTree(rep.toFile());
                if (j.hasNonNull("design_clock_mhz")) {
                    mhz = j.get("design_clock_mhz").asDouble();
                    clockSource = "the hardware report " + m.report() + " (design_clock_mhz)";
                }
                if (j.hasNonNull("board_power_w_modelled")) {
                    watts = j.get("board_power_w_modelled").asDouble();
                    wattsSource = j.path("board_power_source").asText(wattsSource) + " (from " + m.report() + ")";
                }
            } else {
                clockSource += " (" + m.report() + " not built: `make -C hdl report`)";
            }
        }
        line("## The ARM-FPGA node, MODELLED (thesis 9.1.3, 12.1, 12.2)");
        line();
        line(String.format(Locale.ROOT, "Not measured: no board here. Device cycles are exact (the simulated RTL counted them), the clock is "
            + "%.1f MHz (%s), the board's power %.3f W is **declared** (%s). Device time = cycles / clock; energy = power × device time; "
            + "TpW = values hashed / energy. This is the device alone, an upper bound: the framework's time on the board's ARM cores is "
            + "not modelled.", mhz, clockSource, watts, wattsSource));
        line();
        line("| point | runs | device cycles | device time [s] (modelled) | energy [J] (modelled) | TpW (modelled) | thesis TpW ARM-FPGA, patched "
            + "(12.2) | ratio | thesis TpW ARM-FPGA, Disco (9.1.3) |");
        line("|---|---|---|---|---|---|---|---|---|");
        Published.Entry patched = published.find("arm-fpga", "patched", 262144, 32, 1, false).orElse(null);
        Published.Entry disco = published.find("arm-fpga", "disco", 262144, 4, 1, false).orElse(null);
        List<Double> pointTpw = new ArrayList<>(); // the mean modelled TpW of each point
        List<ModelRow> model = new ArrayList<>();
        for (Map.Entry<String, List<ResultRow>> e : ok.entrySet()) {
            List<ResultRow> rs = e.getValue().stream().filter(sim::contains).toList();
            if (rs.isEmpty()) {
                continue;
            }
            List<ModelRow> ms = new ArrayList<>();
            for (ResultRow r : rs) {
                ms.add(ModelRow.of(r, mhz, clockSource, watts, wattsSource));
            }
            model.addAll(ms);
            Stats tpw = Stats.of(ms.stream().map(ModelRow::tpw).toList());
            pointTpw.add(tpw.mean());
            line(String.format(Locale.ROOT, "| %s | %d | %.0f | %s | %s | %s | %s | %s | %s |", e.getKey(), rs.size(),
                ms.stream().mapToLong(ModelRow::deviceCycles).average().orElse(0), fmt(Stats.of(ms.stream().map(ModelRow::deviceS).toList()), 6),
                fmt(Stats.of(ms.stream().map(ModelRow::energyJ).toList()), 4), fmt(tpw), patched == null ? "" : Published.Entry.format(patched.tpw()),
                ratio(tpw.mean(), patched == null ? null : Published.Entry.mean(patched.tpw())),
                disco == null ? "" : Published.Entry.format(disco.tpw())));
        }
        line();
        StringWriter csv = new StringWriter();
        ModelRow.CSV.write(csv, model);
        AtomicFiles.writeString(dir.resolve(ModelRow.FILE), csv.toString());
        line("Each run's model, with its sources: [" + ModelRow.FILE + "](" + ModelRow.FILE + ").");
        line();
        // TpW per node type: the model, the nodes present, and the thesis's measured nodes.
        List<String> cats = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (String type : Plan.NODE_TYPES) {
            List<ResultRow> rs = ok.values().stream().flatMap(List::stream)
                .filter(r -> r.job().equals("fpgamr") && r.nodeType().equals(type) && r.tpw() != null).toList();
            if (!rs.isEmpty()) {
                cats.add(type + " here (" + basisWord(rs) + ")");
                values.add(stat(rs, ResultRow::tpw).mean());
            }
        }
        if (!pointTpw.isEmpty()) {
            cats.add("ARM-FPGA device (modelled)");
            values.add(pointTpw.stream().mapToDouble(Double::doubleValue).average().getAsDouble());
        }
        for (String node : List.of("x86", "arm", "arm-fpga")) {
            published.find(node, "patched", 262144, 32, 1, false).ifPresent(e -> {
                cats.add("thesis " + node + " (12.2, measured)");
                values.add(Published.Entry.mean(e.tpw()));
            });
        }
        // a logarithmic axis: the device alone is orders of magnitude above whole nodes
        for (int i = values.size() - 1; i >= 0; i--) {
            if (values.get(i) == null || !(values.get(i) > 0)) {
                values.remove(i);
                cats.remove(i);
            }
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("TpW [1/J]", values);
        String name = "tpw-node-types";
        var chart = StudyCharts.bars("TpW per node type (labels say measured, declared or modelled)", "node type", "TpW [1/J], log scale",
            cats, series, false);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(1.0);
        chart.getStyler().setXAxisLabelRotation(15);
        StudyCharts.write(chart, figure(name));
        image("TpW per node type", name);
        line("| node type | TpW [1/J] (mean over its runs) |");
        line("|---|---|");
        for (int i = 0; i < cats.size(); i++) {
            line(String.format(Locale.ROOT, "| %s | %.2f |", cats.get(i), values.get(i)));
        }
        line();
    }

    // ---- power over time, failures

    private void powerFigures() {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, List<ResultRow>> e : ok.entrySet()) {
            ResultRow first = e.getValue().get(0);
            if (first.energyDir() == null) {
                continue;
            }
            Path png = dir.resolve(first.energyDir()).resolve("power.png");
            if (Files.isRegularFile(png)) {
                lines.add("![power over time, " + e.getKey() + " run " + first.run() + "](" + dir.relativize(png) + ")");
            }
        }
        if (lines.isEmpty()) {
            return;
        }
        line("## Power over time with running maps, shuffles and reduces (thesis figures 9.1-9.5, 10.1-10.4, 11.1-11.3, 12.13)");
        line();
        line("One chart per point (its first run), drawn by energy's report: the power line is labelled declared where it was not measured.");
        line();
        for (String l : lines) {
            line(l);
            line();
        }
    }

    private void failures() {
        line("## Failed runs");
        line();
        if (failed.isEmpty()) {
            line("None.");
            line();
            return;
        }
        line("| point | run | error |");
        line("|---|---|---|");
        for (ResultRow r : failed) {
            line("| " + r.point() + " | " + r.run() + " | " + (r.error() == null ? "" : r.error().replace("|", "\\|")) + " |");
        }
        line();
    }

    // ---- cells

    private String runsCell(Point p) {
        long bad = failed.stream().filter(r -> r.point().equals(p.id())).count();
        int good = ok.getOrDefault(p.id(), List.of()).size();
        return good + (bad > 0 ? " (+" + bad + " failed)" : "");
    }

    private static String hashedCell(List<ResultRow> rs) {
        if (rs.isEmpty()) {
            return "";
        }
        long v = rs.get(0).valuesHashed();
        boolean same = rs.stream().allMatch(r -> r.valuesHashed() == v && r.valuesHashed().equals(r.valuesExpected()));
        return v + (same ? "" : " (NOT EXACT)");
    }

    private static String label(List<ResultRow> rs) {
        return rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("simulated-fpga")) ? " (simulated)" : "";
    }

    private static String basis(List<ResultRow> rs) {
        return rs.isEmpty() ? "" : basisWord(rs);
    }

    private static String basisWord(List<ResultRow> rs) {
        List<String> words = new ArrayList<>();
        if (rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("declared-power"))) {
            words.add("declared");
        }
        if (rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("simulated-fpga"))) {
            words.add("simulated FPGA");
        }
        if (rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("no-power-source"))) {
            words.add("no power source");
        }
        if (words.isEmpty()) {
            words.add(rs.get(0).basis());
        }
        return String.join(", ", words) + ("modelled".equals(rs.get(0).basis()) ? ": modelled" : "");
    }

    private static Stats stat(List<ResultRow> rs, Function<ResultRow, Double> f) {
        return Stats.of(rs.stream().map(f).filter(v -> v != null && !v.isNaN()).toList());
    }

    private static Double mean(List<ResultRow> rs, Function<ResultRow, Double> f) {
        Stats s = stat(rs, f);
        return s.n() == 0 ? null : s.mean();
    }

    private static String fmt(Stats s) {
        return fmt(s, 2);
    }

    private static String fmt(Stats s, int decimals) {
        return s.n() == 0 ? "" : s.format(decimals);
    }

    private static String fmtSci(Stats s) {
        if (s.n() == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%.3e ± %s", s.mean(), Double.isNaN(s.sd()) ? "n/a" : String.format(Locale.ROOT, "%.2e", s.sd()));
    }

    private static String ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? "" : String.format(Locale.ROOT, "%.3f", a / b);
    }

    private static String ppk(int ppk) {
        return ppk == 262144 ? "2^18" : Integer.toString(ppk);
    }

    private Path figure(String name) {
        return dir.resolve(FIGURES).resolve(name);
    }

    private void image(String alt, String name) {
        line("![" + alt + "](" + FIGURES + "/" + name + ".png) ([SVG](" + FIGURES + "/" + name + ".svg))");
        line();
    }

    private void line(String s) {
        md.append(s).append('\n');
    }

    private void line() {
        md.append('\n');
    }
}
