package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fpgamr experiment} end to end through bin/fpgamr: a plan of the thesis's shape (both input
 * formats, two reducer counts, one and two nodes, the x86 and the simulated FPGA node, the plain
 * Hadoop baseline) at 2^16 values, interrupted as it starts its second cluster (the first one's
 * four runs recorded) and resumed: the runs done before are kept as they were, none is run twice,
 * every run hashed exactly 2^16 values, and the
 * report has its tables and every figure it references decodes. A plan whose runs all outlive
 * their timeout records each as failed, in results.csv and in the report, and exits 1.
 */
class ExperimentPlanTest {
    private static final int BITS = 16;
    private static final Path PUBLISHED = Fpgamr.ROOT.resolve("mr-md5/experiments/thesis-published.yml");

    @TempDir
    Path tmp;

    private Path plan(String name, int timeoutS, String sweeps) throws IOException {
        Path plan = tmp.resolve(name + ".yml");
        Files.writeString(plan, String.join("\n",
            "name: " + name,
            "bits: " + BITS,
            "target: " + Fpgamr.md5Hex(0x1234, BITS),
            "repetitions: 1",
            "timeout_s: " + timeoutS,
            "energy: [--sources, declared, --declare-watts, '20']",
            "fpga_devices: 1",
            "published: " + PUBLISHED,
            "arm_fpga: {clock_mhz: 50, clock_source: the test's, board_watts: 6.355, board_watts_source: the test's}",
            "sweeps:",
            sweeps), StandardCharsets.UTF_8);
        return plan;
    }

    @Test
    void runsResumesAndReports() throws Exception {
        Path plan = plan("ci", 600, String.join("\n",
            "  - {name: ch9, tables: ['9.1', '9.2'], jobs: [fpgamr], node_types: [x86], inputs: [{ppk: 1, maps: 1}, {ppk: 262144, maps: 1}],",
            "     reducers: [1], thesis_reducers: [4], nodes: [1]}",
            "  - {name: ch10, tables: ['10.1'], jobs: [fpgamr], node_types: [x86], inputs: [{ppk: 262144, maps: 1}], reducers: [1, 2], nodes: [1]}",
            "  - {name: ch11, tables: ['11.1'], jobs: [fpgamr], node_types: [x86], inputs: [{ppk: 262144, maps: 1}], reducers: [1], nodes: [1, 2]}",
            "  - {name: ch12, tables: ['12.1'], jobs: [fpgamr], node_types: [x86, fpga, arm], inputs: [{ppk: 262144, maps: 1}], reducers: [1],",
            "     nodes: [1], thesis_framework: patched}",
            "  - {name: base, jobs: [baseline, fpgamr], node_types: [x86], inputs: [{ppk: 1, maps: 1}], reducers: [1], nodes: [1]}",
            ""));
        Path out = tmp.resolve("study");
        Path csv = out.resolve("results.csv");

        // Interrupted as it starts its second cluster, the first one's runs recorded: the resume starts
        // only the clusters of the runs left. (Interrupted in a run, the resume started that run's
        // cluster a second time: a cluster's start, most of a 2^16 run's cost, paid twice.)
        Process p = start(plan, out);
        Path firstErr = tmp.resolve("first.err");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10); // a guard against a hang, not a timing assertion
        while (clusters(firstErr) < 2 && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertTrue(p.isAlive(), "the study ended before it could be interrupted: " + Files.readString(firstErr));
        p.destroy();
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        List<String> before = rows(csv);
        // the one-node cluster's runs: ch9's two, ch10's second reducer count, base's baseline
        assertEquals(4, before.size(), String.join("\n", before));

        Fpgamr.Result r = Fpgamr.run(tmp, Map.of(), "experiment", plan.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains(before.size() + " already in results.csv"), r.err());
        List<String> after = rows(csv);
        assertEquals(before, after.subList(0, before.size()), "the runs done before the interruption are kept as they were");
        // ch9: 2, ch10: +1, ch11: +1, ch12: +2 (fpga, arm: an ARM node's cluster after the others, in the same JVM), base: +1 (baseline)
        assertEquals(7, after.size(), String.join("\n", after));
        List<String> header = List.of(Files.readAllLines(csv).get(0).split(","));
        List<String> points = new ArrayList<>();
        for (String row : after) {
            String[] f = row.split(",", -1);
            String point = f[header.indexOf("point")];
            assertFalse(points.contains(point), "run twice: " + point);
            points.add(point);
            assertEquals("ok", f[header.indexOf("status")], row);
            assertEquals(1L << BITS, Long.parseLong(f[header.indexOf("values_hashed")]), "values hashed: " + row);
            assertTrue(f[header.indexOf("flags")].contains("declared-power"), row);
            assertEquals(point.contains("/fpga/"), f[header.indexOf("flags")].contains("simulated-fpga"), row);
            assertEquals(point.contains("/arm/"), f[header.indexOf("flags")].contains("emulated-arm"), row);
        }

        String report = Files.readString(out.resolve("report.md"));
        for (String table : List.of("### Stage times [s], mean ± sd", "### Energy and TpW, mean ± sd", "## Where the maps' time goes",
            "## The ARM-FPGA device, MODELLED, DEVICE ONLY", "## The framework's overhead (thesis chapter 12)", "## Hardware",
            "## The ARM nodes: EMULATED runs and a MODELLED Cortex-A9", "## The three node types side by side",
            "## Power over time", "## Failed runs\n\nNone.")) {
            assertTrue(report.contains(table), "report has " + table);
        }
        assertTrue(report.contains("| " + (1L << BITS) + " |"), "values hashed in the stage tables");
        assertTrue(report.contains("621.8 ± 16.38 (x86)"), "the thesis's table 9.1 beside the 1 PpK row, as printed");
        checkFigures(out, report);

        // the modelled ARM-FPGA node: one row per run of the FPGA node, every one labelled modelled
        List<String> model = Files.readAllLines(out.resolve("arm-fpga-model.csv"));
        assertEquals(2, model.size(), String.join("\n", model));
        List<String> mh = List.of(model.get(0).split(","));
        String[] m = model.get(1).split(",", -1);
        assertEquals("modelled", m[mh.indexOf("basis")]);
        assertEquals(1L << BITS, Long.parseLong(m[mh.indexOf("values_hashed")]));
        assertTrue(Long.parseLong(m[mh.indexOf("device_cycles")]) > 0);
        assertTrue(report.contains("[arm-fpga-model.csv](arm-fpga-model.csv)"));
    }

