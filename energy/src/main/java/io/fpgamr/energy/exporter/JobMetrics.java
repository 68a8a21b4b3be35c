package io.fpgamr.energy.exporter;

import io.fpgamr.energy.ProgressSpool;
import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.sample.Sampler;
import io.fpgamr.energy.source.PowerSource;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The running jobs' metrics, read from the progress spool at each scrape: values hashed, the
 * node's joules and TpW since each job's submission, running tasks, containers and FPGA devices.
 * A job's id is the label {@code job_id} (Prometheus keeps {@code job} for the scrape job);
 * {@code simulated="true"} says its maps ran on a simulated FPGA, so its TpW is modelled.
 */
final class JobMetrics {
    private final ProgressSpool spool;
    private final Sampler sampler;
    private final PowerSource primary;
    private final Labels node;
    private long lastCleanMs;
    private List<ProgressSpool.NodeJob> lastJobs;
    private long lastReadMs;

    JobMetrics(ProgressSpool spool, Sampler sampler, PowerSource primary, Labels node) {
        this.spool = spool;
        this.sampler = sampler;
        this.primary = primary;
        this.node = node;
    }

    void register(PrometheusRegistry registry) {
        CounterWithCallback.builder().name("fpgamr_job_values_hashed").constLabels(node).labelNames("job_id", "simulated")
            .help("Values hashed on this node by a running (or just finished) job; simulated=true: on a simulated FPGA")
            .callback(cb -> jobs().stream().filter(j -> j.valuesHashed() >= 0)
                .forEach(j -> cb.call(j.valuesHashed(), j.job(), Boolean.toString(j.simulated())))).register(registry);
        GaugeWithCallback.builder().name("fpgamr_job_values").constLabels(node).labelNames("job_id")
            .help("The size of a running job's domain (2^bits values), where known")
            .callback(cb -> jobs().stream().filter(j -> j.valuesTotal() >= 0).forEach(j -> cb.call(j.valuesTotal(), j.job())))
            .register(registry);
        GaugeWithCallback.builder().name("fpgamr_job_running").constLabels(node).labelNames("job_id", "simulated")
            .help("1 while the job runs, 0 in the minutes after it finished; simulated=true: its maps ran on a simulated FPGA")
            .callback(cb -> jobs().forEach(j -> cb.call(j.running() ? 1 : 0, j.job(), Boolean.toString(j.simulated())))).register(registry);
        GaugeWithCallback.builder().name("fpgamr_job_energy_joules").constLabels(node).labelNames("job_id", "source", "measured", "simulated")
            .help("This node's energy since the job was submitted, from its primary source, in joules")
            .callback(cb -> forEachMeasured((j, joules) -> cb.call(joules, j.job(), primary.kind(), Boolean.toString(primary.measured()),
                Boolean.toString(j.simulated())))).register(registry);
        GaugeWithCallback.builder().name("fpgamr_job_tpw").constLabels(node).labelNames("job_id", "source", "measured", "simulated")
            .help("Values hashed per joule on this node since the job was submitted (the thesis's TpW); modelled where "
                + "measured=false (a declared wattage) or simulated=true (a simulated FPGA)")
            .callback(cb -> forEachMeasured((j, joules) -> {
                if (j.valuesHashed() >= 0) {
                    cb.call(j.valuesHashed() / joules, j.job(), primary.kind(), Boolean.toString(primary.measured()),
                        Boolean.toString(j.simulated()));
                }
            })).register(registry);
        GaugeWithCallback.builder().name("fpgamr_running_tasks").constLabels(node).labelNames("kind")
            .help("Maps, shuffles and reduces of fpgamr jobs running on this node")
            .callback(cb -> {
                List<ProgressSpool.NodeJob> jobs = jobs();
                cb.call(sum(jobs, ProgressSpool.NodeJob::runningMaps), "map");
                cb.call(sum(jobs, ProgressSpool.NodeJob::runningShuffles), "shuffle");
                cb.call(sum(jobs, ProgressSpool.NodeJob::runningReduces), "reduce");
            }).register(registry);
        GaugeWithCallback.builder().name("fpgamr_running_containers").constLabels(node)
            .help("Containers (task JVMs) of fpgamr jobs running on this node")
            .callback(cb -> cb.call(sum(jobs(), ProgressSpool.NodeJob::runningContainers))).register(registry);
        GaugeWithCallback.builder().name("fpgamr_fpga_devices_in_use").constLabels(node)
            .help("FPGA devices held by fpgamr tasks on this node")
            .callback(cb -> cb.call(sum(jobs(), ProgressSpool.NodeJob::fpgaDevicesInUse))).register(registry);
    }

    /** A count over the jobs; one a writer does not know (-1) counts nothing. */
    private static int sum(List<ProgressSpool.NodeJob> jobs, ToIntFunction<ProgressSpool.NodeJob> count) {
        return jobs.stream().mapToInt(j -> Math.max(0, count.applyAsInt(j))).sum();
    }

    private interface JobJoules {
        void accept(ProgressSpool.NodeJob job, double joules);
    }

    /** Each job with the node's joules since its submission, where the node has a source and used any. */
    private void forEachMeasured(JobJoules each) {
        if (primary == null) {
            return;
        }
        for (ProgressSpool.NodeJob j : jobs()) {
            long to = j.running() ? System.currentTimeMillis() : j.updatedMs();
            double joules = sampler.rows(j.startedMs(), to).stream().filter(Sample::primary)
                .mapToDouble(s -> s.joulesWithin(j.startedMs(), to)).sum();
            if (joules > 0) {
                each.accept(j, joules);
            }
        }
    }

    /**
     * The jobs of the spool, read once for the callbacks of one scrape (they run within moments of
     * each other; a busy node must not read the spool once per metric); files not updated for a day
     * are removed, at most once a minute.
     */
    private synchronized List<ProgressSpool.NodeJob> jobs() {
        long now = System.currentTimeMillis();
        if (lastJobs != null && now - lastReadMs < 250) {
            return lastJobs;
        }
        if (now - lastCleanMs >= 60_000) {
            lastCleanMs = now;
            spool.removeUpdatedBefore(now - 24L * 3600 * 1000);
        }
        lastReadMs = now;
        lastJobs = ProgressSpool.perJob(spool.readAll(), now, NodeExporter.STALE_MS, NodeExporter.LINGER_MS);
        return lastJobs;
    }
}
