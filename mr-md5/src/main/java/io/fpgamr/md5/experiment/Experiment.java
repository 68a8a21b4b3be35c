package io.fpgamr.md5.experiment;

import io.fpgamr.energy.EnergyConfig;
import io.fpgamr.energy.JobEnergy;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.md5.balance.Balance;
import io.fpgamr.md5.cli.JobSummary;
import io.fpgamr.md5.cli.Launcher;
import io.fpgamr.md5.cli.RunConfig;
import io.fpgamr.md5.cli.RunReport;
import io.fpgamr.md5.run.UsageException;
import io.fpgamr.md5.experiment.report.Report;
import io.fpgamr.md5.job.FpgaFigures;
import io.fpgamr.md5.job.Md5Job.Mode;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.hadoop.conf.Configuration;

/**
 * {@code fpgamr experiment PLAN --out DIR}: runs every point of a plan the plan's number of times,
 * each run a checked job on the embedded cluster the point needs (started once per cluster shape)
 * or on the cluster of the configuration, and writes {@code DIR/results.csv} after each run and
 * {@code DIR/report.md} with its figures at the end. Runs already in {@code results.csv} are not
 * run again: an interrupted study resumes where it stopped. A run that fails or outlives the plan's
 * timeout is recorded as failed, with why.
 */
public final class Experiment {
    private Experiment() {
    }