    @Test
    void runsPastTheirTimeoutAreRecordedFailed() throws Exception {
        Path plan = plan("timeout", 1, String.join("\n",
            "  - {name: ch9, jobs: [fpgamr], node_types: [x86], inputs: [{ppk: 262144, maps: 1}], reducers: [1], nodes: [1]}", ""));
        Path out = tmp.resolve("late");
        Fpgamr.Result r = Fpgamr.run(tmp, Map.of(), "experiment", plan.toString(), "--out", out.toString());
        assertEquals(1, r.code(), r.err());
        List<String> rows = rows(out.resolve("results.csv"));
        assertEquals(1, rows.size());
        assertTrue(rows.get(0).contains(",failed,") && rows.get(0).contains("timed out after 1 s"), rows.get(0));
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("## Failed runs\n\n| point | run | error |"), report);
        assertTrue(report.contains("timed out after 1 s"), report);
    }

    private Process start(Path plan, Path out) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Fpgamr.ROOT.resolve("bin/fpgamr").toString(), "experiment", plan.toString(), "--out",
            out.toString()).directory(tmp.toFile());
        pb.environment().remove("HADOOP_CONF_DIR");
        pb.environment().put("FPGAMR_LOG", tmp.resolve("fpgamr.log").toString());
        pb.redirectOutput(tmp.resolve("first.out").toFile()).redirectError(tmp.resolve("first.err").toFile());
        return pb.start();
    }

    /** The clusters a study's stderr says it has begun to start ({@code experiment: cluster ...}, one line each). */
    private static long clusters(Path err) throws IOException {
        // as bytes: the file is being written, and its last line may end inside a character
        return Files.exists(err) ? new String(Files.readAllBytes(err), StandardCharsets.UTF_8).lines()
            .filter(l -> l.startsWith("experiment: cluster ")).count() : 0;
    }

    /** The rows of results.csv, without its header; none before it exists. */
    private static List<String> rows(Path csv) throws IOException {
        if (!Files.exists(csv)) {
            return List.of();
        }
        List<String> lines = Files.readAllLines(csv);
        return lines.isEmpty() ? List.of() : lines.subList(1, lines.size());
    }

    /** Every image and SVG link of the report exists and decodes: PNG through ImageIO, SVG as XML. */
    private static void checkFigures(Path dir, String report) throws Exception {
        Matcher m = Pattern.compile("\\]\\(([^)]+\\.(png|svg))\\)").matcher(report);
        int png = 0;
        int svg = 0;
        while (m.find()) {
            Path f = dir.resolve(m.group(1));
            assertTrue(Files.isRegularFile(f), "figure " + f + " exists");
            if (m.group(2).equals("png")) {
                BufferedImage img = ImageIO.read(f.toFile());
                assertNotNull(img, f + " is a PNG");
                assertTrue(img.getWidth() > 0 && img.getHeight() > 0);
                png++;
            } else {
                DocumentBuilderFactory xml = DocumentBuilderFactory.newInstance();
                // XChart's SVG names the W3C's DTD: parse without fetching it (no network)
                xml.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
                assertEquals("svg", xml.newDocumentBuilder().parse(f.toFile()).getDocumentElement().getNodeName(), f.toString());
                svg++;
            }
        }
        // stages per reducer count, scaling, TpW per node type; no power-over-time chart: the plan's
        // power is declared (a flat line, issue 41), so the report links no power.png
        assertTrue(svg >= 3, "SVG figures: " + svg);
        assertTrue(png >= 3, "PNG figures: " + png);
        assertFalse(report.contains("power.png"), "a power-over-time chart of a declared source");
    }
}
