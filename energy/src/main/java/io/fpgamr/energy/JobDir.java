package io.fpgamr.energy;

import io.fpgamr.energy.report.MarkdownReport;
import io.fpgamr.energy.report.PowerChart;
import io.fpgamr.energy.sample.Sample;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.knowm.xchart.XYChart;

/**
 * A finished job's energy folder. Inputs, kept so the report can be rendered again:
 * {@code job.properties} (id, window, values hashed, sampling period), {@code spans.csv} and
 * {@code samples.csv} (the raw samples, gaps included). Outputs: {@code energy.json},
 * {@code report.md}, {@code power.png} and {@code power.svg}. A folder of repeated runs holds
 * {@code run-1}, {@code run-2}, ... and its own {@code report.md} and {@code energy.json} with the
 * mean ± sd.
 */
public final class JobDir {
    public static final String JOB = "job.properties";
    public static final String SPANS = "spans.csv";
    public static final String SAMPLES = "samples.csv";
    public static final String JSON = "energy.json";
    public static final String REPORT = "report.md";
    public static final String PNG = "power.png";
    public static final String SVG = "power.svg";

    private JobDir() {
    }

    /** Writes the inputs and renders the outputs of one job. */
    public static void write(Path dir, JobEnergy e, boolean singleMachine) throws IOException {
        Files.createDirectories(dir);
        Properties p = new Properties();
        p.setProperty("job", e.job().jobId());
        p.setProperty("submit_ms", Long.toString(e.job().submitMs()));
        p.setProperty("done_ms", Long.toString(e.job().doneMs()));
        p.setProperty("values_hashed", Long.toString(e.job().valuesHashed()));
        p.setProperty("sample_period_ms", Long.toString(e.periodMs()));
        p.setProperty("single_machine", Boolean.toString(singleMachine));
        e.nodeTypes().forEach((node, type) -> p.setProperty("node." + node, type));
        try (Writer w = Files.newBufferedWriter(dir.resolve(JOB), StandardCharsets.UTF_8)) {
            p.store(w, "fpgamr energy: the job's window and work");
        }
        TaskSpan.CSV.write(dir.resolve(SPANS), e.job().spans());
        Sample.CSV.write(dir.resolve(SAMPLES), e.samples());
        render(dir, e);
    }

    /** Writes energy.json, report.md, power.png and power.svg. */
    public static void render(Path dir, JobEnergy e) throws IOException {
        Mappers.JSON.writeValue(dir.resolve(JSON).toFile(), e.toMap());
        Files.writeString(dir.resolve(REPORT), MarkdownReport.job(e, PNG), StandardCharsets.UTF_8);
        XYChart chart = PowerChart.build(e, "Consumption: job " + e.job().jobId());
        PowerChart.writePng(chart, dir.resolve(PNG));
        PowerChart.writeSvg(chart, dir.resolve(SVG));
    }

    /** Reads a job folder's inputs and computes its figures again. */
    public static JobEnergy read(Path dir) throws IOException {
        Path jobFile = dir.resolve(JOB);
        if (!Files.isRegularFile(jobFile)) {
            throw new NoSuchFileException(jobFile + ": not a job energy folder (no " + JOB + ")");
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(jobFile, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        try {
            String id = required(p, "job", jobFile);
            long submit = Long.parseLong(required(p, "submit_ms", jobFile));
            long done = Long.parseLong(required(p, "done_ms", jobFile));
            long hashed = Long.parseLong(required(p, "values_hashed", jobFile));
            long period = Long.parseLong(p.getProperty("sample_period_ms", "1000"));
            boolean single = Boolean.parseBoolean(p.getProperty("single_machine", "false"));
            List<TaskSpan> spans = Files.exists(dir.resolve(SPANS)) ? TaskSpan.CSV.read(dir.resolve(SPANS)) : List.of();
            List<Sample> samples = Files.exists(dir.resolve(SAMPLES)) ? Sample.CSV.read(dir.resolve(SAMPLES)) : List.of();
            Map<String, String> nodes = new TreeMap<>();
            for (String k : p.stringPropertyNames()) {
                if (k.startsWith("node.")) {
                    nodes.put(k.substring(5), p.getProperty(k).trim());
                }
            }
            return EnergyCalculator.compute(new JobRecord(id, submit, done, hashed, spans), samples, period, single, nodes);
        } catch (NumberFormatException e) {
            throw new IOException(jobFile + ": bad number: " + e.getMessage(), e);
        }
    }

    /** Whether {@code dir} holds repeated runs ({@code run-N} folders) rather than one job. */
    public static List<Path> runs(Path dir) throws IOException {
        List<Path> runs = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return runs;
        }
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().matches("run-\\d+") && Files.isRegularFile(p.resolve(JOB)))
                .sorted((a, b) -> Integer.compare(runNumber(a), runNumber(b)))
                .forEach(runs::add);
        }
        return runs;
    }

    private static int runNumber(Path p) {
        return Integer.parseInt(p.getFileName().toString().substring(4));
    }

    /** Writes the repetition summary (report.md, energy.json) of a folder of runs. */
    public static void writeRepetitions(Path dir, Repetitions r) throws IOException {
        Files.createDirectories(dir);
        Mappers.JSON.writeValue(dir.resolve(JSON).toFile(), r.toMap());
        Files.writeString(dir.resolve(REPORT), MarkdownReport.repetitions(r), StandardCharsets.UTF_8);
    }

    private static String required(Properties p, String key, Path file) throws IOException {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IOException(file + ": no " + key);
        }
        return v.trim();
    }
}
