package io.fpgamr.md5.experiment.report;

import io.fpgamr.energy.Stats;
import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.ResultRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** How the report's table cells read: statistics over runs, ratios, labels of a figure's basis. */
final class Cells {
    private Cells() {
    }

    static String runsCell(ReportContext c, Point p) {
        long bad = c.failed.stream().filter(r -> r.point().equals(p.id())).count();
        int good = c.runs(p.id()).size();
        return good + (bad > 0 ? " (+" + bad + " failed)" : "");
    }

    static String hashedCell(List<ResultRow> rs) {
        if (rs.isEmpty()) {
            return "";
        }
        long v = rs.get(0).valuesHashed();
        boolean same = rs.stream().allMatch(r -> r.valuesHashed() == v && r.valuesHashed().equals(r.valuesExpected()));
        return v + (same ? "" : " (NOT EXACT)");
    }

    /** What the runs' figures are besides measured: " (emulated)", " (simulated)", " (emulated, simulated)", or "". */
    static String label(List<ResultRow> rs) {
        List<String> words = new ArrayList<>();
        if (rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("emulated-arm"))) {
            words.add("emulated");
        }
        if (rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("simulated-fpga"))) {
            words.add("simulated");
        }
        return words.isEmpty() ? "" : " (" + String.join(", ", words) + ")";
    }

    static String basis(List<ResultRow> rs) {
        return rs.isEmpty() ? "" : basisWord(rs);
    }

    static String basisWord(List<ResultRow> rs) {
        List<String> words = new ArrayList<>();
        if (rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("declared-power"))) {
            words.add("declared");
        }
        if (rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("simulated-fpga"))) {
            words.add("simulated FPGA");
        }
        if (rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("no-power-source"))) {
            words.add("no power source");
        }
        if (words.isEmpty()) {
            words.add(rs.get(0).basis());
        }
        return String.join(", ", words) + ("modelled".equals(rs.get(0).basis()) ? ": modelled" : "");
    }

    static Stats stat(List<ResultRow> rs, Function<ResultRow, Double> f) {
        return Stats.of(rs.stream().map(f).filter(v -> v != null && !v.isNaN()).toList());
    }

    static Double mean(List<ResultRow> rs, Function<ResultRow, Double> f) {
        Stats s = stat(rs, f);
        return s.n() == 0 ? null : s.mean();
    }

    static String fmt(Stats s) {
        return fmt(s, 2);
    }

    static String fmt(Stats s, int decimals) {
        return s.n() == 0 ? "" : s.format(decimals);
    }

    static String fmtSci(Stats s) {
        if (s.n() == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%.3e ± %s", s.mean(), Double.isNaN(s.sd()) ? "n/a" : String.format(Locale.ROOT, "%.2e", s.sd()));
    }

    static String ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? "" : String.format(Locale.ROOT, "%.3f", a / b);
    }

    /**
     * A ratio with the basis of its two figures, so that no cell reads as measured when it is not:
     * {@code 1.234 [declared ÷ measured]}. Energy ratios carry it always; a declared or modelled
     * figure on either side makes the ratio as modelled as its weakest side.
     */
    static String ratio(Double a, Double b, String basisA, String basisB) {
        String r = ratio(a, b);
        return r.isEmpty() ? "" : r + " [" + basisA + " ÷ " + basisB + "]";
    }

    /** The energy basis of some runs in one word for a ratio cell: measured, declared, simulated FPGA (modelled), or none. */
    static String energyBasis(List<ResultRow> rs) {
        if (rs.isEmpty()) {
            return "";
        }
        if (rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("no-power-source"))) {
            return "no power source";
        }
        boolean declared = rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("declared-power"));
        boolean simulated = rs.stream().anyMatch(r -> r.flags() != null && r.flags().contains("simulated-fpga"));
        if (declared && simulated) {
            return "declared, simulated FPGA: modelled";
        }
        if (declared) {
            return "declared: modelled";
        }
        if (simulated) {
            return "simulated FPGA: modelled";
        }
        return "modelled".equals(rs.get(0).basis()) ? "modelled" : rs.get(0).basis();
    }

    static String ppk(int ppk) {
        return ppk == 262144 ? "2^18" : Integer.toString(ppk);
    }

    static double nz(Double d) {
        return d == null ? 0 : d;
    }
}
