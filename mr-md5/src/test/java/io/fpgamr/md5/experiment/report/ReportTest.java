package io.fpgamr.md5.experiment.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.Stats;
import io.fpgamr.md5.experiment.Environment;
import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.Published;
import io.fpgamr.md5.experiment.Results;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.md rendered from stored results: quick.yml's plan and the thesis's published values as
 * they are in mr-md5/experiments, and a hardware report in hdl's format. The results are the
 * recorded fixture ({@code recorded/}: the results.csv and environment.json of a real quick.yml run,
 * its README says which), on which every check runs: the Hardware section, the chapter-12
 * comparison, the thesis's k columns as printed (3 nodes: 0.376, where 2936.4 / 7746.4 would be
 * 0.379), every ratio cell by what it divides (both sides named, three significant figures,
 * measured ÷ measured only between like runs, none across domain sizes), spreads no finer than they
 * are, declared figures whose ± is the time's, every emulated figure labelled, the device-only
 * labels, the design counted and the clock, headings from what each sweep produces, and no internal
 * work-item names. The hand-made fixture ({@code hand-made/}) is kept only for what a quick.yml run
 * does not write: a failed run, two runs of each emulated point (an emulated figure with a spread),
 * and the plan at the thesis's own domain, 2^28 values (its rows relabelled).
 */
class ReportTest {
    private static final Path EXPERIMENTS = Path.of("experiments");

    @TempDir
    Path tmp;

    /** The recorded run's results (recorded/README.md: the command, date, commit and machine that made them). */
    private static final String RECORDED = "recorded/";
    /** A recorded run of chapter12.yml: the three jobs of chapter 12 (recorded-chapter12/README.md says which). */
    private static final String RECORDED_CH12 = "recorded-chapter12/";
    /** Hand-made results, only for the edge cases a quick.yml run does not write (the class comment names them). */
    private static final String HAND_MADE = "hand-made/";

    /** The reports with the hardware report, rendered once per fixture for the tests that only read them (a render draws every chart). */
    private static String recorded;
    private static String handMade;

    /** The report of the recorded run, with the hardware report. */
    private synchronized String report() throws Exception {
        if (recorded == null) {
            recorded = render(RECORDED, HW_REPORT, 20);
        }
        return recorded;
    }

    /** The report of the hand-made results at 2^20, with the hardware report. */
    private synchronized String handMade() throws Exception {
        if (handMade == null) {
            handMade = render(HAND_MADE, HW_REPORT, 20);
        }
        return handMade;
    }

    /**
     * A checkout's shape in a fresh folder under tmp: mr-md5/experiments (the plan, the thesis's
     * values) and, when given, hdl/build/report.json; the plan and the fixture's results at
     * 2^{@code bits} values (both fixtures are 2^20's).
     */
    private String render(String fixture, String hardwareReport, int bits) throws Exception {
        return render("quick.yml", fixture, hardwareReport, bits);
    }

