package io.fpgamr.md5.experiment.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.md5.experiment.Environment;
import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Published;
import io.fpgamr.md5.experiment.Results;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.md rendered from stored results: quick.yml's plan and the thesis's published values as
 * they are in mr-md5/experiments, a results.csv fixture in the exact format the experiment writes
 * (every point of quick.yml twice, one failed run), the environment.json the experiment records,
 * and a hardware report in hdl's format. Checks the Hardware section, the chapter-12 comparison,
 * the thesis's k columns as printed (3 nodes: 0.376, where 2936.4 / 7746.4 would be 0.379), every
 * ratio cell's basis, the device-only labels and the clock, headings from what each sweep produces,
 * and no internal work-item names.
 */
class ReportTest {
    private static final Path EXPERIMENTS = Path.of("experiments");

    @TempDir
    Path tmp;

    /** A checkout's shape in tmp: mr-md5/experiments (the plan, the thesis's values) and, when given, hdl/build/report.json. */
    private String render(String hardwareReport) throws Exception {
        Path plans = tmp.resolve("mr-md5/experiments");
        Files.createDirectories(plans);
        for (String f : List.of("quick.yml", "thesis-published.yml")) {
            Files.copy(EXPERIMENTS.resolve(f), plans.resolve(f));
        }
        if (hardwareReport != null) {
            Files.createDirectories(tmp.resolve("hdl/build"));
            Files.writeString(tmp.resolve("hdl/build/report.json"), hardwareReport);
        }
        Path out = tmp.resolve("out");
        Files.createDirectories(out);
        for (String f : List.of(Results.FILE, Environment.FILE)) {
            try (InputStream in = ReportTest.class.getResourceAsStream(f)) {
                Files.copy(in, out.resolve(f));
            }
        }
        Path planFile = plans.resolve("quick.yml");
        Plan plan = Plan.read(planFile);
        Published published = Published.read(plans.resolve(plan.published()));
        Path report = Report.write(plan, published, Plan.folder(planFile), Results.open(out).rows(), out);
        return Files.readString(report);
    }

    /** hdl's build/report.json (scripts/report.py): the default 8-pipeline configuration not routed, the 1-pipeline one routed. */
    private static final String HW_REPORT = String.join("\n", "{", "  \"device\": \"5CSEBA6U23I7\",", "  \"design_clock_mhz\": 85,",
        "  \"default\": \"8-256\",", "  \"board_power_w_modelled\": 6.355,",
        "  \"board_power_source\": \"the thesis's ARM-FPGA node (section 9.1.3)\",", "  \"configurations\": [",
        "    {\"pipelines\": 1, \"data_w\": 256, \"fmax_mhz\": 97.31, \"timing_part\": \"LFE5U-85F (ECP5)\"},",
        "    {\"pipelines\": 8, \"data_w\": 256, \"fmax_mhz\": null, \"timing_part\": \"not routed\"}", "  ]", "}");

    /** The section that starts with {@code heading} (a "## " line), up to the next "## " line. */
    private static String section(String md, String heading) {
        int at = md.indexOf("\n" + heading);
        assertTrue(at >= 0, "no section " + heading + " in\n" + md);
        int end = md.indexOf("\n## ", at + 1);
        return md.substring(at + 1, end < 0 ? md.length() : end);
    }

    /** Every table of a text: its header cells and its rows' cells. */
    private record Table(List<String> header, List<List<String>> rows) {
    }

