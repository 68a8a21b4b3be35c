package io.fpgamr.energy;

import io.fpgamr.energy.dashboard.DashboardQueries;
import io.fpgamr.energy.dashboard.PromClient;
import io.fpgamr.energy.exporter.NodeExporter;
import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.sample.Sampler;
import io.fpgamr.energy.source.Discovery;
import io.fpgamr.energy.source.PowerSource;
import io.fpgamr.energy.source.ScopeTrace;
import io.fpgamr.energy.source.ShuntFormula;
import io.fpgamr.energy.source.SourceConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code fpgamr energy <command>}: sources, scope, report, exporter, check-dashboard. Returns the
 * exit code: 0 done, 1 failed, 2 usage error. Problems are one line on stderr, never a stack trace.
 */
public final class EnergyCli {
    static final String USAGE = String.join("\n",
        "usage: fpgamr energy <command> [options]",
        "",
        "commands:",
        "  sources [SOURCE OPTIONS]                 list this node's power sources and read them for one period",
        "  scope FILE --supply-volts V --shunt-ohms R [--per-second]",
        "                                           mean power (W) and energy (J) of a shunt trace (CSV: seconds, dU volts)",
        "  report JOB_DIR                           render report.md, power.png, power.svg, energy.json of a finished job",
        "                                           (or of a folder of repeated runs run-1, run-2, ...)",
        "  exporter [--port P] [--bind ADDR] [--node NAME] [--node-type x86|arm|arm-fpga] [--spool DIR]",
        "           [--period-ms MS] [--retain-hours H] [SOURCE OPTIONS]",
        "                                           serve /metrics and /samples for Prometheus (default port 9464)",
        "  check-dashboard --prometheus URL [--dashboard FILE]",
        "                                           evaluate every query of the Grafana dashboard through Prometheus",
        "",
        "source options:",
        "  --powercap-root DIR  (default /sys/class/powercap)    --hwmon-root DIR (default /sys/class/hwmon)",
        "  --hwmon-channel CHIP/LABEL (repeatable)              --dev-root DIR (default /dev, for the BMC device)",
        "  --apcupsd HOST:PORT  --ups-nominal-watts W           --ipmi-command \"CMD ARGS\"",
        "  --scope-csv FILE --supply-volts V --shunt-ohms R     (a live trace a data logger appends to)",
        "  --declare-watts W    (labelled declared, never measured)",
        "  --sources KIND,...   --primary KIND                  kinds: scope, apcupsd, ipmi, hwmon, rapl, declared",
        "  --timeout-ms MS      (network and command sources, default 2000)");

    private final PrintStream out;
    private final PrintStream err;

    EnergyCli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** A usage problem: one line, exit 2. */
    static final class UsageError extends Exception {
        UsageError(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** The entry point of {@code bin/fpgamr energy ...}. */
    public static int run(String[] args) {
        return new EnergyCli(System.out, System.err).dispatch(args);
    }

    int dispatch(String[] args) {
        System.setProperty("java.awt.headless", "true");
        if (args.length == 0) {
            err.println(USAGE);
            return 2;
        }
        String cmd = args[0];
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
            switch (cmd) {
                case "sources":
                    return sources(new Opts(rest, SOURCE_OPTS, Set.of()));
                case "scope":
                    return scope(new Opts(rest, Set.of("--supply-volts", "--shunt-ohms"), Set.of("--per-second")));
                case "report":
                    return report(new Opts(rest, Set.of(), Set.of()));
                case "exporter":
                    return exporter(new Opts(rest, union(SOURCE_OPTS, EXPORTER_OPTS), Set.of()));
                case "check-dashboard":
                    return checkDashboard(new Opts(rest, Set.of("--prometheus", "--dashboard"), Set.of()));
                case "-h":
                case "--help":
                case "help":
                    out.println(USAGE);
                    return 0;
                default:
                    err.println("fpgamr energy: unknown command '" + cmd + "' (expected sources, scope, report, exporter or check-dashboard)");
                    return 2;
            }
        } catch (UsageError e) {
            err.println("fpgamr energy " + cmd + ": " + e.getMessage());
            return 2;
        } catch (ScopeTrace.TraceException e) {
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

    static final Set<String> SOURCE_OPTS = Set.of("--powercap-root", "--hwmon-root", "--hwmon-channel", "--dev-root", "--apcupsd",
        "--ups-nominal-watts", "--ipmi-command", "--scope-csv", "--supply-volts", "--shunt-ohms", "--declare-watts", "--sources",
        "--primary", "--timeout-ms");
    static final Set<String> EXPORTER_OPTS = Set.of("--port", "--bind", "--node", "--node-type", "--spool", "--period-ms", "--retain-hours");

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> s = new LinkedHashSet<>(a);
        s.addAll(b);
        return s;
    }

    /** Parsed options: {@code --name value}, {@code --name=value}, flags, and positional arguments. */
    static final class Opts {
        final Map<String, List<String>> values = new LinkedHashMap<>();
        final Set<String> flags = new LinkedHashSet<>();
        final List<String> positional = new ArrayList<>();

        Opts(List<String> args, Set<String> withValue, Set<String> flagNames) throws UsageError {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                if (a.startsWith("--")) {
                    String name = a;
                    String value = null;
                    int eq = a.indexOf('=');
                    if (eq > 0) {
                        name = a.substring(0, eq);
                        value = a.substring(eq + 1);
                    }
                    if (flagNames.contains(name) && value == null) {
                        flags.add(name);
                    } else if (withValue.contains(name)) {
                        if (value == null) {
                            if (i + 1 >= args.size()) {
                                throw new UsageError(name + " needs a value");
                            }
                            value = args.get(++i);
                        }
                        values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
                    } else {
                        throw new UsageError("unknown option " + name + " (see fpgamr energy --help)");
                    }
                } else {
                    positional.add(a);
                }
            }
        }

        String get(String name) {
            List<String> v = values.get(name);
            return v == null ? null : v.get(v.size() - 1);
        }

        List<String> all(String name) {
            return values.getOrDefault(name, List.of());
        }

        Double number(String name, boolean positive) throws UsageError {
            String v = get(name);
            if (v == null) {
                return null;
            }
            double d;
            try {
                d = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new UsageError(name + " must be a number, got '" + v + "'");
            }
            if (!Double.isFinite(d) || (positive && d <= 0)) {
                throw new UsageError(name + " must be a positive number, got '" + v + "'");
            }
            return d;
        }

        long integer(String name, long def, long min, long max) throws UsageError {
            String v = get(name);
            if (v == null) {
                return def;
            }
            try {
                long n = Long.parseLong(v);
                if (n < min || n > max) {
                    throw new UsageError(name + " must be between " + min + " and " + max + ", got " + n);
                }
                return n;
            } catch (NumberFormatException e) {
                throw new UsageError(name + " must be an integer, got '" + v + "'");
            }
        }

        void noPositional(String cmd) throws UsageError {
            if (!positional.isEmpty()) {
                throw new UsageError("unexpected argument '" + positional.get(0) + "'");
            }
        }
    }

