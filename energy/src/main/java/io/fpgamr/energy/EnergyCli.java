package io.fpgamr.energy;

import io.fpgamr.energy.config.ConfigReader;
import io.fpgamr.energy.config.Setting;
import io.fpgamr.energy.config.Values;
import io.fpgamr.energy.dashboard.DashboardQueries;
import io.fpgamr.energy.dashboard.PromClient;
import io.fpgamr.energy.exporter.NodeExporter;
import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.sample.Sampler;
import io.fpgamr.energy.source.Discovery;
import io.fpgamr.energy.source.PowerSource;
import io.fpgamr.energy.source.ScopeSource;
import io.fpgamr.energy.source.ScopeTrace;
import io.fpgamr.energy.source.ShuntFormula;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code fpgamr energy <command>}: sources, scope, report, exporter, check-dashboard. Returns the
 * exit code: 0 done, 1 failed, 2 usage error. Problems are one line on stderr, never a stack trace.
 */
public final class EnergyCli {
    private static final List<Setting> SHUNT = ScopeSource.KIND.settings().stream().filter(s -> !s.key().endsWith(".csv")).toList();
    private static final Option PER_SECOND = Option.builder().longOpt("per-second").desc("print each second's mean power").build();
    private static final Option PROMETHEUS = Option.builder().longOpt("prometheus").hasArg().argName("URL")
        .desc("the Prometheus server, e.g. http://127.0.0.1:9090").build();
    private static final Option DASHBOARD = Option.builder().longOpt("dashboard").hasArg().argName("FILE")
        .desc("a Grafana dashboard JSON; default the bundled one").build();

    /** How long the exporter's shutdown waits for its server and sampler to close. */
    private static final long STOP_MS = 5000;

    private final PrintStream out;
    private final PrintStream err;

    EnergyCli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** The entry point of {@code bin/fpgamr energy ...}. */
    public static int run(String[] args) {
        return new EnergyCli(System.out, System.err).dispatch(args);
    }

    static String usage() {
        StringWriter w = new StringWriter();
        PrintWriter pw = new PrintWriter(w);
        pw.println(String.join("\n",
            "usage: fpgamr energy <command> [options]",
            "",
            "commands:",
            "  sources [--config FILE] [SOURCE SETTINGS]     list this node's power sources and read them for one period",
            "  scope FILE --supply-volts V --shunt-ohms R [--per-second]",
            "                                                mean power (W) and energy (J) of a shunt trace (CSV: seconds, dU volts)",
            "  report JOB_DIR                                render report.md, power.png, power.svg, energy.json of a finished job",
            "                                                (or of a folder of repeated runs run-1, run-2, ...)",
            "  exporter [--config FILE] [SETTINGS]           serve /metrics and /samples for Prometheus (default port 9464)",
            "  check-dashboard --prometheus URL [--dashboard FILE]",
            "                                                evaluate every query of the Grafana dashboard through Prometheus",
            "",
            "settings: a flag, or [its key] in the --config FILE (YAML, see energy/README.md); a flag overrides the file.",
            "The launcher takes all but the exporter's ($" + EnergyConfig.OPTS_ENV + "), `sources` the node's sources only."));
        new HelpFormatter().printOptions(pw, 120, ConfigReader.options(EnergyConfig.SETTINGS, true), 2, 3);
        pw.flush();
        return w.toString();
    }