    private static List<Table> tables(String md) {
        List<Table> out = new ArrayList<>();
        List<String> lines = md.lines().toList();
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).startsWith("|") && lines.get(i + 1).startsWith("|---")) {
                List<List<String>> rows = new ArrayList<>();
                int j = i + 2;
                for (; j < lines.size() && lines.get(j).startsWith("|"); j++) {
                    rows.add(cells(lines.get(j)));
                }
                out.add(new Table(cells(lines.get(i)), rows));
                i = j;
            }
        }
        return out;
    }

    private static List<String> cells(String line) {
        String inner = line.substring(1, line.length() - 1);
        return List.of(inner.split("\\|", -1)).stream().map(String::strip).toList();
    }

    @Test
    void theHardwareOfBothSides() throws Exception {
        String hw = section(render(HW_REPORT), "## Hardware");
        assertTrue(hw.contains("| thesis | reference x86 system | Intel Core i7-3970X @ 3.50 GHz | 6 cores, 12 threads (2 per core) | 64 GiB DDR3, "
            + "quad channel | APC Back-UPS Pro 1500 at the wall, 1 W resolution"), hw);
        assertTrue(hw.contains("| thesis | ARM Novena (Kosagi Novena board) | Freescale i.MX6 Quad, ARM Cortex-A9 @ 1.2 GHz | 4 cores, 4 threads"), hw);
        assertTrue(hw.contains("FPGA: one pipelined MD5 core (OpenCores) at 50 MHz | 2 cores, 2 threads | 1 GiB DDR3 @ 667"), hw);
        assertTrue(hw.contains("Disco, stock (ch. 9-11) and patched (ch. 12)"), hw);
        assertTrue(hw.contains("| here | this study's machine (the embedded cluster: every node's daemons and tasks share it) | AMD EPYC 9R14 (Zen 4) "
            + "| 2 logical CPUs | 23.5 GiB | none: a declared 35 W (the plan's energy flags), so every energy figure is modelled | Hadoop 3.5.0"), hw);
    }

    @Test
    void theChapter12ComparisonBesideTheThesissStockAndPatchedDisco() throws Exception {
        String ch12 = section(render(HW_REPORT), "## The framework's overhead (thesis chapter 12)");
        // the thesis's rows as printed, and their ratios
        assertTrue(ch12.contains("| reference x86 system | 319.40 ± 3.44 | 115.40 ± 1.14 | 2.768 [measured ÷ measured] | 2263.85 ± 9.95 "
            + "| 4104.92 ± 19.50 | 1.813 [measured ÷ measured] |"), ch12);
        assertTrue(ch12.contains("| ARM-FPGA (SoCFPGA) (stock: 4 reducers, section 9.1.3) | 27117.00 (one run) | 5351.40 ± 19.05 "
            + "| 5.067 [measured ÷ measured] | 1306.98 (one run) | 4180.10 ± 17.72 | 3.198 [measured ÷ measured] |"), ch12);
        assertTrue(ch12.contains("| ARM Novena | 5215.80 ± 100.61 | 1808.40 ± 14.77 | 2.884 [measured ÷ measured]"), ch12);
        // here: both PpK on x86, the plain job and fpgamr's; on the FPGA node fpgamr's only, and why
        for (String ppk : List.of("1", "2^18")) {
            assertTrue(ch12.contains("| x86 | " + ppk + " | plain (2 maps, 2 reducers) | 2 |"), ch12);
            assertTrue(ch12.contains("| x86 | " + ppk + " | fpgamr | 2 |"), ch12);
        }
        assertTrue(ch12.contains("| fpga | 2^18 | plain | | the plain job has no FPGA engine: no row"), ch12);
        assertTrue(ch12.contains("| fpga (simulated) | 2^18 | fpgamr | 2 |"), ch12);
        assertTrue(ch12.contains("**1 PpK is not the thesis's 1 PpK.**"), ch12);
        assertTrue(ch12.contains("its mapper batches them across `map()` calls"), ch12);
        // the stage times, the TpW and where the maps' time goes, per row
        for (String h : List.of("t_map [s]", "t_shuffle [s]", "t_reduce [s]", "t_total [s]", "TpW [1/J]", "TpW basis", "map tasks [s]",
            "engine share", "t_map plain ÷ fpgamr", "TpW fpgamr ÷ plain")) {
            assertTrue(tables(ch12).get(1).header().contains(h), h);
        }
    }

    @Test
    void theThesissKColumnsAreTranscribed() throws Exception {
        String ch11 = section(render(HW_REPORT), "## Sweep ch11");
        Table stages = tables(ch11).get(0);
        int k = stages.header().indexOf("thesis k_total (table 11.1, as printed)");
        int nodes = stages.header().indexOf("nodes");
        List<String> thesisK = stages.rows().stream().map(r -> r.get(k)).toList();
        assertEquals(List.of("1.000", "0.501", "0.376", "0.262"), thesisK);
        assertEquals("3", stages.rows().get(2).get(nodes));
        Table energy = tables(ch11).get(1);
        int kTpw = energy.header().indexOf("thesis k_TpW (table 11.2, as printed)");
        assertEquals(List.of("1.000", "1.057", "1.003", "1.114"), energy.rows().stream().map(r -> r.get(kTpw)).toList());
    }

    @Test
    void everyRatioCellSaysItsBasis() throws Exception {
        String md = render(HW_REPORT);
        int ratios = 0;
        int tpwRatios = 0;
        for (Table t : tables(md)) {
            for (int col = 0; col < t.header().size(); col++) {
                String h = t.header().get(col);
                boolean ratio = (h.contains("ratio") || h.contains("÷") || h.startsWith("k_")) && !h.contains("as printed");
                if (!ratio) {
                    continue;
                }
                for (List<String> row : t.rows()) {
                    String cell = col < row.size() ? row.get(col) : "";
                    if (cell.isEmpty()) {
                        continue;
                    }
                    ratios++;
                    assertTrue(cell.matches("[0-9.]+ \\[[^\\]]+ ÷ [^\\]]+\\]"), "column '" + h + "': a ratio cell without its basis: '" + cell + "'");
                    if (cell.contains("declared") || cell.contains("modelled")) {
                        tpwRatios++;
                    }
                    if (h.contains("TpW") && !h.contains("patched")) {
                        assertFalse(cell.startsWith("[measured") || cell.matches("[0-9.]+ \\[measured ÷.*"),
                            "a TpW ratio of this plan's declared energy reads as measured: " + cell);
                    }
                }
            }
        }
        assertTrue(ratios > 30, "ratio cells found: " + ratios);
        assertTrue(tpwRatios > 10, "ratio cells of declared or modelled energy found: " + tpwRatios);
        assertTrue(md.contains("[declared: modelled ÷ measured]"), md);
        assertTrue(md.contains("[modelled device only ÷ measured whole node]"), md);
    }

    @Test
    void theThreeNodeTypesSideBySideAsTheThesissConclusion() throws Exception {
        String md = section(render(HW_REPORT), "## The three node types side by side");
        Table t = tables(md).get(0);
        assertEquals("TpW fpgamr ÷ thesis patched", t.header().get(8), t.header().toString());
        List<String> x86 = t.rows().stream().filter(r -> r.get(3).startsWith("x86,")).findFirst().orElseThrow();
        assertEquals("reference x86 system", x86.get(0));
        // the node-type sweep's x86 point (ch12's maps and reducers), not chapter 9's
        assertTrue(x86.get(3).startsWith("x86, 2 maps, 2 reducers, 2 run(s)"), x86.toString());
        assertEquals("319.40 ± 3.44 / 115.40 ± 1.14", x86.get(1));
        assertEquals("2263.85 ± 9.95 / 4104.92 ± 19.50", x86.get(2));
        assertTrue(x86.get(8).endsWith(" [declared: modelled ÷ measured]"), x86.toString());
        List<String> arm = t.rows().stream().filter(r -> r.get(3).startsWith("arm (emulated)")).findFirst().orElseThrow();
        assertEquals("ARM Novena", arm.get(0));
        assertTrue(arm.get(4).endsWith("(emulated)") && arm.get(6).endsWith("(emulated)") && arm.get(8).isEmpty() && arm.get(9).startsWith("no ratio: emulated"), arm.toString());
        List<String> fpga = t.rows().stream().filter(r -> r.get(3).startsWith("fpga (simulated)")).findFirst().orElseThrow();
        assertEquals("ARM-FPGA (SoCFPGA)", fpga.get(0));
        assertTrue(fpga.get(8).isEmpty() && fpga.get(9).startsWith("no ratio: a simulated device"), fpga.toString());
        List<String> device = t.rows().stream().filter(r -> r.get(3).startsWith("ARM-FPGA device, MODELLED, DEVICE ONLY")).findFirst().orElseThrow();
        assertTrue(device.get(6).endsWith("(device only)") && device.get(8).endsWith("[modelled device only ÷ measured whole node]")
            && device.get(9).contains("not like for like"), device.toString());
    }

    @Test
    void theDeviceOnlyModelAndItsClock() throws Exception {
        String arm = section(render(HW_REPORT), "## The ARM-FPGA device, MODELLED, DEVICE ONLY");
        assertTrue(arm.contains("The clock is the design clock, 85.0 MHz (the hardware report ../../hdl/build/report.json (design_clock_mhz)), "
            + "not a measured or routed one: ../../hdl/build/report.json says its default configuration (8 pipelines, 256-bit bus) was not "
            + "routed, so no place-and-route of it has reached this clock. The thesis's device ran one pipelined MD5 core at 50 MHz"), arm);
        assertTrue(arm.contains("**device alone**"), arm);
        assertTrue(arm.contains("ARM-FPGA device only (modelled)"), arm);
        assertTrue(arm.contains("thesis arm-fpga whole node (12.2, measured)"), arm);
    }

    @Test
    void withoutAHardwareReportTheReportSaysSo() throws Exception {
        String arm = section(render(null), "## The ARM-FPGA device, MODELLED, DEVICE ONLY");
        assertTrue(arm.contains("../../hdl/build/report.json is absent (`make -C hdl report` writes it): whether any place-and-route reached "
            + "this clock is not known here"), arm);
    }

    @Test
    void sweepHeadingsSayWhatEachSweepProducesAndNoWorkItemIsNamed() throws Exception {
        String md = render(HW_REPORT);
        assertTrue(md.contains("\n## Sweep ch9: fpgamr on x86, 1 PpK with 2 maps, 2^18 PpK with 2 maps, 1 reducer(s), 1 node(s)\n"), md);
        assertTrue(md.contains("\n## Sweep ch11: fpgamr on x86, 2^18 PpK with 4 maps, 2 reducer(s), 1, 2, 3 and 4 node(s)\n"), md);
        assertTrue(md.contains("\n## Sweep framework: baseline and fpgamr on x86, 1 PpK with 2 maps, 2^18 PpK with 2 maps, 2 reducer(s), 1 node(s)\n"),
            md);
        String ch9 = section(md, "## Sweep ch9");
        assertTrue(ch9.contains("Set beside the thesis's x86 rows of its tables 10.1, 10.2, 9.1, 9.2 on stock Disco"), ch9);
        assertFalse(ch9.contains("9.3"), "ch9 runs no ARM node: it does not cite the ARM tables");
        assertTrue(section(md, "## Sweep ch12").contains("Set beside the thesis's x86 rows of its tables 12.1, 12.2 on its patched Disco"), md);
        assertFalse(md.contains("figures 12.4-12.13"), "the chapter-12 profiles are not produced");
        assertFalse(md.matches("(?s).*\\bissue \\d.*"), "an internal work item is named");
        assertFalse(md.matches("(?s).*\\bitem \\d.*"), "an internal work item is named");
    }
}