    static SourceConfig sourceConfig(Opts o) throws UsageError {
        SourceConfig c = SourceConfig.defaults();
        if (o.get("--powercap-root") != null || o.get("--hwmon-root") != null || o.get("--dev-root") != null) {
            c = c.withRoots(pathOr(o.get("--powercap-root"), c.powercapRoot()), pathOr(o.get("--hwmon-root"), c.hwmonRoot()),
                pathOr(o.get("--dev-root"), c.devRoot()));
        }
        c = c.withHwmonChannels(o.all("--hwmon-channel"));
        String ups = o.get("--apcupsd");
        if (ups != null && !ups.matches("[^:\\s]+(:\\d{1,5})?")) {
            throw new UsageError("--apcupsd must be HOST or HOST:PORT, got '" + ups + "'");
        }
        c = c.withApcupsd(ups, o.number("--ups-nominal-watts", true));
        String ipmi = o.get("--ipmi-command");
        if (ipmi != null) {
            if (ipmi.isBlank()) {
                throw new UsageError("--ipmi-command is empty");
            }
            c = c.withIpmiCommand(List.of(ipmi.trim().split("\\s+")));
        }
        Double volts = o.number("--supply-volts", true);
        Double ohms = o.number("--shunt-ohms", true);
        if (o.get("--scope-csv") != null) {
            if (volts == null || ohms == null) {
                throw new UsageError("--scope-csv needs --supply-volts and --shunt-ohms");
            }
            c = c.withScope(Path.of(o.get("--scope-csv")), new ShuntFormula(volts, ohms));
        }
        c = c.withDeclaredWatts(o.number("--declare-watts", true));
        if (o.get("--sources") != null) {
            Set<String> kinds = new LinkedHashSet<>();
            for (String k : o.get("--sources").split(",")) {
                if (!SourceConfig.KINDS.contains(k.trim())) {
                    throw new UsageError("unknown source kind '" + k.trim() + "' in --sources (expected " + String.join(", ", SourceConfig.KINDS) + ")");
                }
                kinds.add(k.trim());
            }
            c = c.withOnly(kinds);
        }
        String primary = o.get("--primary");
        if (primary != null && !SourceConfig.KINDS.contains(primary)) {
            throw new UsageError("unknown source kind '" + primary + "' for --primary (expected " + String.join(", ", SourceConfig.KINDS) + ")");
        }
        c = c.withPrimary(primary);
        return c.withTimeoutMs((int) o.integer("--timeout-ms", 2000, 50, 600_000));
    }

    private static Path pathOr(String s, Path def) {
        return s == null ? def : Path.of(s);
    }