    private static Options options() {
        Options o = new Options();
        o.addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
            .desc("where results.csv, report.md and the figures go; an existing one is resumed").build());
        o.addOption(Option.builder().longOpt("cluster").hasArg().argName("KIND")
            .desc("embedded (default: an in-process cluster of each shape the plan needs) or conf (the cluster of HADOOP_CONF_DIR)").build());
        o.addOption(Option.builder().longOpt("retry-failed").desc("run the failed runs of results.csv again").build());
        o.addOption(Option.builder().longOpt("report-only").desc("write the report from results.csv without running anything").build());
        o.addOption(Option.builder("h").longOpt("help").desc("print this help").build());
        return o;
    }

    /** Runs the command; returns the exit code. Usage errors are thrown as {@link UsageException}. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        CommandLine cl;
        try {
            cl = new DefaultParser().parse(options(), args);
        } catch (ParseException e) {
            throw new UsageException(e.getMessage());
        }
        if (cl.hasOption("help")) {
            PrintWriter w = new PrintWriter(out, true, StandardCharsets.UTF_8);
            new HelpFormatter().printHelp(w, 100, "fpgamr experiment PLAN --out DIR [--cluster embedded|conf] [--retry-failed] [--report-only]",
                "\nRuns the study a plan describes (mr-md5/experiments/README.md) and writes results.csv and report.md.\n\n", options(),
                2, 2, "\nExit codes: 0 every run done, 1 some run failed (recorded in results.csv and the report), 2 bad input.\n", false);
            w.flush();
            return 0;
        }
        if (cl.getArgList().size() != 1) {
            throw new UsageException("experiment: give one plan file (see --help)");
        }
        if (!cl.hasOption("out")) {
            throw new UsageException("experiment: --out DIR is required");
        }
        Path planFile = Path.of(cl.getArgList().get(0));
        Plan plan = Plan.read(planFile);
        Published published = Published.read(Plan.folder(planFile).resolve(plan.published()));
        String cluster = cl.getOptionValue("cluster", "embedded");
        if (!cluster.equals("embedded") && !cluster.equals("conf")) {
            throw new UsageException("--cluster must be embedded or conf, got '" + cluster + "'");
        }
        EnergyConfig energy;
        try {
            energy = EnergyConfig.fromOptions(plan.energy() == null ? List.of() : plan.energy());
        } catch (IllegalArgumentException e) {
            throw new UsageException(planFile + ": energy: " + e.getMessage());
        }
        Path dir = Path.of(cl.getOptionValue("out")).toAbsolutePath().normalize();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UsageException("--out: " + dir + " is not a directory");
        }
        Files.createDirectories(dir);
        Results results;
        try {
            results = Results.open(dir);
        } catch (IOException e) {
            throw new UsageException("--out: cannot resume: " + e.getMessage());
        }
        if (cl.hasOption("retry-failed")) {
            err.println("experiment: " + results.forgetFailed() + " failed run(s) to run again");
        }
        if (!cl.hasOption("report-only")) {
            Environment.here(cluster, plan.energy()).write(dir);
            runAll(plan, cluster, energy, dir, results, err);
        }
        Path report = Report.write(plan, published, Plan.folder(planFile), results.rows(), dir);
        long failed = results.rows().stream().filter(r -> !r.ok()).count();
        err.println("experiment: " + results.rows().size() + " runs in " + dir.resolve(Results.FILE) + (failed > 0 ? ", " + failed + " failed" : "")
            + "; report " + report);
        return failed > 0 ? 1 : 0;
    }

    /** Every run not yet recorded, grouped by the cluster it needs. */
    private static void runAll(Plan plan, String cluster, EnergyConfig energy, Path dir, Results results, PrintStream err) throws Exception {
        Map<Point.Shape, List<Point>> byShape = new LinkedHashMap<>();
        int pending = 0;
        for (Point p : plan.points()) {
            for (int run = 1; run <= plan.runs(p); run++) {
                if (!results.has(p, run)) {
                    Point.Shape shape = cluster.equals("conf") ? new Point.Shape(0, 0) : p.shape(plan.fpgaDevices());
                    List<Point> ps = byShape.computeIfAbsent(shape, s -> new ArrayList<>());
                    if (!ps.contains(p)) {
                        ps.add(p);
                    }
                    pending++;
                }
            }
        }
        int total = plan.totalRuns();
        err.println("experiment: plan " + plan.name() + ": " + plan.points().size() + " points, " + plan.repetitions() + " runs each"
            + (plan.emulatedRepetitions() != null ? " (" + plan.emulatedRepetitions() + " for the emulated ARM points)" : "") + " = " + total
            + ", " + (total - pending) + " already in " + Results.FILE + ", " + pending + " to run");
        int done = total - pending;
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        for (Map.Entry<Point.Shape, List<Point>> e : byShape.entrySet()) {
            Point.Shape shape = e.getKey();
            List<String> clusterArgs = cluster.equals("conf") ? List.of("--cluster", "conf") : shape.args();
            String sessionName = stamp + (cluster.equals("conf") ? "" : "-n" + shape.nodes() + "f" + shape.fpgaDevices()
                + (shape.armNodes() > 0 ? "a" + shape.armNodes() : ""));
            Path sessionDir = dir.resolve("runs").resolve(sessionName);
            RunConfig sessionConfig = config(Mode.BENCH, plan.target(), List.of(), clusterArgs, sessionDir);
            err.println("experiment: cluster " + (cluster.equals("conf") ? "of the configuration" : "embedded, " + shape));
            Launcher.Session opened;
            try {
                opened = Launcher.Session.open(sessionConfig, new Configuration(), energy, err);
            } catch (Exception ex) {
                if (shuttingDown()) {
                    return;
                }
                String why = "the cluster did not start: " + firstLine(ex);
                err.println("experiment: " + why);
                for (Point p : e.getValue()) {
                    for (int run = 1; run <= plan.runs(p); run++) {
                        if (!results.has(p, run)) {
                            results.add(ResultRow.failed(p, run, why));
                            done++;
                        }
                    }
                }
                continue;
            }
            try (Launcher.Session session = opened) {
                for (Point p : e.getValue()) {
                    for (int run = 1; run <= plan.runs(p); run++) {
                        if (results.has(p, run)) {
                            continue;
                        }
                        done++;
                        String name = p.folder() + "/run-" + run;
                        err.println("experiment: [" + done + "/" + total + "] " + p.id() + " run " + run);
                        ResultRow row;
                        try {
                            RunConfig rc = config(p.mode(), plan.target(), p.args(plan.target(), plan.timeoutS()), clusterArgs, sessionDir);
                            RunReport.JobRun jr = session.run(rc, name, p.settings());
                            row = row(p, run, jr, dir);
                            err.println(String.format(Locale.ROOT, "experiment: [%d/%d] ok: %.1f s total, %d values hashed", done, total,
                                row.totalS(), row.valuesHashed()));
                        } catch (Exception ex) {
                            if (shuttingDown()) {
                                // stopped (a signal): the run was cut short, not failed; a resume runs it again
                                err.println("experiment: [" + done + "/" + total + "] interrupted, not recorded");
                                return;
                            }
                            String why = firstLine(ex);
                            row = ResultRow.failed(p, run, why);
                            err.println("experiment: [" + done + "/" + total + "] FAILED: " + why);
                        }
                        results.add(row);
                    }
                }
            }
        }
    }

    /**
     * Whether the JVM is stopping (SIGTERM, SIGINT): its shutdown hooks stop the embedded cluster, so
     * the run in progress fails for a reason that is not the run's. The JVM refuses new hooks from
     * the moment it starts running them, so this cannot miss a shutdown that caused the failure.
     */
    private static boolean shuttingDown() {
        try {
            Thread probe = new Thread(() -> { });
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException stopping) {
            return true;
        }
    }

    private static String firstLine(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
    }

    /** The launcher's configuration of one run, parsed from the arguments a user would give it. */
    static RunConfig config(Mode mode, String target, List<String> pointArgs, List<String> clusterArgs, Path output)
        throws UsageException {
        List<String> a = new ArrayList<>(pointArgs.isEmpty() ? List.of(target) : pointArgs);
        a.addAll(clusterArgs);
        a.addAll(List.of("--output", output.toString()));
        return RunConfig.parse(mode, a.toArray(new String[0]), false);
    }

    /** The row of a run that checked out. */
    static ResultRow row(Point p, int run, RunReport.JobRun jr, Path dir) {
        JobSummary s = jr.summary();
        JobEnergy e = jr.energy();
        List<String> flags = new ArrayList<>();
        if (e.status().contains("declared")) {
            flags.add("declared-power");
        }
        if (e.simulated()) {
            flags.add("simulated-fpga");
        }
        if (JobEnergy.NO_SOURCE.equals(e.status())) {
            flags.add("no-power-source");
        }
        if (s.mapsByNode().values().stream().anyMatch(io.fpgamr.md5.cli.MapsOnNode::emulated)) {
            // maps on an ARM node's armhf JVM under QEMU: their times are the emulation's, their energy the host's
            flags.add("emulated-arm");
        }
        FpgaFigures f = s.fpga();
        double mapTasks = 0;
        double startup = 0;
        for (TaskSpan t : e.job().timeline().spans()) {
            if (t.isMap()) {
                mapTasks += (t.endMs() - t.startMs()) / 1000.0;
                startup += (t.readyMs() - t.startMs()) / 1000.0;
            }
        }
        JobSummary.MapTime mt = s.mapTime();
        return new ResultRow(p.id(), p.job(), p.nodeType(), p.bits(), p.ppk(), p.maps(), p.reducers(), p.nodes(), run, ResultRow.OK, null,
            s.valuesHashed(), s.valuesExpected(), s.stages().mapS(), s.stages().shuffleS(), s.stages().reduceS(), s.stages().totalS(),
            e.energyJ(), e.meanW(), e.tpw(), e.ed2p(), e.status(), e.basis(), String.join(";", flags), s.engineCpuS(),
            f == null ? null : f.deviceCycles(), f == null ? null : f.modelledDeviceS(), f == null ? null : f.hostS(), mapTasks, startup,
            mt.engineS(), mt.readS(), mt.writeS(), mt.spillS(), mt.sortS(),
            jr.energyDir() == null ? null : dir.relativize(jr.energyDir().toAbsolutePath()).toString(),
            s.balance() == null ? null : s.balance().design(), s.balance() == null ? null : s.balance().stragglerS(), valuesByEngine(s.balance()));
    }

    /** The values each node type's engine kinds hashed, {@code x86/cpu=N;fpga/fpga=N}, in a fixed order. */
    static String valuesByEngine(Balance b) {
        if (b == null) {
            return null;
        }
        Map<String, Long> byEngine = new TreeMap<>();
        for (Balance.NodeShare n : b.nodes().values()) {
            for (Balance.EngineShare e : n.engines()) {
                byEngine.merge(n.type() + "/" + e.kind() + (e.simulated() ? "-simulated" : "")
                    + (e.speedSource() != null && e.speedSource().endsWith("-emulated") ? "-emulated" : ""), e.valuesHashed(), Long::sum);
            }
        }
        List<String> parts = new ArrayList<>();
        byEngine.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(";", parts);
    }
}
