package io.fpgamr.energy;

import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.sample.Sampler;
import io.fpgamr.energy.source.Discovery;
import io.fpgamr.energy.source.PowerSource;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Measures jobs for the job launcher. Start it before submitting a job, and finish with the job's
 * record (what the job produced: its values hashed and its timeline) to get its {@link JobEnergy}
 * and its folder (report.md, power.png, power.svg, samples.csv, energy.json). Data flows one way:
 * the monitor reads the job's record and calls nothing of the job; the job's live progress goes to
 * the spool from the launcher ({@link ProgressSpool}).
 *
 * <pre>{@code
 * try (EnergyMonitor monitor = EnergyMonitor.start(EnergyConfig.defaults())) {
 *     long submit = System.currentTimeMillis();
 *     ... the job runs ...
 *     JobEnergy e = monitor.finish(new JobRecord(id, hashed, new Timeline(submit, done, spans)), jobDir);
 * }
 * }</pre>
 *
 * On this machine (local runner, embedded cluster) it samples this machine's sources itself. With
 * node exporters configured (a real cluster, each node running {@code fpgamr energy exporter}), it
 * fetches each node's samples of the job's window from the exporters' {@code /samples}.
 */
public final class EnergyMonitor implements AutoCloseable {
    private final EnergyConfig config;
    private final Discovery.Result discovered;
    private final Sampler sampler;
    private final long startedMs;

    private EnergyMonitor(EnergyConfig config, Discovery.Result discovered, Sampler sampler) {
        this.config = config;
        this.discovered = discovered;
        this.sampler = sampler;
        this.startedMs = System.currentTimeMillis();
    }

    /** Finds this machine's sources and starts sampling them (unless exporters are configured). */
    public static EnergyMonitor start(EnergyConfig config) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true"); // the report's pictures need no display
        }
        if (!config.singleMachine()) {
            return new EnergyMonitor(config, new Discovery.Result(List.of(), List.of()), null);
        }
        Discovery.Result found = Discovery.discover(config.sources());
        Sampler sampler = new Sampler(config.node(), config.nodeType(), found.found(), config.periodMs(),
            Math.max(6L * 3600 * 1000, 10 * config.periodMs()), System::currentTimeMillis);
        sampler.start();
        return new EnergyMonitor(config, found, sampler);
    }

    public EnergyConfig config() {
        return config;
    }

    /** The sources found on this machine, and the ones absent with their reasons. */
    public Discovery.Result sources() {
        return discovered;
    }

    /** One line naming what is measured here, for the launcher's log. */
    public String describe() {
        if (!config.singleMachine()) {
            return "energy: samples from the node exporters " + String.join(", ", config.exporters());
        }
        if (discovered.none()) {
            return "energy: " + JobEnergy.NO_SOURCE + " on " + config.node() + ": times only";
        }
        PowerSource p = discovered.primary().orElseThrow();
        return "energy: " + config.node() + " (" + config.nodeType() + ")" + (p.measured() ? " measured by " : " modelled, not measured: ") + p.describe();
    }

    /**
     * Computes the job's figures from the samples of its window and, when {@code jobDir} is not
     * null, writes its folder. The monitor keeps sampling: a launcher repeating the job calls this
     * once per run, then {@link #close()}.
     */
    public JobEnergy finish(JobRecord job, Path jobDir) throws IOException {
        List<Sample> rows;
        if (sampler != null) {
            sampler.tick(); // closes the window: the last row ends after the job's end
            rows = sampler.rows(job.submitMs(), job.doneMs());
        } else {
            rows = fetch(config.exporters(), job.submitMs(), job.doneMs());
        }
        Map<String, String> watched = config.singleMachine() ? Map.of(config.node(), config.nodeType()) : Map.of();
        JobEnergy e = EnergyCalculator.compute(job, rows, config.periodMs(), config.singleMachine(), watched);
        if (jobDir != null) {
            JobDir.write(jobDir, e, config.singleMachine());
        }
        return e;
    }

    /** Writes the mean ± sd summary of repeated runs into {@code setDir} (runs in run-1, run-2, ...). */
    public static Repetitions summarize(Path setDir, List<JobEnergy> runs) throws IOException {
        Repetitions r = new Repetitions(runs);
        if (setDir != null) {
            JobDir.writeRepetitions(setDir, r);
        }
        return r;
    }

    static List<Sample> fetch(List<String> exporters, long fromMs, long toMs) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<Sample> rows = new ArrayList<>();
        for (String hp : exporters) {
            URI uri = URI.create("http://" + hp + "/samples?from=" + fromMs + "&to=" + toMs);
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IOException("HTTP " + r.statusCode());
                }
                rows.addAll(Sample.CSV.read(new StringReader(r.body()), uri.toString()));
            } catch (IOException e) {
                rows.add(Sample.gap(TaskSpan.host(hp), "unknown", "exporter", fromMs, toMs, true, true,
                    "node exporter " + hp + " did not answer: " + e.getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                rows.add(Sample.gap(TaskSpan.host(hp), "unknown", "exporter", fromMs, toMs, true, true, "interrupted"));
            }
        }
        return rows;
    }

    public long startedMs() {
        return startedMs;
    }

    @Override
    public void close() {
        if (sampler != null) {
            sampler.close();
        }
    }
}
