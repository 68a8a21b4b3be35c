package io.fpgamr.md5.experiment.report;

import io.fpgamr.md5.experiment.ResultRow;

/** Every failed run, with its error. */
final class FailuresSection {
    private FailuresSection() {
    }

    static void render(ReportContext c) {
        c.line("## Failed runs");
        c.line();
        if (c.failed.isEmpty()) {
            c.line("None.");
            c.line();
            return;
        }
        c.line("| point | run | error |");
        c.line("|---|---|---|");
        for (ResultRow r : c.failed) {
            c.line("| " + r.point() + " | " + r.run() + " | " + (r.error() == null ? "" : r.error().replace("|", "\\|")) + " |");
        }
        c.line();
    }
}
