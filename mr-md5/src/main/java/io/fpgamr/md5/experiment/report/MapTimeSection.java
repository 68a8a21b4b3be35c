package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.label;
import static io.fpgamr.md5.experiment.report.Cells.nz;

import io.fpgamr.energy.report.StudyCharts;
import io.fpgamr.md5.experiment.ResultRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The thesis's chapter 12: where the maps' time goes, per node type, as a table and a stacked chart. */
final class MapTimeSection {
    private MapTimeSection() {
    }

    static void render(ReportContext c) throws IOException {
        Map<String, double[]> byType = new LinkedHashMap<>();
        Map<String, Integer> runsByType = new LinkedHashMap<>();
        for (List<ResultRow> rs : c.ok.values()) {
            for (ResultRow r : rs) {
                if (!r.job().equals("fpgamr") || r.mapTasksS() == null || r.engineS() == null) {
                    continue;
                }
                String type = r.nodeType() + label(List.of(r));
                double[] a = byType.computeIfAbsent(type, k -> new double[9]);
                a[0] += r.mapTasksS() + nz(r.sortS());
                a[1] += r.startupS();
                a[2] += r.engineS();
                a[3] += nz(r.fpgaDeviceS());
                a[4] += nz(r.fpgaHostS());
                a[5] += r.readS();
                a[6] += r.writeS();
                a[7] += nz(r.spillS()) + nz(r.sortS());
                a[8] += r.engineCpuS() == null ? 0 : r.engineCpuS();
                runsByType.merge(type, 1, Integer::sum);
            }
        }
        if (byType.isEmpty()) {
            return;
        }
        c.line("## Where the maps' time goes (thesis chapter 12)");
        c.line();
        c.line("Per job (mean over its runs), summed over its maps, wall seconds: a map's whole time (its JVM's start to the end of its "
            + "output), of which the task's start (its JVM's start to its setup: the container's launch), the engine's calls (the CPU kernels; on an FPGA the driver's calls, "
            + "device time inside), reading records (between batches), writing output, spilling and writing the map output "
            + "(sort/merge), and the rest. FPGA device time is modelled (cycles at the clock), driver host time measured. A simulated "
            + "node's engine is a CPU running the RTL; an emulated node's every time is an armhf JVM's under QEMU.");
        c.line();
        c.line("| node type | runs | map time | start | engine | engine CPU | FPGA device (modelled) | FPGA driver host | read | write | spill/sort "
            + "| rest | not engine |");
        c.line("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Map.Entry<String, double[]> e : byType.entrySet()) {
            double n = runsByType.get(e.getKey());
            double[] a = e.getValue();
            double rest = a[0] - a[1] - a[2] - a[5] - a[6] - a[7];
            c.line(String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %.2f | %s | %s | %.2f | %.2f | %.2f | %.2f | %.1f%% |", e.getKey(),
                (int) n, a[0] / n, a[1] / n, a[2] / n, a[8] / n, a[3] > 0 ? String.format(Locale.ROOT, "%.4f", a[3] / n) : "",
                a[4] > 0 ? String.format(Locale.ROOT, "%.3f", a[4] / n) : "", a[5] / n, a[6] / n, a[7] / n, rest / n,
                a[0] > 0 ? 100 * (1 - a[2] / a[0]) : 0.0));
        }
        c.line();
        // the same as a chart: each node type's map time by where it went, stacked
        List<String> cats = new ArrayList<>(byType.keySet()); // with their labels: an emulated or simulated node's bar says so
        Map<String, List<Double>> series = new LinkedHashMap<>();
        String[] parts = {"task start", "engine (wall)", "reading records", "writing output", "spill/sort", "rest"};
        for (String part : parts) {
            series.put(part, new ArrayList<>());
        }
        for (Map.Entry<String, double[]> e : byType.entrySet()) {
            double n = runsByType.get(e.getKey());
            double[] a = e.getValue();
            double[] v = {a[1], a[2], a[5], a[6], a[7], a[0] - a[1] - a[2] - a[5] - a[6] - a[7]};
            for (int i = 0; i < parts.length; i++) {
                series.get(parts[i]).add(v[i] / n);
            }
        }
        String name = "where-time-goes";
        StudyCharts.write(StudyCharts.bars("Where the maps' time goes, per job (measured; a simulated FPGA's engine time is the simulation's, an emulated node's "
            + "times QEMU's)",
            "node type", "map time, summed over maps [s]", cats, series, true), c.figure(name));
        c.image("Where the maps' time goes", name);
    }
}