    /** The same with another plan of mr-md5/experiments. */
    private String render(String planName, String fixture, String hardwareReport, int bits) throws Exception {
        Path root = Files.createTempDirectory(tmp, "checkout");
        Path plans = root.resolve("mr-md5/experiments");
        Files.createDirectories(plans);
        Files.copy(EXPERIMENTS.resolve("thesis-published.yml"), plans.resolve("thesis-published.yml"));
        Files.writeString(plans.resolve(planName), Files.readString(EXPERIMENTS.resolve(planName)).replace("\nbits: 20\n", "\nbits: " + bits + "\n"));
        if (hardwareReport != null) {
            Files.createDirectories(root.resolve("hdl/build"));
            Files.writeString(root.resolve("hdl/build/report.json"), hardwareReport);
        }
        Path out = root.resolve("out");
        Files.createDirectories(out);
        for (String f : List.of(Results.FILE, Environment.FILE)) {
            try (InputStream in = ReportTest.class.getResourceAsStream(fixture + f)) {
                assertTrue(in != null, "no fixture " + fixture + f);
                Files.writeString(out.resolve(f), new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("/bits=20/", "/bits=" + bits + "/")
                    .replaceAll(",(fpgamr|baseline|stock),([a-z0-9-]+),20,", ",$1,$2," + bits + ","));
            }
        }
        Path planFile = plans.resolve(planName);
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

    /** A table's row with its table's header. */
    private record Row(List<String> header, List<String> cells) {
    }

    /** The rows of every table of a text that have a cell {@code which} accepts. */
    private static List<Row> rowsWith(String md, Predicate<String> which) {
        List<Row> out = new ArrayList<>();
        for (Table t : tables(md)) {
            t.rows().stream().filter(row -> row.stream().anyMatch(which)).forEach(row -> out.add(new Row(t.header(), row)));
        }
        return out;
    }

    private static List<String> cells(String line) {
        String inner = line.substring(1, line.length() - 1);
        return List.of(inner.split("\\|", -1)).stream().map(String::strip).toList();
    }

    @Test
    void theHardwareOfBothSides() throws Exception {
        String hw = section(report(), "## Hardware");
        assertTrue(hw.contains("| thesis | reference x86 system | Intel Core i7-3970X @ 3.50 GHz | 6 cores, 12 threads (2 per core) | 64 GiB DDR3, "
            + "quad channel | APC Back-UPS Pro 1500 at the wall, 1 W resolution"), hw);
        assertTrue(hw.contains("| thesis | ARM Novena (Kosagi Novena board) | Freescale i.MX6 Quad, ARM Cortex-A9 @ 1.2 GHz | 4 cores, 4 threads"), hw);
        assertTrue(hw.contains("FPGA: one pipelined MD5 core (OpenCores) at 50 MHz | 2 cores, 2 threads | 1 GiB DDR3 @ 667"), hw);
        assertTrue(hw.contains("Disco, stock (ch. 9-11) and patched (ch. 12)"), hw);
        assertTrue(hw.contains("| here | this study's machine (the embedded cluster: every node's daemons and tasks share it) | Intel(R) Xeon(R) Processor "
            + "| 2 logical CPUs | 23.6 GiB | none: a declared 35 W (the plan's energy flags), so every energy figure is modelled | Hadoop 3.5.0"), hw);
    }

    @Test
    void theChapter12ComparisonBesideTheThesissStockAndPatchedDisco() throws Exception {
        String ch12 = section(report(), "## The framework's overhead (thesis chapter 12)");
        // the thesis's rows as printed, and their ratios
        assertTrue(ch12.contains("| reference x86 system | 319.4 ± 3.44 | 115.4 ± 1.14 | 2.77× [x86, thesis, 2^28, stock Disco's t_map, measured ÷ "
            + "x86, thesis, 2^28, patched Disco's t_map, measured] | 2263.85 ± 9.95 | 4104.92 ± 19.5 | 1.81× [x86, thesis, 2^28, patched "
            + "Disco's TpW, measured ÷ x86, thesis, 2^28, stock Disco's TpW, measured] |"), ch12);
        assertTrue(ch12.contains("| ARM-FPGA (SoCFPGA) (stock: 4 reducers, section 9.1.3) | 27117 (one run) | 5351.4 ± 19.05 | 5.07× [ARM-FPGA, "
            + "thesis, 2^28, stock Disco's t_map, measured ÷ ARM-FPGA, thesis, 2^28, patched Disco's t_map, measured] | 1306.98 (one run) "
            + "| 4180.1 ± 17.72 | 3.20× [ARM-FPGA, thesis, 2^28, patched Disco's TpW, measured ÷ ARM-FPGA, thesis, 2^28, stock Disco's TpW, "
            + "measured] |"), ch12);
        assertTrue(ch12.contains("| ARM Novena | 5215.8 ± 100.61 | 1808.4 ± 14.77 | 2.88× [ARM Novena, thesis, 2^28, stock Disco's t_map"), ch12);
        // here: both PpK on x86, the plain job and fpgamr's; on the FPGA node fpgamr's only, and why
        for (String ppk : List.of("1", "2^18")) {
            assertTrue(ch12.contains("| x86 | " + ppk + " | plain (2 maps, 2 reducers) | 2 |"), ch12);
            assertTrue(ch12.contains("| x86 | " + ppk + " | fpgamr | 2 |"), ch12);
        }
        assertTrue(ch12.contains("| fpga | 2^18 | plain | | the plain job has no FPGA engine: no row"), ch12);
        assertTrue(ch12.contains("| fpga (simulated) | 2^18 | fpgamr | 2 |"), ch12);
        assertTrue(ch12.contains("| arm (emulated) | 2^18 | plain | | no run: this plan runs the plain job on x86 only |"), ch12);
        assertTrue(ch12.contains("**1 PpK is not the thesis's 1 PpK.**"), ch12);
        assertTrue(ch12.contains("its mapper batches them across `map()` calls"), ch12);
        // the stage times, the TpW and where the maps' time goes, per row
        for (String h : List.of("t_map [s]", "t_shuffle [s]", "t_reduce [s]", "t_total [s]", "TpW [1/J]", "TpW basis", "map tasks [s]",
            "engine share", "t_map plain ÷ fpgamr", "TpW fpgamr ÷ plain")) {
            assertTrue(tables(ch12).get(1).header().contains(h), h);
        }
    }

    /**
     * Chapter 12 measured apart, from a recorded run of chapter12.yml (recorded-chapter12/): the three
     * jobs' map-time split on x86 and on the emulated ARM node, every column present (spill on
     * Hadoop's collector derived, said so), none negative but the derived rest's clock slack, the two
     * differences with their ratios; and the whole report passes the same checks as quick.yml's.
     */
    @Test
    void chapter12MeasuredApart() throws Exception {
        String md = render("chapter12.yml", RECORDED_CH12, HW_REPORT, 20);
        String apart = section(md, "## The framework's share and the engine's, measured apart");
        Table split = tables(apart).get(0);
        assertEquals(List.of("node type", "PpK", "job", "runs", "map time [s]", "start [s]", "engine [s]", "read [s]", "write [s]", "spill [s]",
            "sort [s]", "rest [s] (derived)"), split.header());
        List<String> shapes = new ArrayList<>();
        for (List<String> row : split.rows()) {
            shapes.add(row.get(0) + " " + row.get(1) + " " + row.get(2) + " " + row.get(3));
            for (int col = 4; col < row.size(); col++) {
                String cell = row.get(col);
                assertTrue(cell.matches("-?[0-9.]+ ± ([0-9.]+|n/a)( \\(derived\\))?"), split.header().get(col) + ": '" + cell + "' in " + row);
                double mean = Double.parseDouble(cell.split(" ")[0]);
                // the rest is the map time less the parts: the spans' millisecond clocks may take it below 0 by 2 ms a map
                assertTrue(mean >= (col == row.size() - 1 ? -0.004 : 0), split.header().get(col) + " negative in " + row);
            }
            assertEquals(!row.get(2).equals("fpgamr"), row.get(9).endsWith("(derived)"), "Hadoop's spill is derived: " + row);
        }
        assertEquals(List.of("x86 1 plain 2", "x86 1 fpgamr on Hadoop's collector 2", "x86 1 fpgamr 2", "x86 2^18 plain 2",
            "x86 2^18 fpgamr on Hadoop's collector 2", "x86 2^18 fpgamr 2", "arm (emulated) 2^18 plain 1",
            "arm (emulated) 2^18 fpgamr on Hadoop's collector 1", "arm (emulated) 2^18 fpgamr 1"), shapes);
        Table shares = tables(apart).get(1);
        assertEquals(6, shares.rows().size(), shares.toString());
        for (List<String> row : shares.rows()) {
            String share = row.get(2);
            String node = row.get(0).startsWith("arm") ? "arm" : "x86";
            String basis = node.equals("arm") ? "emulated" : "measured";
            String[] sides = share.equals("framework") ? new String[] {"fpgamr on Hadoop's collector", "fpgamr"}
                : new String[] {"plain job", "fpgamr on Hadoop's collector"};
            assertTrue(row.get(7).endsWith("× [" + node + ", here, 2^20, " + sides[0] + "'s map time, " + basis + " ÷ " + node + ", here, 2^20, "
                + sides[1] + "'s map time, " + basis + "]"), row.toString());
            assertTrue(row.get(8).endsWith("× [" + node + ", here, 2^20, " + sides[0] + "'s engine time, " + basis + " ÷ " + node + ", here, 2^20, "
                + sides[1] + "'s engine time, " + basis + "]"), row.toString());
            for (int col = 4; col <= 6; col++) {
                assertTrue(row.get(col).matches("-?[0-9.]+ ± ([0-9.]+|n/a)"), shares.header().get(col) + ": " + row);
            }
        }
        assertTrue(checkRatios(md).size() >= 12, md);
        assertTrue(checkEmulated(md) >= 6, md);
        assertTrue(checkPrecision(md) > 30, md);
        checkDeclared(md);
    }

    @Test
    void theThesissKColumnsAreTranscribed() throws Exception {
        String ch11 = section(report(), "## Sweep ch11");
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

    /** A ratio cell: three significant figures at most, then both sides in brackets. */
    private static final Pattern RATIO = Pattern.compile("([0-9.]+)× \\[([^\\[\\]]+)\\]");
    private static final Pattern BASIS = Pattern.compile("(measured|declared|modelled|emulated|simulated)( and (declared|modelled|emulated|simulated))*");

    /** The significant figures a number is printed with (an integer's trailing zeros do not count). */
    private static int significant(String number) {
        String digits = number.replace(".", "").replaceFirst("^0+", "");
        return (number.contains(".") ? digits : digits.replaceFirst("0+$", "")).length();
    }

    /**
     * Checks every ratio of a report, cell by cell: a column is a ratio column by what its cells
     * divide (a cell with "÷", or a number with "×"), whatever its heading; each of its cells is
     * empty, "no ratio: " and why, or a ratio of at most three significant figures that names both
     * sides (node, here/thesis/model, domain, figure, basis); measured ÷ measured only between runs
     * of one node type and domain. Returns the ratio cells found.
     */
    static List<String> checkRatios(String md) {
        List<String> found = new ArrayList<>();
        for (Table t : tables(md)) {
            for (int col = 0; col < t.header().size(); col++) {
                final int c = col;
                List<String> column = t.rows().stream().map(r -> c < r.size() ? r.get(c) : "").toList();
                if (column.stream().noneMatch(cell -> cell.contains("÷") || cell.matches(".*[0-9]×.*"))) {
                    continue;
                }
                for (String cell : column) {
                    if (cell.isEmpty() || cell.startsWith("no ratio: ")) {
                        continue;
                    }
                    String where = "column '" + t.header().get(col) + "': ";
                    Matcher m = RATIO.matcher(cell);
                    assertTrue(m.matches() && m.group(2).split(" ÷ ", -1).length == 2, where + "a ratio cell without its basis: '" + cell + "'");
                    assertTrue(significant(m.group(1)) <= 3, where + "a ratio with more than three significant figures: '" + cell + "'");
                    String[] a = m.group(2).split(" ÷ ")[0].split(", ");
                    String[] b = m.group(2).split(" ÷ ")[1].split(", ");
                    for (String[] side : List.of(a, b)) {
                        assertTrue(side.length >= 5 && List.of("here", "thesis", "model").contains(side[1])
                            && side[2].matches("2\\^[0-9]+|per value") && BASIS.matcher(side[side.length - 1]).matches(),
                            where + "a ratio side without node, source, domain, figure and basis: '" + String.join(", ", side) + "' in '" + cell + "'");
                    }
                    if (a[a.length - 1].equals("measured") && b[b.length - 1].equals("measured")) {
                        assertTrue(a[0].equals(b[0]) && a[2].equals(b[2]),
                            where + "a ratio across unlike runs tagged measured ÷ measured: '" + cell + "'");
                    }
                    found.add(cell);
                }
            }
        }
        return found;
    }

    @Test
    void everyRatioCellSaysWhatItDivides() throws Exception {
        String md = report();
        List<String> ratios = checkRatios(md);
        assertTrue(ratios.size() >= 20, "ratio cells found: " + ratios);
        // within this plan: like for like, both sides named
        assertTrue(ratios.contains("0.460× [x86, here, 2^20, t_total on 2 nodes, measured ÷ x86, here, 2^20, t_total on 1 node, measured]"),
            ratios.toString());
        assertTrue(ratios.stream().anyMatch(r -> r.endsWith(" [x86, here, 2^20, fpgamr's TpW, declared ÷ x86, here, 2^20, plain job's TpW, declared]")),
            ratios.toString());
        // the thesis's own ratios, named as the thesis's
        assertTrue(ratios.contains("2.77× [x86, thesis, 2^28, stock Disco's t_map, measured ÷ x86, thesis, 2^28, patched Disco's t_map, measured]"),
            ratios.toString());
        // the models against the thesis: rates, each side named
        assertTrue(ratios.stream().anyMatch(r -> r.matches("[0-9]+× \\[ARM-FPGA device only, model, 2\\^20, values per device-joule, modelled ÷ "
            + "ARM-FPGA, thesis, 2\\^28, patched Disco's TpW, whole node, measured\\]")), ratios.toString());
        // this plan's 2^20 runs are never divided by the thesis's 2^28 runs
        assertFalse(ratios.stream().anyMatch(r -> r.contains("here, 2^20") && r.contains("thesis, 2^28")), ratios.toString());
        assertTrue(md.contains("| no ratio: 2^20 values here, 2^28 in the thesis (a run of few values is mostly fixed cost) |"), md);
    }

    @Test
    void ratiosAndSpreadsAreRoundedAsMeasured() {
        assertEquals("12800", Cells.sig(12779.519, 3));
        assertEquals("2.77", Cells.sig(2.768, 3));
        assertEquals("1.00", Cells.sig(1.0, 3));
        assertEquals("0.0500", Cells.sig(0.05, 3));
        assertEquals("8.69 ± 0.15", Cells.fmt(new Stats(8.686, 0.153, 2)));
        assertEquals("891 ± 16", Cells.fmt(new Stats(891.195, 16.25, 2)));
        assertEquals("5700 ± 1200", Cells.fmt(new Stats(5678.9, 1234.5, 2)));
        assertEquals("33.6 ± n/a", Cells.fmt(new Stats(33.617, Double.NaN, 1)));
        assertEquals("(1.330 ± 0.070)e6", Cells.fmtSci(new Stats(1.33e6, 7.0e4, 2)));
        Cells.Side x86Here = new Cells.Side("x86", "here", "2^20", "t_total", "measured", false);
        Cells.Side novena = new Cells.Side("ARM Novena", "thesis", "2^28", "t_total", "measured", false);
        Cells.Side novenaAt20 = new Cells.Side("ARM Novena", "thesis", "2^20", "t_total", "measured", false);
        assertEquals("no ratio: 2^20 values here, 2^28 in the thesis (a run of few values is mostly fixed cost)", Cells.ratio(30.0, x86Here, 7746.4, novena));
        assertEquals("no ratio: unlike nodes (x86 here, ARM Novena thesis)", Cells.ratio(30.0, x86Here, 7746.4, novenaAt20));
        assertEquals("0.500× [x86, here, 2^20, t_total, measured ÷ x86, here, 2^20, t_total, measured]", Cells.ratio(1.0, x86Here, 2.0, x86Here));
    }

    /**
     * At the thesis's own domain, 2^28 values, this plan's x86 runs are divided by the thesis's x86
     * rows, measured ÷ measured where both are (the times), and named as declared where a side is
     * (the TpW); chapter 11's x86 nodes are not divided by the thesis's ARM Novena cluster.
     */
    @Test
    void atTheThesissDomainLikeRunsAreDividedAndUnlikeNodesAreNot() throws Exception {
        String md = render(HAND_MADE, HW_REPORT, 28);
        List<String> ratios = checkRatios(md);
        Table ch9 = tables(section(md, "## Sweep ch9")).get(0);
        String ratio = ch9.rows().get(0).get(ch9.header().indexOf("ratio"));
        assertEquals("0.0534× [x86, here, 2^28, t_total, measured ÷ x86, thesis, 2^28, t_total, measured]", ratio);
        assertTrue(ratios.stream().anyMatch(r -> r.endsWith("× [x86, here, 2^28, TpW, whole job, declared ÷ x86, thesis, 2^28, TpW, whole node, measured]")),
            ratios.toString());
        Table ch11 = tables(section(md, "## Sweep ch11")).get(0);
        for (List<String> row : ch11.rows()) {
            assertEquals("no ratio: unlike nodes (x86 here, ARM Novena thesis)", row.get(ch11.header().indexOf("ratio")), row.toString());
        }
    }

    /** A measured point's power chart cites the thesis figure it stands for, by its sweep's chapter; none where the thesis drew none. */
    @Test
    void powerChartsCiteOnlyTheFiguresTheirPointsStandFor() throws Exception {
        Plan plan = Plan.read(EXPERIMENTS.resolve("quick.yml"));
        List<String> cited = new ArrayList<>();
        for (Plan.Sweep s : plan.sweeps()) {
            for (Point p : plan.points(s)) {
                cited.add(s.name() + " " + p.nodeType() + " " + p.ppk() + " " + p.nodes() + ": " + PowerSection.thesisFigure(s, p));
            }
        }
        assertEquals(List.of("ch9 x86 1 1: 9.1", "ch9 x86 262144 1: 9.2", "ch10 x86 1 1: 10.1", "ch10 x86 1 1: 10.1", "ch10 x86 262144 1: 10.2",
            "ch10 x86 262144 1: 10.2", "ch11 x86 262144 1: null", "ch11 x86 262144 2: 11.1", "ch11 x86 262144 3: 11.2", "ch11 x86 262144 4: 11.3",
            "ch12 x86 262144 1: null", "ch12 fpga 262144 1: 12.13", "ch12 arm 262144 1: null", "ch12 arm-fpga 262144 1: 12.13",
            "framework x86 1 1: null", "framework x86 262144 1: null", "framework x86 1 1: null", "framework x86 262144 1: null"), cited);
    }

    /** Every "mean ± sd" of this plan's runs: the sd to two significant figures at most and the mean to the same place. */
    @Test
    void noFigureIsMorePreciseThanItsSpread() throws Exception {
        int recordedChecked = checkPrecision(report());
        assertTrue(recordedChecked > 50, "figures with a spread checked: " + recordedChecked);
        int handMadeChecked = checkPrecision(handMade());
        assertTrue(handMadeChecked > 50, "figures with a spread checked: " + handMadeChecked);
    }

    /** Fails on a figure of this plan's runs more precise than its spread; returns the figures with a spread checked. */
    private static int checkPrecision(String md) {
        int checked = 0;
        for (Table t : tables(md)) {
            if (t.header().get(0).startsWith("thesis")) {
                continue; // the thesis's values, as it printed them
            }
            for (List<String> row : t.rows()) {
                for (int col = 0; col < row.size() && col < t.header().size(); col++) {
                    Matcher m = Pattern.compile("\\(?(-?[0-9.]+) ± ([0-9.]+)\\)?.*").matcher(row.get(col));
                    if (t.header().get(col).contains("thesis") || !m.matches()) {
                        continue;
                    }
                    checked++;
                    String mean = m.group(1);
                    String sd = m.group(2);
                    int places = mean.contains(".") ? mean.length() - mean.indexOf('.') - 1 : 0;
                    int sdPlaces = sd.contains(".") ? sd.length() - sd.indexOf('.') - 1 : 0;
                    assertTrue(sd.equals("0") || (significant(sd) <= 2 && places == sdPlaces),
                        "column '" + t.header().get(col) + "': more precise than its spread: '" + row.get(col) + "'");
                }
            }
        }
        return checked;
    }

    /**
     * This plan declares its watts: every energy, TpW and ED²P of its runs that has a spread says the
     * spread is the time's alone, and no declared mean power has a spread at all.
     */
    @Test
    void aDeclaredFigureSaysItsSpreadIsTheTimes() throws Exception {
        int recordedChecked = checkDeclared(report());
        assertTrue(recordedChecked > 30, "declared figures with a spread checked: " + recordedChecked);
        int handMadeChecked = checkDeclared(handMade());
        assertTrue(handMadeChecked > 30, "declared figures with a spread checked: " + handMadeChecked);
    }

    /** Fails on a declared figure whose spread is not said to be the time's, or a declared wattage with one; returns the figures checked. */
    private static int checkDeclared(String md) {
        int checked = 0;
        for (Row r : rowsWith(md, cell -> cell.contains("declared"))) {
            for (int col = 0; col < r.cells().size() && col < r.header().size(); col++) {
                String h = r.header().get(col);
                String cell = r.cells().get(col);
                if (h.contains("power") && cell.endsWith("(declared)")) {
                    // quick.yml declares 35 W; a run's mean power is its energy over its time, 35.00000000000001 in a recorded run
                    assertEquals("35 (declared)", cell, "column '" + h + "': a declared wattage not as the plan states it");
                }
                if (h.contains("thesis") || h.contains("÷") || h.contains("ratio") || h.contains("basis") || !cell.contains("±")) {
                    continue;
                }
                assertFalse(h.contains("power"), "column '" + h + "': a declared wattage with a spread: '" + cell + "'");
                if (h.contains("TpW") || h.contains("energy") || h.contains("ED²P")) {
                    checked++;
                    assertTrue(cell.contains("declared W: the ± is the time's alone)"),
                        "column '" + h + "': a declared TpW with ± from the wattage: '" + cell + "'");
                }
            }
        }
        assertFalse(md.contains("## Power over time with running maps, shuffles and reduces (thesis figures"),
            "a declared source's chart cites the thesis's figures");
        assertTrue(md.contains("No chart: every run's power is declared"), md);
        assertFalse(md.contains("both whole node"), md);
        return checked;
    }

    /** Every row of an emulated node (arm, arm-fpga) says emulated, in every table and in the charts' categories. */
    @Test
    void everyEmulatedFigureSaysSo() throws Exception {
        String md = report();
        int rows = checkEmulated(md);
        assertTrue(rows >= 8, "rows of emulated nodes: " + rows);
        int handMadeRows = checkEmulated(handMade());
        assertTrue(handMadeRows >= 8, "rows of emulated nodes: " + handMadeRows);
        // the charts' categories are their tables' first column (the SVGs draw text as outlines)
        String types = section(md, "## The ARM-FPGA device, MODELLED, DEVICE ONLY");
        assertTrue(types.contains("| arm here, whole job (emulated, declared: modelled) |"), types);
        assertTrue(types.contains("| arm-fpga here, whole job (emulated, simulated FPGA, declared: modelled) |"), types);
        String mapTime = section(md, "## Where the maps' time goes");
        assertTrue(mapTime.contains("\n| arm (emulated) | 1 |") && mapTime.contains("\n| arm-fpga (emulated, simulated) | 1 |"), mapTime);
    }

    /**
     * Fails on a table row of an emulated node (arm, arm-fpga: a cell that names the node type, its
     * point or its engines) without the word emulated; returns the rows checked.
     */
    private static int checkEmulated(String md) {
        List<Row> rows = rowsWith(md, cell -> cell.matches("(arm(-fpga)?([ ,/].*)?|[a-z]+/arm(-fpga)?/.*)"));
        for (Row r : rows) {
            assertTrue(r.cells().stream().anyMatch(cell -> cell.contains("emulated")), "an emulated figure without its label: " + r.cells());
        }
        return rows.size();
    }

    /**
     * What only the hand-made results hold: a failed run, listed with its error and counted beside its
     * point's runs, and emulated points of two runs, whose spread is labelled emulated and declared.
     */
    @Test
    void theHandMadeEdgeCases() throws Exception {
        String md = handMade();
        assertTrue(section(md, "## Failed runs").contains("| fpgamr/x86/bits=20/ppk=262144/maps=4/reducers=2/nodes=4 | 3 | the embedded cluster "
            + "did not start |"), md);
        assertTrue(section(md, "## Sweep ch11").contains("| 2 (+1 failed) |"), md);
        List<String> arm = rowsWith(section(md, "## Sweep ch12"), cell -> cell.equals("arm (emulated)")).get(1).cells();
        assertTrue(arm.stream().anyMatch(cell -> cell.matches("[0-9.]+ ± [0-9.]+ \\(emulated; declared W: the ± is the time's alone\\)")), arm.toString());
        assertTrue(checkRatios(md).size() >= 20, md);
    }

    @Test
    void theThreeNodeTypesSideBySideAsTheThesissConclusion() throws Exception {
        String md = section(report(), "## The three node types side by side");
        Table t = tables(md).get(0);
        assertEquals("TpW fpgamr ÷ thesis patched", t.header().get(8), t.header().toString());
        List<String> x86 = t.rows().stream().filter(r -> r.get(3).startsWith("x86,")).findFirst().orElseThrow();
        assertEquals("reference x86 system", x86.get(0));
        // the node-type sweep's x86 point (ch12's maps and reducers), not chapter 9's
        assertTrue(x86.get(3).startsWith("x86, 2 maps, 2 reducers, 2 run(s)"), x86.toString());
        assertEquals("319.4 ± 3.44 / 115.4 ± 1.14", x86.get(1));
        assertEquals("2263.85 ± 9.95 / 4104.92 ± 19.5", x86.get(2));
        // 2^20 values here, 2^28 in the thesis: no ratio, and nothing called whole node on both sides
        assertEquals("no ratio: 2^20 values here, 2^28 in the thesis (a run of few values is mostly fixed cost)", x86.get(8));
        assertEquals("fpgamr's whole job here (declared: modelled) against the thesis's whole node (measured)", x86.get(9));
        List<String> arm = t.rows().stream().filter(r -> r.get(3).startsWith("arm (emulated)")).findFirst().orElseThrow();
        assertEquals("ARM Novena", arm.get(0));
        assertTrue(arm.get(4).endsWith("(emulated)") && arm.get(6).contains("(emulated; declared W") && arm.get(8).isEmpty()
            && arm.get(9).equals("no ratio: emulated (QEMU's time, the x86 host's declared energy)"), arm.toString());
        List<String> fpga = t.rows().stream().filter(r -> r.get(3).startsWith("fpga (simulated)")).findFirst().orElseThrow();
        assertEquals("ARM-FPGA (SoCFPGA)", fpga.get(0));
        assertTrue(fpga.get(8).isEmpty() && fpga.get(9).startsWith("no ratio: a simulated device"), fpga.toString());
        List<String> device = t.rows().stream().filter(r -> r.get(3).startsWith("ARM-FPGA device, MODELLED, DEVICE ONLY")).findFirst().orElseThrow();
        assertTrue(device.get(6).endsWith("(device only)") && device.get(8).endsWith("× [ARM-FPGA device only, model, 2^20, values per "
            + "device-joule, modelled ÷ ARM-FPGA, thesis, 2^28, patched Disco's TpW, whole node, measured]")
            && device.get(9).contains("not like for like"), device.toString());
    }

    @Test
    void theDeviceOnlyModelAndItsClock() throws Exception {
        String arm = section(report(), "## The ARM-FPGA device, MODELLED, DEVICE ONLY");
        // the design whose cycles were counted, and the routing of that design and of the default, each named
        assertTrue(arm.contains("Device cycles are exact: the simulated RTL of the embedded cluster's simulated design, vsim-p4 (4 pipelines) "
            + "counted them. The clock is the design clock, 85.0 MHz (the hardware report ../../hdl/build/report.json (design_clock_mhz)), "
            + "not a measured or routed one: ../../hdl/build/report.json has no configuration of the counted design (4 pipelines), so its "
            + "routing is not known here; ../../hdl/build/report.json says its default configuration (8 pipelines, 256-bit bus) was not "
            + "routed, so no place-and-route of it has reached this clock. The thesis's device ran one pipelined MD5 core at 50 MHz"), arm);
        assertTrue(arm.contains("energy = whole-board mean power × device time"), arm);
        assertTrue(arm.contains("| 0.0392 ± 0 (whole-board mean power × device time) |"), arm);
        assertTrue(arm.contains("**device alone**"), arm);
        assertTrue(arm.contains("ARM-FPGA device only (modelled)"), arm);
        assertTrue(arm.contains("thesis arm-fpga whole node (12.2, measured)"), arm);
    }

    @Test
    void withoutAHardwareReportTheReportSaysSo() throws Exception {
        String arm = section(render(RECORDED, null, 20), "## The ARM-FPGA device, MODELLED, DEVICE ONLY");
        assertTrue(arm.contains("../../hdl/build/report.json is absent (`make -C hdl report` writes it): whether any place-and-route reached "
            + "this clock is not known here"), arm);
    }

    @Test
    void sweepHeadingsSayWhatEachSweepProducesAndNoWorkItemIsNamed() throws Exception {
        String md = report();
        assertTrue(md.contains("\n## Sweep ch9: fpgamr on x86, 1 PpK with 2 maps, 2^18 PpK with 2 maps, 1 reducer(s), 1 node(s)\n"), md);
        assertTrue(md.contains("\n## Sweep ch11: fpgamr on x86, 2^18 PpK with 4 maps, 2 reducer(s), 1, 2, 3 and 4 node(s)\n"), md);
        assertTrue(md.contains("\n## Sweep framework: baseline and fpgamr on x86, 1 PpK with 2 maps, 2^18 PpK with 2 maps, 2 reducer(s), 1 node(s)\n"),
            md);
        String ch9 = section(md, "## Sweep ch9");
        assertTrue(ch9.contains("Set beside the thesis's x86 rows of its tables 9.1, 9.2, 10.1, 10.2 on stock Disco"), ch9);
        assertFalse(ch9.contains("9.3"), "ch9 runs no ARM node: it does not cite the ARM tables");
        assertTrue(section(md, "## Sweep ch12").contains("Set beside the thesis's x86 rows of its tables 12.1, 12.2 on its patched Disco"), md);
        assertFalse(md.contains("figures 12.4-12.13"), "the chapter-12 profiles are not produced");
        assertFalse(md.matches("(?s).*\\bissue \\d.*"), "an internal work item is named");
        assertFalse(md.matches("(?s).*\\bitem \\d.*"), "an internal work item is named");
    }
}
