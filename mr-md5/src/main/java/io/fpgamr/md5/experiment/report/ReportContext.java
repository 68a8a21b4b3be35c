package io.fpgamr.md5.experiment.report;

import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Published;
import io.fpgamr.md5.experiment.ResultRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every part of the report reads (the plan, the thesis's values, the runs done per point and
 * the failed ones, where the report goes) and the one Markdown text they all write into.
 */
final class ReportContext {
    static final String FIGURES = "figures";

    final Plan plan;
    final Published published;
    final Path planFolder;
    final Path dir;
    /** The runs done, per point id, in the order the results list them. */
    final Map<String, List<ResultRow>> ok = new LinkedHashMap<>();
    final List<ResultRow> failed = new ArrayList<>();
    /** The modelled Cortex-A9 board's search rate, values/s (kernel only), once {@link ArmSection} has counted it; else null. */
    Double armModelledRate;
    /** The modelled ARM-FPGA device's TpW (device only), the mean over its points, once {@link ArmFpgaSection} has modelled it; else null. */
    Double armFpgaModelledTpw;
    private final StringBuilder md = new StringBuilder();

    ReportContext(Plan plan, Published published, Path planFolder, List<ResultRow> rows, Path dir) {
        this.plan = plan;
        this.published = published;
        this.planFolder = planFolder;
        this.dir = dir;
        for (ResultRow r : rows) {
            if (r.ok()) {
                ok.computeIfAbsent(r.point(), k -> new ArrayList<>()).add(r);
            } else {
                failed.add(r);
            }
        }
    }

    /** The runs done of a point (none: an empty list). */
    List<ResultRow> runs(String pointId) {
        return ok.getOrDefault(pointId, List.of());
    }

    Path figure(String name) {
        return dir.resolve(FIGURES).resolve(name);
    }

    void image(String alt, String name) {
        line("![" + alt + "](" + FIGURES + "/" + name + ".png) ([SVG](" + FIGURES + "/" + name + ".svg))");
        line();
    }

    void line(String s) {
        md.append(s).append('\n');
    }

    void line() {
        md.append('\n');
    }

    String markdown() {
        return md.toString();
    }
}
