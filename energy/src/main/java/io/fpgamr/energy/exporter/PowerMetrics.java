package io.fpgamr.energy.exporter;

import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.source.Discovery;
import io.fpgamr.energy.source.PowerSource;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node's power metrics, kept from the sampler's rows: the last reading and the energy of every
 * source and domain, the node's total from its primary source, and each source's health. The label
 * {@code measured} is {@code true}, {@code false} for a declared wattage, or {@code none}.
 */
final class PowerMetrics {
    /** Last power and accumulated energy of one source domain. */
    private static final class Domain {
        final String source;
        final String domain;
        final String measured;
        double watts;
        double joules;

        Domain(Sample s) {
            this.source = s.source();
            this.domain = s.domain();
            this.measured = Boolean.toString(s.measured());
        }
    }

    private final Labels node;
    private final String primaryKind;
    private final String primaryMeasured;
    private final Map<String, Domain> domains = new LinkedHashMap<>();
    private final Map<String, Double> sourceUp = new LinkedHashMap<>();
    private final Map<String, Long> gaps = new LinkedHashMap<>();
    private double nodeWatts = Double.NaN;
    private double nodeJoules;

    PowerMetrics(Discovery.Result sources, Labels node) {
        this.node = node;
        PowerSource primary = sources.primary().orElse(null);
        this.primaryKind = primary == null ? "none" : primary.kind();
        this.primaryMeasured = primary == null ? "none" : Boolean.toString(primary.measured());
        for (PowerSource s : sources.found()) {
            sourceUp.put(s.kind(), 0.0);
            gaps.put(s.kind(), 0L);
        }
    }

    synchronized void onSamples(List<Sample> rows) {
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
            Domain d = domains.computeIfAbsent(s.source() + "\u0000" + s.domain(), k -> new Domain(s));
            double joules = s.joulesWithin(s.startMs(), s.endMs());
            d.watts = s.watts();
            d.joules += joules;
            if (s.primary()) {
                primaryWatts += s.watts();
                primaryOk = true;
                nodeJoules += joules;
            }
        }
        if (primaryOk) {
            nodeWatts = primaryWatts;
        }
        ok.forEach((k, v) -> sourceUp.put(k, v ? 1.0 : 0.0));
    }

    void register(PrometheusRegistry registry) {
        Info.builder().name("fpgamr_node").constLabels(node).labelNames("primary_source", "measured")
            .help("One per node exporter (fpgamr_node_info): primary_source gives the node's total power (none: no source); "
                + "measured is true, false (a declared wattage: modelled, not measured) or none")
            .register(registry).setLabelValues(primaryKind, primaryMeasured);
        GaugeWithCallback.builder().name("fpgamr_power_watts").constLabels(node).labelNames("source", "domain", "measured")
            .help("Last power reading per source and domain, in watts (measured=false: a declared wattage)")
            .callback(cb -> {
                synchronized (this) {
                    domains.values().forEach(d -> cb.call(d.watts, d.source, d.domain, d.measured));
                }
            }).register(registry);
        CounterWithCallback.builder().name("fpgamr_energy_joules").constLabels(node).labelNames("source", "domain", "measured")
            .help("Energy per source and domain since the exporter started, in joules")
            .callback(cb -> {
                synchronized (this) {
                    domains.values().forEach(d -> cb.call(d.joules, d.source, d.domain, d.measured));
                }
            }).register(registry);
        GaugeWithCallback.builder().name("fpgamr_node_power_watts").constLabels(node).labelNames("source", "measured")
            .help("The node's power from its primary source, in watts; absent with no source or after a failed read")
            .callback(cb -> {
                synchronized (this) {
                    if (!primaryKind.equals("none") && !Double.isNaN(nodeWatts)) {
                        cb.call(nodeWatts, primaryKind, primaryMeasured);
                    }
                }
            }).register(registry);
        CounterWithCallback.builder().name("fpgamr_node_energy_joules").constLabels(node).labelNames("source", "measured")
            .help("The node's energy from its primary source since the exporter started, in joules")
            .callback(cb -> {
                synchronized (this) {
                    if (!primaryKind.equals("none")) {
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
    }
}
