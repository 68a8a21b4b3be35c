package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.fmt;
import static io.fpgamr.md5.experiment.report.Cells.stat;

import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.ResultRow;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How each point's work fell on its nodes: the job's design (its maps claimed units sized by their
 * speed while they ran, or equal static splits), the straggler (the last node's last map end minus
 * the earliest node's) against the map stage, and each node type's engines' share of the values.
 */
final class BalanceSection {
    private BalanceSection() {
    }

    static void render(ReportContext c) {
        List<Point> points = c.plan.points().stream().filter(p -> c.runs(p.id()).stream().anyMatch(r -> r.balance() != null)).toList();
        if (points.isEmpty()) {
            return;
        }
        c.line("## How the work fell on the nodes");
        c.line();
        c.line("Per point (mean ± sd over its runs): the straggler, the last node's last map end minus the earliest node's (measured: "
            + "the tasks' own clocks), beside the map stage; and the share of the values each node type's engines hashed (as the "
            + "engines counted them, mean over the runs). \"stream\": the maps claimed work units sized by their speed while they ran; "
            + "\"static\": equal splits. A simulated FPGA's share is the simulation's, an emulated node's times QEMU's (each point says so).");
        c.line();
        c.line("| point | balance | runs | straggler [s] | t_map [s] | straggler / t_map | values by node type and engine |");
        c.line("|---|---|---|---|---|---|---|");
        for (Point p : points) {
            List<ResultRow> rs = c.runs(p.id()).stream().filter(r -> r.balance() != null).toList();
            double straggler = stat(rs, ResultRow::stragglerS).mean();
            double map = stat(rs, ResultRow::mapS).mean();
            // the label: an emulated node's straggler and shares are QEMU's, a simulated FPGA's the simulation's
            c.line("| " + p.id() + Cells.label(rs) + " | " + rs.get(0).balance() + " | " + rs.size() + " | " + fmt(stat(rs, ResultRow::stragglerS)) + " | "
                + fmt(stat(rs, ResultRow::mapS)) + " | " + (map > 0 ? String.format(Locale.ROOT, "%.1f%%", 100 * straggler / map) : "") + " | "
                + shares(rs) + " |");
        }
        c.line();
    }

    /** {@code x86/cpu 71.2%, fpga/fpga-simulated 0.4%}: each engine's share of the values, mean over the runs. */
    private static String shares(List<ResultRow> rs) {
        Map<String, Double> sum = new TreeMap<>();
        double total = 0;
        for (ResultRow r : rs) {
            if (r.valuesByEngine() == null || r.valuesByEngine().isBlank()) {
                continue;
            }
            for (String part : r.valuesByEngine().split(";")) {
                String[] kv = part.split("=", 2);
                double v = Double.parseDouble(kv[1]);
                sum.merge(kv[0], v, Double::sum);
                total += v;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Double> e : sum.entrySet()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
                .append(String.format(Locale.ROOT, "%.2f%%", total > 0 ? 100 * e.getValue() / total : 0));
        }
        return sb.toString();
    }
}
