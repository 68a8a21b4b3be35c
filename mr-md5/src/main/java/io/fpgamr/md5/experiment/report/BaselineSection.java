package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.fmt;
import static io.fpgamr.md5.experiment.report.Cells.label;
import static io.fpgamr.md5.experiment.report.Cells.mean;
import static io.fpgamr.md5.experiment.report.Cells.ppk;
import static io.fpgamr.md5.experiment.report.Cells.ratio;
import static io.fpgamr.md5.experiment.report.Cells.stat;

import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.ResultRow;
import java.util.List;

/** fpgamr against the same job written the plain Hadoop way. */
final class BaselineSection {
    private BaselineSection() {
    }

    static void render(ReportContext c) {
        List<Point> base = c.plan.points().stream().filter(p -> p.job().equals("baseline")).toList();
        if (base.isEmpty()) {
            return;
        }
        c.line("## fpgamr against the same search written the plain Hadoop way");
        c.line();
        c.line("The baseline job: one record per value, `MessageDigest` in the mapper, `Text` keys and values (`BaselineJob`). "
            + "Speed-up = baseline t_total / fpgamr t_total; TpW ratio = fpgamr TpW / baseline TpW (same energy basis for both).");
        c.line();
        c.line("| node type | PpK | maps | reducers | nodes | baseline t_total [s] | fpgamr t_total [s] | speed-up | baseline TpW | fpgamr TpW | TpW ratio |");
        c.line("|---|---|---|---|---|---|---|---|---|---|---|");
        for (Point b : base) {
            Point f = new Point("fpgamr", b.nodeType(), b.bits(), b.ppk(), b.maps(), b.reducers(), b.nodes());
            List<ResultRow> rb = c.runs(b.id());
            List<ResultRow> rf = c.runs(f.id());
            c.line("| " + b.nodeType() + label(rb) + " | " + ppk(b.ppk()) + " | " + b.maps() + " | " + b.reducers() + " | " + b.nodes() + " | "
                + fmt(stat(rb, ResultRow::totalS)) + " | " + fmt(stat(rf, ResultRow::totalS)) + " | "
                + ratio(mean(rb, ResultRow::totalS), mean(rf, ResultRow::totalS)) + " | " + fmt(stat(rb, ResultRow::tpw)) + " | "
                + fmt(stat(rf, ResultRow::tpw)) + " | " + ratio(mean(rf, ResultRow::tpw), mean(rb, ResultRow::tpw)) + " |");
        }
        c.line();
    }
}
