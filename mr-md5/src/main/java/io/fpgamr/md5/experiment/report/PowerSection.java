package io.fpgamr.md5.experiment.report;

import io.fpgamr.md5.experiment.ResultRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Power over time: energy's chart of each point's first run. */
final class PowerSection {
    private PowerSection() {
    }

    static void render(ReportContext c) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, List<ResultRow>> e : c.ok.entrySet()) {
            ResultRow first = e.getValue().get(0);
            if (first.energyDir() == null) {
                continue;
            }
            Path png = c.dir.resolve(first.energyDir()).resolve("power.png");
            if (Files.isRegularFile(png)) {
                lines.add("![power over time, " + e.getKey() + " run " + first.run() + "](" + c.dir.relativize(png) + ")");
            }
        }
        if (lines.isEmpty()) {
            return;
        }
        c.line("## Power over time with running maps, shuffles and reduces (thesis figures 9.1-9.5, 10.1-10.4, 11.1-11.3, 12.13)");
        c.line();
        c.line("One chart per point (its first run), drawn by energy's report: the power line is labelled declared where it was not measured.");
        c.line();
        for (String l : lines) {
            c.line(l);
            c.line();
        }
    }
}
