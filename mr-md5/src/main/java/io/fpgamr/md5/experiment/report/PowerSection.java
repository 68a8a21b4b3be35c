package io.fpgamr.md5.experiment.report;

import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.ResultRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Power over time: energy's chart of each point's first run, where a power source read it. A
 * declared wattage gets no chart (it would be a flat line at the number the plan stated), and the
 * heading cites only the thesis's figures that the charts drawn stand for.
 */
final class PowerSection {
    private PowerSection() {
    }

    static void render(ReportContext c) {
        List<String> lines = new ArrayList<>();
        Set<String> figures = new LinkedHashSet<>();
        int declared = 0;
        for (Plan.Sweep s : c.plan.sweeps()) {
            for (Point p : c.plan.points(s)) {
                List<ResultRow> rs = c.runs(p.id());
                if (rs.isEmpty() || rs.get(0).energyDir() == null) {
                    continue;
                }
                if (Cells.declared(rs)) {
                    declared++;
                    continue;
                }
                ResultRow first = rs.get(0);
                Path png = c.dir.resolve(first.energyDir()).resolve("power.png");
                String figure = thesisFigure(s, p);
                String line = "![power over time, " + p.id() + Cells.label(rs) + " run " + first.run() + (figure == null ? "" : ", the thesis's figure " + figure)
                    + "](" + c.dir.relativize(png) + ")";
                if (Files.isRegularFile(png) && !lines.contains(line)) {
                    lines.add(line);
                    if (figure != null) {
                        figures.add(figure);
                    }
                }
            }
        }
        if (lines.isEmpty() && declared == 0) {
            return;
        }
        c.line("## Power over time with running maps, shuffles and reduces" + (figures.isEmpty() ? "" : " (thesis figures "
            + String.join(", ", figures) + ")"));
        c.line();
        if (lines.isEmpty()) {
            c.line("No chart: every run's power is declared (a wattage the plan states, no meter), and a declared source's power over "
                + "time is the one number it states.");
            c.line();
            return;
        }
        c.line("One chart per point (its first run) whose power a source measured, drawn by energy's report"
            + (declared > 0 ? "; none for the " + declared + " point(s) of declared power" : "") + ".");
        c.line();
        for (String l : lines) {
            c.line(l);
            c.line();
        }
    }

    /**
     * The thesis's power-over-time figure that a point of a sweep stands for, by the sweep's chapter
     * (its first table's): 9.1-9.5 (one node: x86, Novena, ARM-FPGA), 10.1-10.4 (the reducer sweeps of
     * the x86 and the Novena), 11.1-11.3 (2, 3 and 4 nodes), 12.13 (the ARM-FPGA on patched Disco); null
     * for none.
     */
    static String thesisFigure(Plan.Sweep s, Point p) {
        String chapter = s.tables() == null || s.tables().isEmpty() ? "" : s.tables().get(0).replaceAll("\\..*", "");
        boolean wide = p.ppk() != 1;
        String node = p.nodeType();
        return switch (chapter) {
            case "9" -> switch (node) {
                case "x86" -> wide ? "9.2" : "9.1";
                case "arm" -> wide ? "9.4" : "9.3";
                case "arm-fpga" -> wide ? "9.5" : null;
                default -> null;
            };
            case "10" -> switch (node) {
                case "x86" -> wide ? "10.2" : "10.1";
                case "arm" -> wide ? "10.4" : "10.3";
                default -> null;
            };
            case "11" -> p.nodes() >= 2 && p.nodes() <= 4 ? "11." + (p.nodes() - 1) : null;
            case "12" -> wide && (node.equals("arm-fpga") || node.equals("fpga")) ? "12.13" : null;
            default -> null;
        };
    }
}