    int dispatch(String[] args) {
        System.setProperty("java.awt.headless", "true");
        if (args.length == 0) {
            err.print(usage());
            return 2;
        }
        String cmd = args[0];
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
            switch (cmd) {
                case "sources":
                    return sources(EnergyConfig.fromFlags(rest, EnergyConfig.SOURCES));
                case "scope":
                    return scope(parse(rest, SHUNT, 1, PER_SECOND));
                case "report":
                    return report(parse(rest, List.of(), 1).getArgList());
                case "exporter":
                    return exporter(EnergyConfig.fromFlags(rest, EnergyConfig.EXPORTER));
                case "check-dashboard":
                    return checkDashboard(parse(rest, List.of(), 0, PROMETHEUS, DASHBOARD));
                case "-h":
                case "--help":
                case "help":
                    out.print(usage());
                    return 0;
                default:
                    err.println("fpgamr energy: unknown command '" + cmd + "' (expected sources, scope, report, exporter or check-dashboard)");
                    return 2;
            }
        } catch (ConfigReader.Invalid | ScopeTrace.TraceException e) {
            err.println("fpgamr energy " + cmd + ": " + e.getMessage());
            return 2;
        } catch (IOException | RuntimeException e) {
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
            err.println("fpgamr energy " + cmd + ": " + m);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("fpgamr energy " + cmd + ": interrupted");
            return 1;
        }
    }

    /** The command line of a command that takes {@code settings}, its own options and up to {@code positional} arguments. */
    private static CommandLine parse(List<String> args, List<Setting> settings, int positional, Option... own) {
        CommandLine cl = ConfigReader.parse(ConfigReader.options(settings, false, own), args);
        List<String> rest = cl.getArgList();
        if (rest.size() > positional) {
            throw new ConfigReader.Invalid(positional == 0 ? "unexpected argument '" + rest.get(0) + "'"
                : "takes one argument, got " + rest.size());
        }
        return cl;
    }

    private int sources(EnergyConfig cfg) throws InterruptedException {
        Discovery.Result r = Discovery.discover(cfg.sources());
        out.println("node " + cfg.node() + " (" + cfg.nodeType() + ")");
        if (r.none()) {
            out.println("no power source: job reports will give times only");
        }
        for (int i = 0; i < r.found().size(); i++) {
            PowerSource s = r.found().get(i);
            out.println("  " + s.kind() + (i == 0 ? " (node total)" : "") + (s.measured() ? "" : " [declared, not measured]") + ": " + s.describe());
        }
        for (Discovery.Absent a : r.absent()) {
            out.println("  no " + a.kind() + ": " + a.reason());
        }
        if (!r.none()) {
            try (Sampler sampler = new Sampler(cfg.node(), cfg.nodeType(), r.found(), 1000, 60_000, System::currentTimeMillis)) {
                sampler.prime();
                Thread.sleep(1000);
                for (Sample s : sampler.tick()) {
                    if (s.isGap()) {
                        out.println("  read " + s.source() + ": failed: " + s.gap());
                    } else {
                        out.printf(Locale.ROOT, "  read %s %s: %.3f W%s%n", s.source(), s.domain(), s.watts(), s.measured() ? "" : " (declared)");
                    }
                }
            }
        }
        return 0;
    }

    private int scope(CommandLine cl) throws IOException {
        if (cl.getArgList().isEmpty()) {
            throw new ConfigReader.Invalid("needs the trace FILE");
        }
        Values shunt = ConfigReader.read(SHUNT, cl).under("sources.scope");
        if (!shunt.has("supply_volts") || !shunt.has("shunt_ohms")) {
            throw new ConfigReader.Invalid("needs --supply-volts V and --shunt-ohms R");
        }
        Path file = Path.of(cl.getArgList().get(0));
        if (Files.isDirectory(file)) {
            throw new ConfigReader.Invalid(file + " is a directory, not a trace file");
        }
        ScopeTrace t = ScopeTrace.load(file, new ShuntFormula(shunt.number("supply_volts"), shunt.number("shunt_ohms")));
        out.printf(Locale.ROOT, "mean power %.4f W%n", t.meanWatts());
        out.printf(Locale.ROOT, "energy %.4f J%n", t.energyJoules());
        out.printf(Locale.ROOT, "duration %.4f s (%d samples, %s samples/s)%n", t.durationS(), t.samples(),
            new BigDecimal(1 / t.periodS()).round(new MathContext(6)).stripTrailingZeros().toPlainString());
        if (cl.hasOption(PER_SECOND.getLongOpt())) {
            out.println("second,mean_w,covered_s,samples");
            for (ScopeTrace.Second s : t.perSecond()) {
                out.printf(Locale.ROOT, "%d,%.6f,%.6f,%d%n", s.index(), s.meanWatts(), s.coveredS(), s.samples());
            }
        }
        return 0;
    }

    private int report(List<String> args) throws IOException {
        if (args.isEmpty()) {
            throw new ConfigReader.Invalid("needs the JOB_DIR");
        }
        Path dir = Path.of(args.get(0));
        if (!Files.isDirectory(dir)) {
            throw new ConfigReader.Invalid(dir + ": no such folder");
        }
        List<Path> runs = JobDir.runs(dir);
        if (!runs.isEmpty()) {
            List<JobEnergy> all = new ArrayList<>();
            for (Path run : runs) {
                JobEnergy e = JobDir.read(run);
                JobDir.render(run, e);
                all.add(e);
            }
            JobDir.writeRepetitions(dir, new Repetitions(all));
            out.println("wrote " + dir.resolve(JobDir.REPORT) + " (" + runs.size() + " runs)");
            return 0;
        }
        if (!Files.isRegularFile(dir.resolve(JobDir.JOB))) {
            throw new ConfigReader.Invalid(dir + " is not a job energy folder (no " + JobDir.JOB + " and no run-N folders)");
        }
        JobEnergy e = JobDir.read(dir);
        JobDir.render(dir, e);
        out.println("wrote " + dir.resolve(JobDir.REPORT) + ", " + JobDir.PNG + ", " + JobDir.SVG + ", " + JobDir.JSON);
        out.println("status " + e.status() + (e.tpw() == null ? "" : String.format(Locale.ROOT, ", TpW %.2f values/J", e.tpw()))
            + (e.modelled().isEmpty() ? "" : " (modelled: " + String.join("; ", e.modelled()) + ")"));
        return 0;
    }

    private int exporter(EnergyConfig cfg) throws IOException, InterruptedException {
        Discovery.Result r = Discovery.discover(cfg.sources());
        NodeExporter e = NodeExporter.start(cfg, r, line -> err.println("fpgamr energy exporter: " + line));
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // SIGTERM stops it whatever a request is doing: closing may wait, the exit waits a bounded time.
            Thread closer = new Thread(e::close, "fpgamr-exporter-close");
            closer.setDaemon(true);
            closer.start();
            try {
                closer.join(STOP_MS);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
            stop.countDown();
        }, "fpgamr-exporter-stop"));
        err.println("fpgamr energy exporter: " + cfg.node() + " (" + cfg.nodeType() + ") on http://" + cfg.bind() + ":" + e.port()
            + "/metrics, spool " + cfg.exporterSpool() + " ("
            + (cfg.resourceManager() == null ? "any writer's progress, no resourcemanager set" : "each job's from its owner in YARN at " + cfg.resourceManager())
            + "), "
            + (r.none() ? "no power source" : "sources " + String.join(", ", r.found().stream().map(PowerSource::kind).toList())));
        stop.await();
        return 0;
    }

    private int checkDashboard(CommandLine cl) throws IOException, InterruptedException {
        String prom = cl.getOptionValue(PROMETHEUS.getLongOpt());
        if (prom == null) {
            throw new ConfigReader.Invalid("needs --prometheus URL (e.g. http://127.0.0.1:9090)");
        }
        URI base;
        try {
            base = URI.create(prom);
            if (base.getScheme() == null || base.getHost() == null) {
                throw new IllegalArgumentException();
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigReader.Invalid("--prometheus must be a URL such as http://127.0.0.1:9090, got '" + prom + "'");
        }
        List<DashboardQueries.Query> queries;
        if (cl.hasOption(DASHBOARD.getLongOpt())) {
            Path f = Path.of(cl.getOptionValue(DASHBOARD.getLongOpt()));
            if (!Files.isRegularFile(f)) {
                throw new ConfigReader.Invalid(f + ": no such file");
            }
            try {
                queries = DashboardQueries.of(Files.readString(f, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new ConfigReader.Invalid(f + ": " + e.getMessage().lines().findFirst().orElse("not JSON"));
            }
        } else {
            queries = DashboardQueries.bundled();
        }
        PromClient client = new PromClient(base);
        int bad = 0;
        for (DashboardQueries.Query q : queries) {
            PromClient.Result r = client.query(q.expr());
            String verdict = !r.ok() ? "INVALID " + r.error() : r.empty() ? "NO DATA" : r.series().size() + " series";
            if (!r.ok() || r.empty()) {
                bad++;
            }
            out.println(verdict + "  [" + q.panel() + "] " + q.expr());
        }
        out.println((queries.size() - bad) + " of " + queries.size() + " dashboard queries return data");
        return bad == 0 ? 0 : 1;
    }
}
