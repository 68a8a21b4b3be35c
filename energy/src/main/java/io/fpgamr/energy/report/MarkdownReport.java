package io.fpgamr.energy.report;

import io.fpgamr.energy.JobEnergy;
import io.fpgamr.energy.NodeEnergy;
import io.fpgamr.energy.Repetitions;
import io.fpgamr.energy.StageEnergy;
import io.fpgamr.energy.Stats;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Markdown report of a job, or of repeated runs of one, with the thesis's tables. */
public final class MarkdownReport {
    private MarkdownReport() {
    }

    public static String job(JobEnergy e, String pngName) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Energy of job ").append(e.job().jobId()).append("\n\n");
        sb.append("- status: **").append(e.status()).append("**");
        if (e.unavailable() != null && !e.unavailable().equals(e.status())) {
            sb.append(" (").append(e.unavailable()).append(")");
        }
        sb.append('\n');
        sb.append("- window: ").append(Instant.ofEpochMilli(e.job().submitMs())).append(" to ")
            .append(Instant.ofEpochMilli(e.job().doneMs())).append(", ").append(f3(e.seconds())).append(" s\n");
        sb.append("- power sampled every ").append(e.periodMs()).append(" ms\n");
        String tag = e.modelled().isEmpty() ? "" : " (modelled)";
        if (!tag.isEmpty()) {
            sb.append("- **modelled, not measured**: ").append(String.join("; ", e.modelled())).append('\n');
        }
        if (e.status().equals(JobEnergy.NO_SOURCE)) {
            sb.append("\nNo node of this job has a power source: the report gives times only.\n");
        } else if (e.status().contains("declared")) {
            sb.append("\nFigures from a declared wattage are the user's declaration, not a measurement.\n");
        }

        sb.append("\n## Job\n\n| figure | value |\n|---|---:|\n");
        row(sb, "time [s]", f3(e.seconds()));
        row(sb, "values hashed", Long.toString(e.job().valuesHashed()));
        row(sb, "energy [J]" + tag, opt(e.energyJ(), 3));
        if (e.energyJ() == null && e.measuredEnergyJ() != null) {
            row(sb, "measured part of the energy [J]", opt(e.measuredEnergyJ(), 3));
        }
        row(sb, "mean power [W]" + tag, opt(e.meanW(), 3));
        row(sb, "TpW [values/J]" + tag, opt(e.tpw(), 2));
        row(sb, "ED²P [J·s²]" + tag, e.ed2p() == null ? "not measured" : String.format(Locale.ROOT, "%.6g", e.ed2p()));

        sb.append("\n## Stages\n\n| stage | time [s] | energy [J]").append(tag).append(" | mean power [W]").append(tag)
            .append(" |\n|---|---:|---:|---:|\n");
        for (StageEnergy s : e.stages()) {
            sb.append("| ").append(s.stage()).append(" | ").append(f3(s.seconds())).append(" | ").append(opt(s.energyJ(), 3))
                .append(" | ").append(opt(s.meanW(), 3)).append(" |\n");
        }

        sb.append("\n## Nodes\n\n| node | type | source | domains | energy [J] | mean power [W] | measured share |\n")
            .append("|---|---|---|---|---:|---:|---:|\n");
        for (NodeEnergy n : e.nodes()) {
            String src = !n.hasSource() ? JobEnergy.NO_SOURCE : n.source() + (n.measured() ? "" : " (declared, not measured)");
            sb.append("| ").append(n.node()).append(" | ").append(n.nodeType()).append(" | ").append(src).append(" | ")
                .append(String.join(", ", n.domains())).append(" | ").append(opt(n.energyJ(), 3)).append(" | ")
                .append(opt(n.meanW(), 3)).append(" | ").append(n.hasSource() ? String.format(Locale.ROOT, "%.1f%%", 100 * n.coverage()) : "0%")
                .append(" |\n");
        }
        boolean other = e.nodes().stream().anyMatch(n -> !n.otherSources().isEmpty());
        if (other) {
            sb.append("\nOther sources on the nodes (not added to the totals): ");
            StringBuilder o = new StringBuilder();
            for (NodeEnergy n : e.nodes()) {
                for (Map.Entry<String, Double> s : n.otherSources().entrySet()) {
                    if (o.length() > 0) {
                        o.append("; ");
                    }
                    o.append(n.node()).append(' ').append(s.getKey()).append(' ').append(f3(s.getValue())).append(" J");
                }
            }
            sb.append(o).append(".\n");
        }

