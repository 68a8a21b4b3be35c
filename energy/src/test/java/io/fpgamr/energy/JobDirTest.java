package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.energy.sample.Sample;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobDirTest {
    @TempDir
    Path tmp;

    /**
     * A 60 s job on one x86 node read by RAPL once a second: 30 W idle before, 95 W while its four
     * maps run (0-40 s), 60 W while two reduces shuffle (40-45 s) and reduce (45-58 s), 30 W after.
     */
    static JobEnergy sixtySeconds(String id, double mapWatts) {
        long submit = 1_700_000_000_000L;
        long done = submit + 60_000;
        List<Sample> rows = new ArrayList<>();
        for (long t = submit - 5_000; t < done + 2_000; t += 1000) {
            long s = t - submit;
            double w = s < 0 || s >= 58_000 ? 30 : s < 40_000 ? mapWatts + (s / 1000 % 3) : 60;
            rows.add(Sample.ok("x86-1", "x86", "rapl", "package-0", t, t + 1000, w * 0.8, true, true));
            rows.add(Sample.ok("x86-1", "x86", "rapl", "dram-0", t, t + 1000, w * 0.2, true, true));
        }
        List<TaskSpan> spans = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            spans.add(TaskSpan.ofMap("x86-1", submit + 500 + m * 100, submit + 38_000 + m * 500));
        }
        spans.add(TaskSpan.ofReduce("x86-1", submit + 20_000, submit + 45_000, submit + 57_000));
        spans.add(TaskSpan.ofReduce("x86-1", submit + 21_000, submit + 44_000, submit + 58_000));
        return EnergyCalculator.compute(new JobRecord(id, submit, done, 1L << 26, spans), rows, 1000, true);
    }

    @Test
    void writesTheReportThePicturesAndTheRawSamplesAndRendersThemAgain() throws Exception {
        JobEnergy e = sixtySeconds("job_1700000000000_0001", 95);
        Path dir = tmp.resolve("job");
        JobDir.write(dir, e, true);
        for (String f : List.of(JobDir.JOB, JobDir.SPANS, JobDir.SAMPLES, JobDir.JSON, JobDir.REPORT, JobDir.PNG, JobDir.SVG)) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
        }
        BufferedImage png = ImageIO.read(dir.resolve(JobDir.PNG).toFile());
        assertEquals(1100, png.getWidth());
        assertEquals(520, png.getHeight());
        // XChart's VectorGraphicsEncoder draws text as outlines: check the document and its size
        javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        org.w3c.dom.Element svg = f.newDocumentBuilder().parse(dir.resolve(JobDir.SVG).toFile()).getDocumentElement();
        assertEquals("svg", svg.getTagName());
        assertEquals("0 0 1100 520", svg.getAttribute("viewBox"));
        assertTrue(svg.getElementsByTagName("path").getLength() > 50);

        String md = Files.readString(dir.resolve(JobDir.REPORT));
        assertTrue(md.contains("| stage | time [s] | energy [J] | mean power [W] |"), md);
        assertTrue(md.contains("| map | 39.000 |"), md);
        assertTrue(md.contains("| x86-1 | x86 | rapl | package-0, dram-0 |"), md);
        assertTrue(md.contains("![power per node and running tasks per second](power.png)"), md);

        JsonNode json = Mappers.JSON.readTree(dir.resolve(JobDir.JSON).toFile());
        assertEquals("measured", json.get("status").asText());
        assertEquals("measured", json.get("basis").asText());
        assertEquals(e.energyJ(), json.get("energy_j").asDouble(), 1e-9);
        assertEquals(e.tpw(), json.get("tpw").asDouble(), 1e-9);

        // `energy report` computes the same figures from the kept inputs
        String before = Files.readString(dir.resolve(JobDir.JSON));
        Files.delete(dir.resolve(JobDir.JSON));
        Files.delete(dir.resolve(JobDir.PNG));
        Cli c = Cli.run("report", dir.toString());
        assertEquals(0, c.code, c.err);
        assertEquals(before, Files.readString(dir.resolve(JobDir.JSON)));
        assertTrue(Files.size(dir.resolve(JobDir.PNG)) > 0);
        assertEquals(String.format(java.util.Locale.ROOT, "status measured, TpW %.2f values/J", e.tpw()), c.out.lines().toList().get(1));
    }

    @Test
    void repeatedRunsGetTheThesissMeanAndDeviationTables() throws IOException {
        Path set = tmp.resolve("set");
        List<JobEnergy> runs = new ArrayList<>();
        double[] mapWatts = {95, 97, 93, 96, 94};
        for (int i = 0; i < 5; i++) {
            JobEnergy e = sixtySeconds("job_" + (i + 1), mapWatts[i]);
            JobDir.write(set.resolve("run-" + (i + 1)), e, true);
            runs.add(e);
        }
        Repetitions r = EnergyMonitor.summarize(set, runs);
        assertEquals(60.0, r.stat("total_s").mean(), 1e-9);
        assertEquals(0.0, r.stat("total_s").sd(), 1e-9);
        List<Double> energies = runs.stream().map(JobEnergy::energyJ).toList();
        assertEquals(Stats.of(energies), r.stat("energy_j"));
        // map power differs by 95, 97, 93, 96, 94 W over 40 s: the energies are 40 J apart per watt
        assertEquals(Math.sqrt(2.5) * 40, r.stat("energy_j").sd(), 1e-6);
        String md = Files.readString(set.resolve(JobDir.REPORT));
        assertTrue(md.contains("| 39.00 ± 0.00 | 5.50 ± 0.00 | 13.00 ± 0.00 | 60.00 ± 0.00 |"), md);
        assertTrue(md.contains("# Energy over 5 runs"), md);

        Files.delete(set.resolve(JobDir.REPORT));
        Cli c = Cli.run("report", set.toString());
        assertEquals(0, c.code, c.err);
        assertEquals("wrote " + set.resolve(JobDir.REPORT) + " (5 runs)\n", c.out);
        assertEquals(md, Files.readString(set.resolve(JobDir.REPORT)));
    }

    /** Maps on a simulated FPGA: the node's power is measured, but it is a CPU's running the device's model. */
    @Test
    void aJobOnASimulatedFpgaIsModelledInEveryOutputAndStaysSoWhenRenderedAgain() throws IOException {
        JobEnergy measured = sixtySeconds("job_sim", 95);
        JobRecord j = measured.job();
        List<TaskSpan> onSimulatedFpga = j.spans().stream()
            .map(t -> t.isMap() ? new TaskSpan(t.task(), t.kind(), t.node(), "fpga", true, t.startMs(), t.readyMs(), t.endMs()) : t).toList();
        JobEnergy e = EnergyCalculator.compute(new JobRecord(j.jobId(), j.submitMs(), j.doneMs(), j.valuesHashed(), onSimulatedFpga),
            measured.samples(), 1000, true);
        assertEquals("measured", e.status()); // the power was measured ...
        assertEquals("modelled", e.basis()); // ... but not the FPGA's
        Path dir = tmp.resolve("sim");
        JobDir.write(dir, e, true);
        String md = Files.readString(dir.resolve(JobDir.REPORT));
        assertTrue(md.contains("- **modelled, not measured**: the maps ran on a simulated FPGA (a CPU running the device's model), "
            + "not on the device\n"), md);
        assertTrue(md.contains(String.format(java.util.Locale.ROOT, "| TpW [values/J] (modelled) | %.2f |", e.tpw())), md);
        assertTrue(md.contains("| stage | time [s] | energy [J] (modelled) | mean power [W] (modelled) |"), md);
        JsonNode json = Mappers.JSON.readTree(dir.resolve(JobDir.JSON).toFile());
        assertEquals("modelled", json.get("basis").asText());
        assertTrue(json.get("simulated").asBoolean());
        Cli c = Cli.run("report", dir.toString());
        assertEquals(0, c.code, c.err);
        assertTrue(c.out.lines().toList().get(1).endsWith(" (modelled: the maps ran on a simulated FPGA (a CPU running the device's model), "
            + "not on the device)"), c.out);
        assertEquals(md, Files.readString(dir.resolve(JobDir.REPORT)));
    }

    @Test
    void aJobWithoutPowerSourceGetsTimesAndTaskCountsOnly() throws IOException {
        JobEnergy e = EnergyCalculator.compute(new JobRecord("job_np", 0, 10_000, 1000, List.of(TaskSpan.ofMap("arm-1", 100, 9_000))),
            List.of(), 1000, true);
        Path dir = tmp.resolve("nosource");
        JobDir.write(dir, e, true);
        String md = Files.readString(dir.resolve(JobDir.REPORT));
        assertTrue(md.contains("- status: **no power source**"), md);
        assertTrue(md.contains("No node of this job has a power source: the report gives times only."), md);
        assertTrue(md.contains("| TpW [values/J] | not measured |"), md);
        assertTrue(Files.size(dir.resolve(JobDir.PNG)) > 0);
    }

    @Test
    void reportUsageErrors() {
        Cli none = Cli.run("report");
        assertEquals(2, none.code);
        assertEquals("fpgamr energy report: needs the JOB_DIR\n", none.err);
        Cli missing = Cli.run("report", tmp.resolve("absent").toString());
        assertEquals(2, missing.code);
        assertEquals("fpgamr energy report: " + tmp.resolve("absent") + ": no such folder\n", missing.err);
        Cli notJob = Cli.run("report", tmp.toString());
        assertEquals(2, notJob.code);
        assertEquals("fpgamr energy report: " + tmp + " is not a job energy folder (no job.properties and no run-N folders)\n", notJob.err);
    }
}
