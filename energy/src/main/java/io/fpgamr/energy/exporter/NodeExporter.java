package io.fpgamr.energy.exporter;

import io.fpgamr.energy.EnergyConfig;
import io.fpgamr.energy.JobOwners;
import io.fpgamr.energy.ProgressSpool;
import io.fpgamr.energy.sample.Sampler;
import io.fpgamr.energy.source.Discovery;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The per-node exporter: samples the node's power sources (1 Hz by default) and serves
 * {@code /metrics} (Prometheus text format, through the official Java client: {@link PowerMetrics}
 * and the running jobs' {@link JobMetrics}) and {@code /samples} ({@link ExporterPages}). Every
 * metric carries {@code node} and {@code node_type}.
 */
public final class NodeExporter implements AutoCloseable {
    /** A running job's progress file older than this is taken as abandoned. */
    static final long STALE_MS = 60_000;
    /** A finished job stays exported this long, for the last scrape. */
    static final long LINGER_MS = 120_000;

    private final Sampler sampler;
    private final HTTPServer server;
    private final YarnJobOwners owners;
    private final AtomicBoolean closed = new AtomicBoolean();

    private NodeExporter(Sampler sampler, HTTPServer server, YarnJobOwners owners) {
        this.sampler = sampler;
        this.server = server;
        this.owners = owners;
    }

    /** {@link #start(EnergyConfig, Discovery.Result, Consumer)} logging to stderr. */
    public static NodeExporter start(EnergyConfig config, Discovery.Result sources) throws IOException {
        return start(config, sources, line -> System.err.println("fpgamr energy exporter: " + line));
    }

    /**
     * Starts sampling the sources found and serving, as {@code config} says (node, period, spool,
     * address, retention); what it skips in the spool goes to {@code log}, one line each.
     */
    public static NodeExporter start(EnergyConfig config, Discovery.Result sources, Consumer<String> log) throws IOException {
        Sampler sampler = new Sampler(config.node(), config.nodeType(), sources.found(), config.periodMs(), config.retentionMs(),
            System::currentTimeMillis);
        Labels node = Labels.of("node", config.node(), "node_type", config.nodeType());
        PrometheusRegistry registry = new PrometheusRegistry();
        PowerMetrics power = new PowerMetrics(sources, node);
        power.register(registry);
        sampler.addListener(power::onSamples);
        // Without a ResourceManager nothing knows whose a job is: any writer of the spool is taken (one machine, the local runner).
        YarnJobOwners owners = config.resourceManager() == null ? null
            : new YarnJobOwners(config.resourceManager(), log, System::currentTimeMillis);
        ProgressSpool spool = new ProgressSpool(config.exporterSpool(), log, owners == null ? JobOwners.ANYONE : owners);
        new JobMetrics(spool, sampler, sources.primary().orElse(null), node).register(registry);
        sampler.start();
        try {
            HTTPServer server = HTTPServer.builder().hostname(config.bind()).port(config.port()).registry(registry)
                .defaultHandler(new ExporterPages(config.node(), config.nodeType(), sources, sampler)).buildAndStart();
            return new NodeExporter(sampler, server, owners);
        } catch (IOException | RuntimeException e) {
            sampler.close();
            if (owners != null) {
                owners.close();
            }
            throw e;
        }
    }

    public int port() {
        return server.getPort();
    }

    public Sampler sampler() {
        return sampler;
    }

    /** Stops serving and sampling; calling it again does nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            server.close();
            sampler.close();
            if (owners != null) {
                owners.close();
            }
        }
    }
}