    private int sources(Opts o) throws UsageError, InterruptedException {
        o.noPositional("sources");
        SourceConfig cfg = sourceConfig(o);
        Discovery.Result r = Discovery.discover(cfg);
        String node = NodeType.hostName();
        out.println("node " + node + " (" + NodeType.detect() + ")");
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
            try (Sampler sampler = new Sampler(node, NodeType.detect(), r.found(), 1000, 60_000, System::currentTimeMillis)) {
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

    private int scope(Opts o) throws UsageError, IOException {
        if (o.positional.size() != 1) {
            throw new UsageError(o.positional.isEmpty() ? "needs the trace FILE" : "takes one FILE, got " + o.positional.size());
        }
        Double volts = o.number("--supply-volts", true);
        Double ohms = o.number("--shunt-ohms", true);
        if (volts == null || ohms == null) {
            throw new UsageError("needs --supply-volts V and --shunt-ohms R");
        }
        Path file = Path.of(o.positional.get(0));
        if (Files.isDirectory(file)) {
            throw new UsageError(file + " is a directory, not a trace file");
        }
        ScopeTrace t = ScopeTrace.load(file, new ShuntFormula(volts, ohms));
        out.printf(Locale.ROOT, "mean power %.4f W%n", t.meanWatts());
        out.printf(Locale.ROOT, "energy %.4f J%n", t.energyJoules());
        out.printf(Locale.ROOT, "duration %.4f s (%d samples, %s samples/s)%n", t.durationS(), t.samples(),
            new java.math.BigDecimal(1 / t.periodS()).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString());
        if (o.flags.contains("--per-second")) {
            out.println("second,mean_w,covered_s,samples");
            for (ScopeTrace.Second s : t.perSecond()) {
                out.printf(Locale.ROOT, "%d,%.6f,%.6f,%d%n", s.index(), s.meanWatts(), s.coveredS(), s.samples());
            }
        }
        return 0;
    }

    private int report(Opts o) throws UsageError, IOException {
        if (o.positional.size() != 1) {
            throw new UsageError(o.positional.isEmpty() ? "needs the JOB_DIR" : "takes one JOB_DIR, got " + o.positional.size());
        }
        Path dir = Path.of(o.positional.get(0));
        if (!Files.isDirectory(dir)) {
            throw new UsageError(dir + ": no such folder");
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
            throw new UsageError(dir + " is not a job energy folder (no " + JobDir.JOB + " and no run-N folders)");
        }
        JobEnergy e = JobDir.read(dir);
        JobDir.render(dir, e);
        out.println("wrote " + dir.resolve(JobDir.REPORT) + ", " + JobDir.PNG + ", " + JobDir.SVG + ", " + JobDir.JSON);
        out.println("status " + e.status() + (e.tpw() == null ? "" : String.format(Locale.ROOT, ", TpW %.2f values/J", e.tpw())));
        return 0;
    }

    private int exporter(Opts o) throws UsageError, IOException, InterruptedException {
        o.noPositional("exporter");
        SourceConfig cfg = sourceConfig(o);
        String node = o.get("--node") != null ? o.get("--node") : NodeType.hostName();
        String type = o.get("--node-type") != null ? o.get("--node-type") : NodeType.detect();
        NodeExporter.Options opts = NodeExporter.Options.defaults(node, type)
            .withListen(o.get("--bind") != null ? o.get("--bind") : "0.0.0.0", (int) o.integer("--port", NodeExporter.Options.DEFAULT_PORT, 0, 65535))
            .withPeriodMs(o.integer("--period-ms", 1000, 10, 3_600_000))
            .withRetentionMs(o.integer("--retain-hours", 24, 1, 24 * 31) * 3600 * 1000);
        if (o.get("--spool") != null) {
            opts = opts.withSpool(Path.of(o.get("--spool")));
        }
        Discovery.Result r = Discovery.discover(cfg);
        NodeExporter e = NodeExporter.start(opts, r);
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            e.close();
            stop.countDown();
        }, "fpgamr-exporter-stop"));
        err.println("fpgamr energy exporter: " + node + " (" + type + ") on http://" + opts.bind() + ":" + e.port() + "/metrics, spool "
            + opts.spool() + ", " + (r.none() ? "no power source" : "sources " + String.join(", ", r.found().stream().map(PowerSource::kind).toList())));
        stop.await();
        return 0;
    }

    private int checkDashboard(Opts o) throws UsageError, IOException, InterruptedException {
        o.noPositional("check-dashboard");
        String prom = o.get("--prometheus");
        if (prom == null) {
            throw new UsageError("needs --prometheus URL (e.g. http://127.0.0.1:9090)");
        }
        URI base;
        try {
            base = URI.create(prom);
            if (base.getScheme() == null || base.getHost() == null) {
                throw new IllegalArgumentException();
            }
        } catch (IllegalArgumentException e) {
            throw new UsageError("--prometheus must be a URL such as http://127.0.0.1:9090, got '" + prom + "'");
        }
        List<DashboardQueries.Query> queries;
        if (o.get("--dashboard") != null) {
            Path f = Path.of(o.get("--dashboard"));
            if (!Files.isRegularFile(f)) {
                throw new UsageError(f + ": no such file");
            }
            try {
                queries = DashboardQueries.of(Files.readString(f, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new UsageError(f + ": " + e.getMessage());
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
