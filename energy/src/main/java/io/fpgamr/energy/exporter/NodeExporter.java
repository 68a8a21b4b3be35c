package io.fpgamr.energy.exporter;

import com.sun.net.httpserver.HttpExchange;
import io.fpgamr.energy.JobProgress;
import io.fpgamr.energy.ProgressSpool;
import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.sample.SampleLog;
import io.fpgamr.energy.sample.Sampler;
import io.fpgamr.energy.source.Discovery;
import io.fpgamr.energy.source.PowerSource;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-node exporter: samples the node's power sources (1 Hz by default) and serves
 * {@code /metrics} (Prometheus text format, through the official Java client) and
 * {@code /samples?from=MS&to=MS} (the raw samples as CSV, which the job launcher fetches at the end
 * of a job on a real cluster). Every metric carries {@code node} and {@code node_type}; a job's
 * id is the label {@code job_id} (Prometheus keeps {@code job} for the scrape job). Running jobs
 * are read from the progress spool at each scrape; see {@link ProgressSpool}.
 */
public final class NodeExporter implements AutoCloseable {

    /**
     * @param bind        address to listen on (127.0.0.1 keeps it on the machine)
     * @param port        0 for any free port
     * @param staleMs     a running job's file older than this is taken as abandoned
     * @param lingerMs    a finished job stays exported this long, for the last scrape
     * @param retentionMs how long samples are kept for {@code /samples} and job energy
     */
    public record Options(String bind, int port, String node, String nodeType, long periodMs, Path spool,
                          long staleMs, long lingerMs, long retentionMs) {
        public static final int DEFAULT_PORT = 9464;

        public static Options defaults(String node, String nodeType) {
            return new Options("0.0.0.0", DEFAULT_PORT, node, nodeType, 1000, ProgressSpool.fromEnvironment().dir(),
                60_000, 120_000, 24L * 3600 * 1000);
        }

        public Options withListen(String b, int p) {
            return new Options(b, p, node, nodeType, periodMs, spool, staleMs, lingerMs, retentionMs);
        }

        public Options withPeriodMs(long ms) {
            return new Options(bind, port, node, nodeType, ms, spool, staleMs, lingerMs, retentionMs);
        }

        public Options withSpool(Path dir) {
            return new Options(bind, port, node, nodeType, periodMs, dir, staleMs, lingerMs, retentionMs);
        }

        public Options withRetentionMs(long ms) {
            return new Options(bind, port, node, nodeType, periodMs, spool, staleMs, lingerMs, ms);
        }
    }

    /** Last power and accumulated energy of one source domain. */
    private static final class Domain {
        final String source;
        final String domain;
        final boolean measured;
        double watts;
        double joules;

        Domain(String source, String domain, boolean measured) {
            this.source = source;
            this.domain = domain;
            this.measured = measured;
        }
    }

    private final Options options;
    private final Discovery.Result sources;
    private final Sampler sampler;
    private final ProgressSpool spool;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Map<String, Domain> domains = new LinkedHashMap<>();
    private final Map<String, Double> sourceUp = new LinkedHashMap<>();
    private final Map<String, Long> gaps = new LinkedHashMap<>();
    private double nodeWatts = Double.NaN;
    private double nodeJoules;
    private long lastCleanMs;
    private volatile HTTPServer server;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private NodeExporter(Options options, Discovery.Result sources) {
        this.options = options;
        this.sources = sources;
        this.sampler = new Sampler(options.node(), options.nodeType(), sources.found(), options.periodMs(),
            options.retentionMs(), System::currentTimeMillis);
        this.spool = new ProgressSpool(options.spool());
        for (PowerSource s : sources.found()) {
            sourceUp.put(s.kind(), 0.0);
            gaps.put(s.kind(), 0L);
        }
        sampler.addListener(this::onSamples);
    }

    /** Starts sampling and serving. */
    public static NodeExporter start(Options options, Discovery.Result sources) throws IOException {
        NodeExporter e = new NodeExporter(options, sources);
        e.register();
        e.sampler.start();
        e.server = HTTPServer.builder().hostname(options.bind()).port(options.port()).registry(e.registry)
            .defaultHandler(e::handle).buildAndStart();
        return e;
    }

    public int port() {
        return server.getPort();
    }

    public Sampler sampler() {
        return sampler;
    }

