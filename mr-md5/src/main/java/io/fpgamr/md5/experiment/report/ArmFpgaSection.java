package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.basisWord;
import static io.fpgamr.md5.experiment.report.Cells.fmt;
import static io.fpgamr.md5.experiment.report.Cells.ratio;
import static io.fpgamr.md5.experiment.report.Cells.stat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.energy.Mappers;
import io.fpgamr.energy.Stats;
import io.fpgamr.energy.report.StudyCharts;
import io.fpgamr.md5.experiment.ModelRow;
import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Published;
import io.fpgamr.md5.experiment.ResultRow;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The modelled ARM-FPGA node: the simulated device's exact cycles at the design clock and a declared board power. */
final class ArmFpgaSection {
    private ArmFpgaSection() {
    }

    static void render(ReportContext c) throws IOException {
        Plan.ArmFpga m = c.plan.armFpga();
        List<ResultRow> sim = c.ok.values().stream().flatMap(List::stream)
            .filter(r -> r.job().equals("fpgamr") && r.nodeType().equals("fpga") && r.fpgaDeviceCycles() != null).toList();
        if (m == null || sim.isEmpty()) {
            return;
        }
        double mhz = m.clockMhz();
        String clockSource = m.clockSource();
        double watts = m.boardWatts();
        String wattsSource = m.boardWattsSource();
        if (m.report() != null) {
            Path rep = c.planFolder.resolve(m.report());
            if (Files.isRegularFile(rep)) {
                JsonNode j = Mappers.JSON.readTree(rep.toFile());
                if (j.hasNonNull("design_clock_mhz")) {
                    mhz = j.get("design_clock_mhz").asDouble();
                    clockSource = "the hardware report " + m.report() + " (design_clock_mhz)";
                }
                if (j.hasNonNull("board_power_w_modelled")) {
                    watts = j.get("board_power_w_modelled").asDouble();
                    wattsSource = j.path("board_power_source").asText(wattsSource) + " (from " + m.report() + ")";
                }
            } else {
                clockSource += " (" + m.report() + " not built: `make -C hdl report`)";
            }
        }
        c.line("## The ARM-FPGA node, MODELLED (thesis 9.1.3, 12.1, 12.2)");
        c.line();
        c.line(String.format(Locale.ROOT, "Not measured: no board here. Device cycles are exact (the simulated RTL counted them), the clock is "
            + "%.1f MHz (%s), the board's power %.3f W is **declared** (%s). Device time = cycles / clock; energy = power × device time; "
            + "TpW = values hashed / energy. This is the device alone, an upper bound: the framework's time on the board's ARM cores is "
            + "not modelled.", mhz, clockSource, watts, wattsSource));
        c.line();
        c.line("| point | runs | device cycles | device time [s] (modelled) | energy [J] (modelled) | TpW (modelled) | thesis TpW ARM-FPGA, patched "
            + "(12.2) | ratio | thesis TpW ARM-FPGA, Disco (9.1.3) |");
        c.line("|---|---|---|---|---|---|---|---|---|");
        Published.Entry patched = c.published.find("arm-fpga", "patched", 262144, 32, 1, false).orElse(null);
        Published.Entry disco = c.published.find("arm-fpga", "disco", 262144, 4, 1, false).orElse(null);
        List<Double> pointTpw = new ArrayList<>(); // the mean modelled TpW of each point
        List<ModelRow> model = new ArrayList<>();
        for (Map.Entry<String, List<ResultRow>> e : c.ok.entrySet()) {
            List<ResultRow> rs = e.getValue().stream().filter(sim::contains).toList();
            if (rs.isEmpty()) {
                continue;
            }
            List<ModelRow> ms = new ArrayList<>();
            for (ResultRow r : rs) {
                ms.add(ModelRow.of(r, mhz, clockSource, watts, wattsSource));
            }
            model.addAll(ms);
            Stats tpw = Stats.of(ms.stream().map(ModelRow::tpw).toList());
            pointTpw.add(tpw.mean());
            c.line(String.format(Locale.ROOT, "| %s | %d | %.0f | %s | %s | %s | %s | %s | %s |", e.getKey(), rs.size(),
                ms.stream().mapToLong(ModelRow::deviceCycles).average().orElse(0), fmt(Stats.of(ms.stream().map(ModelRow::deviceS).toList()), 6),
                fmt(Stats.of(ms.stream().map(ModelRow::energyJ).toList()), 4), fmt(tpw), patched == null ? "" : Published.Entry.format(patched.tpw()),
                ratio(tpw.mean(), patched == null ? null : Published.Entry.mean(patched.tpw())),
                disco == null ? "" : Published.Entry.format(disco.tpw())));
        }
        c.line();
        StringWriter csv = new StringWriter();
        ModelRow.CSV.write(csv, model);
        AtomicFiles.writeString(c.dir.resolve(ModelRow.FILE), csv.toString());
        c.line("Each run's model, with its sources: [" + ModelRow.FILE + "](" + ModelRow.FILE + ").");
        c.line();
        tpwPerNodeType(c, pointTpw);
    }

    /** TpW per node type: the model, the nodes present, and the thesis's measured nodes. */
    private static void tpwPerNodeType(ReportContext c, List<Double> pointTpw) throws IOException {
        List<String> cats = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (String type : Plan.NODE_TYPES) {
            List<ResultRow> rs = c.ok.values().stream().flatMap(List::stream)
                .filter(r -> r.job().equals("fpgamr") && r.nodeType().equals(type) && r.tpw() != null).toList();
            if (!rs.isEmpty()) {
                cats.add(type + " here (" + basisWord(rs) + ")");
                values.add(stat(rs, ResultRow::tpw).mean());
            }
        }
        if (!pointTpw.isEmpty()) {
            cats.add("ARM-FPGA device (modelled)");
            values.add(pointTpw.stream().mapToDouble(Double::doubleValue).average().getAsDouble());
        }
        for (String node : List.of("x86", "arm", "arm-fpga")) {
            c.published.find(node, "patched", 262144, 32, 1, false).ifPresent(e -> {
                cats.add("thesis " + node + " (12.2, measured)");
                values.add(Published.Entry.mean(e.tpw()));
            });
        }
        // a logarithmic axis: the device alone is orders of magnitude above whole nodes
        for (int i = values.size() - 1; i >= 0; i--) {
            if (values.get(i) == null || !(values.get(i) > 0)) {
                values.remove(i);
                cats.remove(i);
            }
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("TpW [1/J]", values);
        String name = "tpw-node-types";
        var chart = StudyCharts.bars("TpW per node type (labels say measured, declared or modelled)", "node type", "TpW [1/J], log scale",
            cats, series, false);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(1.0);
        chart.getStyler().setXAxisLabelRotation(15);
        StudyCharts.write(chart, c.figure(name));
        c.image("TpW per node type", name);
        c.line("| node type | TpW [1/J] (mean over its runs) |");
        c.line("|---|---|");
        for (int i = 0; i < cats.size(); i++) {
            c.line(String.format(Locale.ROOT, "| %s | %.2f |", cats.get(i), values.get(i)));
        }
        c.line();
    }
}
