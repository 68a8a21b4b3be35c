package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.basisWord;
import static io.fpgamr.md5.experiment.report.Cells.fmt;
import static io.fpgamr.md5.experiment.report.Cells.ratio;
import static io.fpgamr.md5.experiment.report.Cells.sig;
import static io.fpgamr.md5.experiment.report.Cells.stat;
import static io.fpgamr.md5.experiment.report.Cells.thesisSide;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.energy.Mappers;
import io.fpgamr.energy.Stats;
import io.fpgamr.energy.report.StudyCharts;
import io.fpgamr.md5.cluster.FpgaRequest;
import io.fpgamr.md5.experiment.Environment;
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

/**
 * The modelled ARM-FPGA node: the simulated device's exact cycles at the design clock and a declared
 * board power (the thesis's whole-board mean power). It names the design whose cycles were counted
 * (the embedded cluster's simulated model) and says what the hardware report knows of that design's
 * routing, and of the default configuration's where they differ.
 */
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
        Integer pipelines = countedPipelines(c);
        String counted = pipelines == null ? "the cluster's own design (its pipelines are not recorded in the results)"
            : "the embedded cluster's simulated design, " + FpgaRequest.EMBEDDED_DESIGN + " (" + pipelines + " pipelines)";
        String routing;
        if (m.report() == null) {
            routing = "the plan names no hardware report: what place-and-route says of this clock is not known here";
        } else {
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
                routing = routing(j, mhz, m.report(), pipelines);
            } else {
                routing = m.report() + " is absent (`make -C hdl report` writes it): whether any place-and-route reached this clock is not "
                    + "known here";
            }
        }
        c.line("## The ARM-FPGA device, MODELLED, DEVICE ONLY (thesis 9.1.3, 12.1, 12.2)");
        c.line();
        c.line(String.format(Locale.ROOT, "Not measured: no board here. Device cycles are exact: the simulated RTL of %s counted them. "
            + "The clock is the design clock, %.1f MHz (%s), not a measured or routed one: %s. The thesis's device ran one pipelined MD5 "
            + "core at 50 MHz (its section 7.1). The board's power, %s W, is **declared**: the thesis's whole-board mean power (%s), not "
            + "this design's. Device time = cycles / clock; energy = whole-board mean power × device time; TpW = values hashed / energy. "
            + "These figures are the **device alone**: no ARM cores, no framework, no memory or network, an upper bound. The thesis's TpW "
            + "beside them is **whole-node** (the board at its supply, Disco running): the ratio column divides one by the other only to "
            + "say how far apart they are, it is not a like-for-like comparison.", counted, mhz, clockSource, routing, sig(watts, 4),
            wattsSource));
        c.line();
        c.line("| point | runs | device cycles | device time [s] (modelled, device only) | energy [J] (modelled, device only: whole-board "
            + "mean power × device time) | TpW (modelled, device only) | thesis TpW ARM-FPGA whole node, patched (12.2, measured) | ratio "
            + "(not like for like) | thesis TpW ARM-FPGA whole node, Disco (9.1.3, measured) |");
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
                ms.stream().mapToLong(ModelRow::deviceCycles).average().orElse(0), fmt(Stats.of(ms.stream().map(ModelRow::deviceS).toList())),
                fmt(Stats.of(ms.stream().map(ModelRow::energyJ).toList())) + " (whole-board mean power × device time)", fmt(tpw),
                patched == null ? "" : Published.Entry.format(patched.tpw()), ratio(tpw.mean(), deviceSide(c),
                    patched == null ? null : Published.Entry.mean(patched.tpw()), thesisSide("arm-fpga", "patched Disco's TpW, whole node", true)),
                disco == null ? "" : Published.Entry.format(disco.tpw())));
        }
        c.line();
        StringWriter csv = new StringWriter();
        ModelRow.CSV.write(csv, model);
        AtomicFiles.writeString(c.dir.resolve(ModelRow.FILE), csv.toString());
        c.line("Each run's model, with its sources: [" + ModelRow.FILE + "](" + ModelRow.FILE + ").");
        c.line();
        c.armFpgaModelledTpw = pointTpw.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        tpwPerNodeType(c, pointTpw);
    }

    /** The device model's side of a ratio: its TpW is values per device-joule, a rate with no fixed cost. */
    static Cells.Side deviceSide(ReportContext c) {
        return new Cells.Side("ARM-FPGA device only", "model", "2^" + c.plan.bits(), "values per device-joule", "modelled", true);
    }

    /** The pipelines of the design whose cycles the runs counted: the embedded cluster's model; null for another cluster's. */
    private static Integer countedPipelines(ReportContext c) throws IOException {
        return Environment.read(c.dir).filter(e -> e.cluster().equals("embedded")).map(e -> FpgaRequest.embeddedDesignPipelines()).orElse(null);
    }

    /**
     * What the hardware report says of the counted design's place-and-route ({@code pipelines}; null:
     * not known) against the design clock, and of the default configuration's where that is another.
     */
    static String routing(JsonNode report, double mhz, String name, Integer pipelines) {
        String def = report.path("default").asText("");
        JsonNode defCfg = null;
        JsonNode countedCfg = null;
        for (JsonNode cfg : report.path("configurations")) {
            if ((cfg.path("pipelines").asInt() + "-" + cfg.path("data_w").asInt()).equals(def)) {
                defCfg = cfg;
            }
            if (pipelines != null && cfg.path("pipelines").asInt() == pipelines && countedCfg == null) {
                countedCfg = cfg;
            }
        }
        String counted = pipelines == null ? "" : countedCfg == null
            ? name + " has no configuration of the counted design (" + pipelines + " pipelines), so its routing is not known here; "
            : countedCfg == defCfg ? "" : name + " says the counted design's configuration " + routed(countedCfg, mhz) + "; ";
        if (defCfg == null) {
            return counted + name + " has no entry for its default configuration (" + (def.isEmpty() ? "none named" : def)
                + "): its routing is not known here";
        }
        return counted + name + " says its default configuration " + routed(defCfg, mhz);
    }

    /** "(8 pipelines, 256-bit bus) was not routed, ..." or "... was routed on a proxy part ... at Fmax ...". */
    private static String routed(JsonNode cfg, double mhz) {
        String which = String.format(Locale.ROOT, "(%d pipelines, %d-bit bus) ", cfg.path("pipelines").asInt(), cfg.path("data_w").asInt());
        if (!cfg.hasNonNull("fmax_mhz")) {
            return which + "was not routed, so no place-and-route of it has reached this clock";
        }
        double fmax = cfg.get("fmax_mhz").asDouble();
        return which + String.format(Locale.ROOT, "was routed on a proxy part (%s) at Fmax %.2f MHz: the design clock is %s",
            cfg.path("timing_part").asText("?"), fmax, fmax >= mhz ? "met there" : "NOT met there");
    }

    /** TpW per node type: the model, the nodes present, and the thesis's measured nodes. */
    private static void tpwPerNodeType(ReportContext c, List<Double> pointTpw) throws IOException {
        List<String> cats = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (String type : Plan.NODE_TYPES) {
            List<ResultRow> rs = c.ok.values().stream().flatMap(List::stream)
                .filter(r -> r.job().equals("fpgamr") && r.nodeType().equals(type) && r.tpw() != null).toList();
            if (!rs.isEmpty()) {
                cats.add(type + " here, whole job (" + basisWord(rs) + ")");
                values.add(stat(rs, ResultRow::tpw).mean());
            }
        }
        if (!pointTpw.isEmpty()) {
            cats.add("ARM-FPGA device only (modelled)");
            values.add(pointTpw.stream().mapToDouble(Double::doubleValue).average().getAsDouble());
        }
        for (String node : List.of("x86", "arm", "arm-fpga")) {
            c.published.find(node, "patched", 262144, 32, 1, false).ifPresent(e -> {
                cats.add("thesis " + node + " whole node (12.2, measured)");
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
        var chart = StudyCharts.bars("TpW per node type (labels say measured, declared, modelled, emulated or simulated, device only or whole node)", "node type",
            "TpW [1/J], log scale",
            cats, series, false);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(1.0);
        chart.getStyler().setXAxisLabelRotation(15);
        StudyCharts.write(chart, c.figure(name));
        c.image("TpW per node type", name);
        c.line("| node type | TpW [1/J] (mean over its runs) |");
        c.line("|---|---|");
        for (int i = 0; i < cats.size(); i++) {
            c.line("| " + cats.get(i) + " | " + sig(values.get(i), 3) + " |");
        }
        c.line();
    }
}