    private synchronized void onSamples(List<Sample> rows) {
        Map<String, Boolean> ok = new HashMap<>();
        double primaryWatts = 0;
        boolean primaryOk = false;
        for (Sample s : rows) {
            if (s.isGap()) {
                ok.put(s.source(), false);
                gaps.merge(s.source(), 1L, Long::sum);
                if (s.primary()) {
                    nodeWatts = Double.NaN;
                }
                continue;
            }
            ok.putIfAbsent(s.source(), true);
            Domain d = domains.computeIfAbsent(s.source() + "\u0000" + s.domain(), k -> new Domain(s.source(), s.domain(), s.measured()));
            d.watts = s.watts();
            d.joules += s.watts() * (s.endMs() - s.startMs()) / 1000.0;
            if (s.primary()) {
                primaryWatts += s.watts();
                primaryOk = true;
                nodeJoules += s.watts() * (s.endMs() - s.startMs()) / 1000.0;
            }
        }
        if (primaryOk) {
            nodeWatts = primaryWatts;
        }
        ok.forEach((k, v) -> sourceUp.put(k, v ? 1.0 : 0.0));
    }

    private void register() {
        Labels node = Labels.of("node", options.node(), "node_type", options.nodeType());
        PowerSource primary = sources.primary().orElse(null);
        String primaryKind = primary == null ? "none" : primary.kind();
        String primaryMeasured = primary == null ? "none" : Boolean.toString(primary.measured());

        Info info = Info.builder().name("fpgamr_node").constLabels(node).labelNames("primary_source", "measured")
            .help("One per node exporter (fpgamr_node_info): primary_source gives the node's total power (none: no source); "
                + "measured is true, false (a declared wattage) or none")
            .register(registry);
        info.setLabelValues(primaryKind, primaryMeasured);
        GaugeWithCallback.builder().name("fpgamr_power_watts").constLabels(node).labelNames("source", "domain", "measured")
            .help("Last power reading per source and domain, in watts (measured=false: a declared wattage)")
            .callback(cb -> {
                synchronized (this) {
                    for (Domain d : domains.values()) {
                        cb.call(d.watts, d.source, d.domain, Boolean.toString(d.measured));
                    }
                }
            }).register(registry);
        CounterWithCallback.builder().name("fpgamr_energy_joules").constLabels(node).labelNames("source", "domain", "measured")
            .help("Energy per source and domain since the exporter started, in joules")
            .callback(cb -> {
                synchronized (this) {
                    for (Domain d : domains.values()) {
                        cb.call(d.joules, d.source, d.domain, Boolean.toString(d.measured));
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("fpgamr_node_power_watts").constLabels(node).labelNames("source", "measured")
            .help("The node's power from its primary source, in watts; absent with no source or after a failed read")
            .callback(cb -> {
                synchronized (this) {
                    if (primary != null && !Double.isNaN(nodeWatts)) {
                        cb.call(nodeWatts, primaryKind, primaryMeasured);
                    }
                }
            }).register(registry);
        CounterWithCallback.builder().name("fpgamr_node_energy_joules").constLabels(node).labelNames("source", "measured")
            .help("The node's energy from its primary source since the exporter started, in joules")
            .callback(cb -> {
                synchronized (this) {
                    if (primary != null) {
                        cb.call(nodeJoules, primaryKind, primaryMeasured);
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("fpgamr_power_source_up").constLabels(node).labelNames("source")
            .help("1 when the source's last read succeeded, 0 when it failed")
            .callback(cb -> {
                synchronized (this) {
                    sourceUp.forEach((k, v) -> cb.call(v, k));
                }
            }).register(registry);
        CounterWithCallback.builder().name("fpgamr_power_gaps").constLabels(node).labelNames("source")
            .help("Failed reads per source; each is a gap in the samples, never filled in")
            .callback(cb -> {
                synchronized (this) {
                    gaps.forEach((k, v) -> cb.call(v, k));
                }
            }).register(registry);

        CounterWithCallback.builder().name("fpgamr_job_values_hashed").constLabels(node).labelNames("job_id")
            .help("Values hashed on this node by a running (or just finished) job")
            .callback(cb -> jobs().forEach(j -> cb.call(j.valuesHashed(), j.job()))).register(registry);
        GaugeWithCallback.builder().name("fpgamr_job_values").constLabels(node).labelNames("job_id")
            .help("The size of a running job's domain (2^bits values), where known")
            .callback(cb -> jobs().forEach(j -> {
                if (j.valuesTotal() >= 0) {
                    cb.call(j.valuesTotal(), j.job());
                }
            })).register(registry);
        GaugeWithCallback.builder().name("fpgamr_job_running").constLabels(node).labelNames("job_id")
            .help("1 while the job runs, 0 in the minutes after it finished")
            .callback(cb -> jobs().forEach(j -> cb.call(j.running() ? 1 : 0, j.job()))).register(registry);
        GaugeWithCallback.builder().name("fpgamr_job_energy_joules").constLabels(node).labelNames("job_id", "source", "measured")
            .help("This node's energy since the job was submitted, from its primary source, in joules")
            .callback(cb -> {
                if (primary == null) {
                    return;
                }
                for (ProgressSpool.NodeJob j : jobs()) {
                    double joules = jobJoules(j);
                    if (joules > 0) {
                        cb.call(joules, j.job(), primaryKind, primaryMeasured);
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("fpgamr_job_tpw").constLabels(node).labelNames("job_id", "source", "measured")
            .help("Values hashed per joule on this node since the job was submitted (the thesis's TpW)")
            .callback(cb -> {
                if (primary == null) {
                    return;
                }
                for (ProgressSpool.NodeJob j : jobs()) {
                    double joules = jobJoules(j);
                    if (joules > 0) {
                        cb.call(j.valuesHashed() / joules, j.job(), primaryKind, primaryMeasured);
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("fpgamr_running_tasks").constLabels(node).labelNames("kind")
            .help("Maps, shuffles and reduces of fpgamr jobs running on this node")
            .callback(cb -> {
                int[] sum = new int[3];
                for (ProgressSpool.NodeJob j : jobs()) {
                    sum[0] += Math.max(0, j.runningMaps());
                    sum[1] += Math.max(0, j.runningShuffles());
                    sum[2] += Math.max(0, j.runningReduces());
                }
                cb.call(sum[0], "map");
                cb.call(sum[1], "shuffle");
                cb.call(sum[2], "reduce");
            }).register(registry);
        GaugeWithCallback.builder().name("fpgamr_running_containers").constLabels(node)
            .help("Containers (task JVMs) of fpgamr jobs running on this node")
            .callback(cb -> cb.call(jobs().stream().mapToInt(j -> Math.max(0, j.runningContainers())).sum())).register(registry);
        GaugeWithCallback.builder().name("fpgamr_fpga_devices_in_use").constLabels(node)
            .help("FPGA devices held by fpgamr tasks on this node")
            .callback(cb -> cb.call(jobs().stream().mapToInt(j -> Math.max(0, j.fpgaDevicesInUse())).sum())).register(registry);
    }

    private List<ProgressSpool.NodeJob> jobs() {
        long now = System.currentTimeMillis();
        cleanSpool(now);
        return ProgressSpool.perJob(spool.readAll(), now, options.staleMs(), options.lingerMs());
    }

    /** This node's primary-source joules from the job's submission to its last update (or now). */
    private double jobJoules(ProgressSpool.NodeJob j) {
        long to = j.running() ? System.currentTimeMillis() : j.updatedMs();
        double sum = 0;
        for (Sample s : sampler.rows(j.startedMs(), to)) {
            if (s.primary()) {
                sum += s.joulesWithin(j.startedMs(), to);
            }
        }
        return sum;
    }

    /** Removes progress files not updated for a day, at most once a minute. */
    private void cleanSpool(long now) {
        if (now - lastCleanMs < 60_000) {
            return;
        }
        lastCleanMs = now;
        for (JobProgress p : spool.readAll()) {
            if (now - p.updatedMs() > 24L * 3600 * 1000) {
                try {
                    spool.remove(p.job(), p.writer());
                } catch (IOException e) {
                    // left for the next pass
                }
            }
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            if (path.equals("/samples")) {
                Map<String, String> q = query(ex.getRequestURI().getRawQuery());
                long now = System.currentTimeMillis();
                long from;
                long to;
                try {
                    from = q.containsKey("from") ? Long.parseLong(q.get("from")) : now - 600_000;
                    to = q.containsKey("to") ? Long.parseLong(q.get("to")) : now;
                } catch (NumberFormatException e) {
                    send(ex, 400, "text/plain", "from and to must be epoch milliseconds\n");
                    return;
                }
                StringWriter w = new StringWriter();
                SampleLog.write(w, sampler.rows(from, to));
                send(ex, 200, "text/csv; charset=utf-8", w.toString());
            } else if (path.equals("/")) {
                StringBuilder sb = new StringBuilder("fpgamr energy exporter on ").append(options.node()).append(" (")
                    .append(options.nodeType()).append(")\n/metrics: Prometheus metrics\n/samples?from=MS&to=MS: raw samples (CSV)\n\n");
                if (sources.none()) {
                    sb.append("no power source\n");
                }
                for (PowerSource s : sources.found()) {
                    sb.append("source ").append(s.kind()).append(": ").append(s.describe()).append('\n');
                }
                send(ex, 200, "text/plain; charset=utf-8", sb.toString());
            } else {
                send(ex, 404, "text/plain", "not found\n");
            }
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw == null) {
            return q;
        }
        for (String kv : raw.split("&")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                q.put(kv.substring(0, eq), java.net.URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return q;
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    /** Stops serving and sampling; calling it again does nothing. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (server != null) {
            server.close();
        }
        sampler.close();
    }
}