        boolean gaps = e.nodes().stream().anyMatch(n -> !n.gaps().isEmpty());
        if (gaps) {
            sb.append("\n## Gaps\n\nTimes with no measurement; they are not filled in.\n\n| node | source | from [s] | to [s] | reason |\n|---|---|---:|---:|---|\n");
            for (NodeEnergy n : e.nodes()) {
                for (NodeEnergy.Gap g : n.gaps()) {
                    sb.append("| ").append(n.node()).append(" | ").append(g.source()).append(" | ")
                        .append(f3((g.fromMs() - e.job().submitMs()) / 1000.0)).append(" | ")
                        .append(f3((g.toMs() - e.job().submitMs()) / 1000.0)).append(" | ").append(g.reason().replace("|", "/")).append(" |\n");
                }
            }
        }
        if (pngName != null) {
            sb.append("\n## Power over time\n\n![power per node and running tasks per second](").append(pngName).append(")\n");
        }
        return sb.toString();
    }

    /** The thesis's two tables (timing, then TpW) over repeated runs, as mean ± sd. */
    public static String repetitions(Repetitions r) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Energy over ").append(r.runs().size()).append(" runs\n\n");
        sb.append("Each value is the mean ± the sample standard deviation over the runs.\n\n");
        sb.append("## Timing\n\n| t_map [s] | t_shuffle [s] | t_reduce [s] | t_total [s] |\n|---:|---:|---:|---:|\n| ");
        sb.append(cell(r.stat("map_s"), 2)).append(" | ").append(cell(r.stat("shuffle_s"), 2)).append(" | ")
            .append(cell(r.stat("reduce_s"), 2)).append(" | ").append(cell(r.stat("total_s"), 2)).append(" |\n");
        String tag = r.basis().equals("modelled") ? " (modelled)" : "";
        sb.append("\n## Energy").append(tag).append("\n\n| energy [J] | mean power [W] | TpW [values/J] | ED²P [J·s²] |\n|---:|---:|---:|---:|\n| ");
        sb.append(cell(r.stat("energy_j"), 3)).append(" | ").append(cell(r.stat("mean_w"), 3)).append(" | ")
            .append(cell(r.stat("tpw"), 2)).append(" | ").append(cell(r.stat("ed2p_js2"), 1)).append(" |\n");
        if (r.stat("tpw") == null && !r.runs().isEmpty()) {
            sb.append("\nTpW is missing: not every run was measured throughout (see each run's report).\n");
        }
        if (!tag.isEmpty()) {
            sb.append("\nThe energy figures are modelled, not measured: see each run's report.\n");
        }
        sb.append("\n## Runs\n\n| run | job | status | basis | t_total [s] | energy [J] | TpW [values/J] |\n|---:|---|---|---|---:|---:|---:|\n");
        List<JobEnergy> runs = r.runs();
        for (int i = 0; i < runs.size(); i++) {
            JobEnergy e = runs.get(i);
            sb.append("| ").append(i + 1).append(" | ").append(e.job().jobId()).append(" | ").append(e.status()).append(" | ")
                .append(e.basis()).append(" | ")
                .append(f3(e.seconds())).append(" | ").append(opt(e.energyJ(), 3)).append(" | ").append(opt(e.tpw(), 2)).append(" |\n");
        }
        return sb.toString();
    }

    private static String cell(Stats s, int decimals) {
        return s == null ? "not measured" : s.format(decimals);
    }

    private static void row(StringBuilder sb, String k, String v) {
        sb.append("| ").append(k).append(" | ").append(v).append(" |\n");
    }

    static String f3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String opt(Double v, int decimals) {
        return v == null ? "not measured" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
