package io.fpgamr.md5.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.EnergyConfig;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.md5.cli.JobSummary;
import io.fpgamr.md5.cli.Launcher;
import io.fpgamr.md5.cli.RunReport;
import io.fpgamr.md5.experiment.report.Report;
import io.fpgamr.md5.job.Md5Job.Mode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chapter 12's three jobs (the plain job, fpgamr's on Hadoop's collector and shuffle, fpgamr's own)
 * on Hadoop's local runner at 2^14 values, 1 PpK, 2 maps, 2 reducers, each run as the study runs a
 * point ({@link Launcher.Session}, the point's settings, {@link Experiment#row}): exact counts, and
 * every column of the map-time split present and non-negative, with the rule the report states: the
 * parts are stretches of the maps' own threads that do not overlap, so start + engine + read + write
 * + spill + sort is at most the map time (the spans' end less start, plus sort), within the spans'
 * millisecond clocks (1 ms each end of a map's span). Then the report's section from those rows.
 */
class ChapterTwelveJobsTest {
    private static final int BITS = 14;
    private static final int MAPS = 2;
    private static final String TARGET = "096822475dd517c1089f4b58c7f346ef";

    @TempDir
    Path tmp;

    @Test
    void theThreeJobsCountExactlyAndSplitTheirMapTime() throws Exception {
        EnergyConfig energy = EnergyConfig.fromOptions(List.of("--sources", "declared", "--declare-watts", "35"));
        List<String> local = List.of("--cluster", "local");
        Path runs = tmp.resolve("runs");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8);
        List<ResultRow> rows = new ArrayList<>();
        try (Launcher.Session session = Launcher.Session.open(Experiment.config(Mode.BENCH, TARGET, List.of(), local, runs),
            new Configuration(), energy, err)) {
            for (String job : List.of("baseline", "stock", "fpgamr")) {
                Point p = new Point(job, "x86", BITS, 1, MAPS, 2, 1);
                RunReport.JobRun jr = session.run(Experiment.config(p.mode(), TARGET, p.args(TARGET, 300), local, runs), p.folder(),
                    p.settings());
                JobSummary.Shuffle shuffle = jr.summary().shuffle();
                assertEquals(1L << BITS, jr.summary().valuesHashed(), job);
                assertEquals(1L << BITS, shuffle.mapOutputRecords(), job);
                assertEquals(1L << BITS, shuffle.reduceInputRecords(), job);
                // fpgamr's own collector wrote every map's output (a streamed job of one unit runs one map); the others went through Hadoop's
                long maps = jr.energy().job().timeline().spans().stream().filter(TaskSpan::isMap).count();
                assertEquals(job.equals("fpgamr") ? maps : 0, shuffle.collectorMaps(), job);
                rows.add(Experiment.row(p, 1, jr, tmp));
            }
        }
        for (ResultRow r : rows) {
            String job = r.job();
            assertEquals(1L << BITS, r.valuesHashed(), job);
            Map<String, Double> parts = new java.util.LinkedHashMap<>();
            parts.put("start", r.startupS());
            parts.put("engine", r.engineS());
            parts.put("read", r.readS());
            parts.put("write", r.writeS());
            parts.put("spill", r.spillS());
            parts.put("sort", r.sortS());
            double sum = 0;
            for (Map.Entry<String, Double> e : parts.entrySet()) {
                assertNotNull(e.getValue(), job + ": no " + e.getKey());
                assertTrue(e.getValue() >= 0, job + ": " + e.getKey() + " " + e.getValue());
                sum += e.getValue();
            }
            // every job hashes and flushes its collector: both timed
            assertTrue(r.engineS() > 0, job + ": engine " + r.engineS());
            assertTrue(r.sortS() > 0, job + ": sort " + r.sortS());
            // Hadoop's collector at 2^14 pairs (far under its 100 MiB buffer) spills once, at its flush: derived 0 while the map ran
            if (!job.equals("fpgamr")) {
                assertEquals(0.0, r.spillS(), job);
            }
            double mapTime = r.mapTasksS() + r.sortS();
            assertTrue(sum <= mapTime + 0.002 * MAPS, job + ": the parts " + sum + " s exceed the map time " + mapTime + " s: " + r);
        }

        // the report's section, from these rows: the three jobs' splits and both differences
        Path plans = tmp.resolve("plans");
        Files.createDirectories(plans);
        Files.copy(Path.of("experiments/thesis-published.yml"), plans.resolve("thesis-published.yml"));
        Path planFile = plans.resolve("ch12.yml");
        Files.writeString(planFile, String.join("\n", "name: ch12", "bits: " + BITS, "target: " + TARGET, "repetitions: 1", "timeout_s: 300",
            "energy: [--sources, declared, --declare-watts, \"35\"]", "fpga_devices: 0", "published: thesis-published.yml", "sweeps:",
            "  - name: framework", "    title: three jobs", "    jobs: [baseline, stock, fpgamr]", "    node_types: [x86]",
            "    inputs: [{ppk: 1, maps: " + MAPS + "}]", "    reducers: [2]", "    nodes: [1]", ""));
        Plan plan = Plan.read(planFile);
        Path out = tmp.resolve("out");
        String md = Files.readString(Report.write(plan, Published.read(plans.resolve(plan.published())), plans, rows, out));
        String section = md.substring(md.indexOf("## The framework's share and the engine's"));
        for (String job : List.of("plain", "fpgamr on Hadoop's collector", "fpgamr")) {
            assertTrue(section.contains("| x86 | 1 | " + job + " | 1 | "), job + "\n" + section);
        }
        assertTrue(section.contains("| x86 | 1 | framework | Hadoop's collector and shuffle against fpgamr's, the same engine | "), section);
        assertTrue(section.contains("| x86 | 1 | engine | `MessageDigest` and hex pairs against fpgamr's engine, the same collector | "), section);
        assertTrue(section.contains("× [x86, here, 2^14, fpgamr on Hadoop's collector's map time, measured ÷ x86, here, 2^14, fpgamr's map "
            + "time, measured]"), section);
        assertTrue(section.contains("× [x86, here, 2^14, plain job's engine time, measured ÷ x86, here, 2^14, fpgamr on Hadoop's collector's "
            + "engine time, measured]"), section);
    }
}
