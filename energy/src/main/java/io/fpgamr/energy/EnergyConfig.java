package io.fpgamr.energy;

import io.fpgamr.energy.source.SourceConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * How the job launcher measures a job.
 *
 * @param sources   where this machine's power sources are looked for
 * @param node      this machine's node name (default: its host name)
 * @param nodeType  x86, arm or arm-fpga (default: detected)
 * @param periodMs  the sampling period (default 1000 ms, as the thesis)
 * @param spool     the progress spool the node exporter reads, or null for none
 * @param exporters the node exporters ({@code host:port}) of a real cluster's nodes: the monitor
 *                  then fetches their samples at the end instead of sampling here; empty: sample
 *                  this machine, on which the whole job runs (local runner or embedded cluster)
 */
public record EnergyConfig(SourceConfig sources, String node, String nodeType, long periodMs, Path spool, List<String> exporters) {
    public static final long DEFAULT_PERIOD_MS = 1000;

    public EnergyConfig {
        exporters = List.copyOf(exporters);
        if (periodMs < 10) {
            throw new IllegalArgumentException("the sampling period must be at least 10 ms, got " + periodMs);
        }
    }

    /** This machine, its own sources, 1 Hz, the spool of $FPGAMR_ENERGY_SPOOL if set. */
    public static EnergyConfig defaults() {
        String env = System.getenv(ProgressSpool.ENV);
        return new EnergyConfig(SourceConfig.defaults(), NodeType.hostName(), NodeType.detect(), DEFAULT_PERIOD_MS,
            env != null && !env.isBlank() ? Path.of(env) : null, List.of());
    }

    public EnergyConfig withSources(SourceConfig s) {
        return new EnergyConfig(s, node, nodeType, periodMs, spool, exporters);
    }

    public EnergyConfig withNode(String n, String type) {
        return new EnergyConfig(sources, n, type, periodMs, spool, exporters);
    }

    public EnergyConfig withPeriodMs(long ms) {
        return new EnergyConfig(sources, node, nodeType, ms, spool, exporters);
    }

    public EnergyConfig withSpool(Path dir) {
        return new EnergyConfig(sources, node, nodeType, periodMs, dir, exporters);
    }

    public EnergyConfig withExporters(List<String> hostPorts) {
        return new EnergyConfig(sources, node, nodeType, periodMs, spool, hostPorts);
    }

    public boolean singleMachine() {
        return exporters.isEmpty();
    }
}
