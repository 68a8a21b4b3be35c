package io.fpgamr.md5.experiment.report;

import io.fpgamr.energy.Stats;
import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.ResultRow;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
        List<String> words = labelWords(rs);
        return words.isEmpty() ? "" : " (" + String.join(", ", words) + ")";
    }

    private static List<String> labelWords(List<ResultRow> rs) {
        List<String> words = new ArrayList<>();
        if (has(rs, "emulated-arm")) {
            words.add("emulated");
        }
        if (has(rs, "simulated-fpga")) {
            words.add("simulated");
        }
        return words;
    }

    static boolean has(List<ResultRow> rs, String flag) {
        return rs.stream().anyMatch(r -> r.flags() != null && List.of(r.flags().split(";")).contains(flag));
    }

    static boolean declared(List<ResultRow> rs) {
        return has(rs, "declared-power");
    }

    /**
     * The basis of some runs' energy figures, for a basis column or a chart's category: "emulated,
     * declared: modelled", "simulated FPGA, declared: modelled", "measured", "no power source"; ""
     * for no runs. Emulated first: an emulated run's every figure is the emulation's.
     */
    static String basisWord(List<ResultRow> rs) {
        if (rs.isEmpty()) {
            return "";
        }
        List<String> words = new ArrayList<>();
        if (has(rs, "emulated-arm")) {
            words.add("emulated");
        }
        if (has(rs, "simulated-fpga")) {
            words.add("simulated FPGA");
        }
        if (has(rs, "no-power-source")) {
            words.add("no power source");
        } else if (declared(rs)) {
            words.add("declared");
        } else {
            words.add(rs.get(0).basis());
        }
        boolean modelled = "modelled".equals(rs.get(0).basis()) && !words.contains("modelled");
        return String.join(", ", words) + (modelled ? ": modelled" : "");
    }

    /** Where an emulated node's energy comes from: the x86 host's, declared or measured (said only where runs are). */
    static String hostEnergy(List<ResultRow> rs) {
        return "the x86 host's " + (rs.isEmpty() ? "" : declared(rs) ? "declared " : "measured ") + "energy";
    }

    /** The thesis's table and section numbers in their order: 9.1.3, 9.3, 10.1, 12.2. */
    static final Comparator<String> BY_NUMBER = (a, b) -> {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int d = x[i].matches("[0-9]+") && y[i].matches("[0-9]+") ? Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]))
                : x[i].compareTo(y[i]);
            if (d != 0) {
                return d;
            }
        }
        return Integer.compare(x.length, y.length);
    };

    static Stats stat(List<ResultRow> rs, Function<ResultRow, Double> f) {
        return Stats.of(rs.stream().map(f).filter(v -> v != null && !v.isNaN()).toList());
    }

    static Double mean(List<ResultRow> rs, Function<ResultRow, Double> f) {
        Stats s = stat(rs, f);
        return s.n() == 0 ? null : s.mean();
    }

    /**
     * "mean ± sd", no more precise than the spread: the sd to two significant figures and the mean
     * to the same place; with no spread (one run, or none between runs) the mean to three significant
     * figures. Empty for no runs.
     */
    static String fmt(Stats s) {
        if (s.n() == 0) {
            return "";
        }
        if (Double.isNaN(s.sd()) || s.sd() == 0) {
            return sig(s.mean(), 3) + " ± " + (Double.isNaN(s.sd()) ? "n/a" : "0");
        }
        int place = 1 - (int) Math.floor(Math.log10(s.sd()));
        return atPlace(s.mean(), place) + " ± " + atPlace(s.sd(), place);
    }

    /** {@link #fmt(Stats)} in powers of ten, mean and sd under one exponent: "(1.33 ± 0.07)e6". */
    static String fmtSci(Stats s) {
        if (s.n() == 0) {
            return "";
        }
        int exp = s.mean() == 0 ? 0 : (int) Math.floor(Math.log10(Math.abs(s.mean())));
        double unit = Math.pow(10, exp);
        return "(" + fmt(new Stats(s.mean() / unit, s.sd() / unit, s.n())) + ")e" + exp;
    }

    /**
     * An energy figure (energy, TpW, ED²P) of some runs with its spread and, in brackets, what else
     * it is: emulated, simulated, and for a declared wattage what its spread is (the wattage is one
     * stated number, so the spread is the time's alone).
     */
    static String energyFmt(List<ResultRow> rs, Function<ResultRow, Double> f, boolean sci) {
        Stats s = stat(rs, f);
        if (s.n() == 0) {
            return "";
        }
        String what = String.join(", ", labelWords(rs));
        if (declared(rs)) {
            what += (what.isEmpty() ? "" : "; ") + "declared W: the ± is the time's alone";
        }
        return (sci ? fmtSci(s) : fmt(s)) + (what.isEmpty() ? "" : " (" + what + ")");
    }

    /** The runs' mean power: a declared wattage as the plan stated it, no spread; else "mean ± sd". */
    static String powerFmt(List<ResultRow> rs) {
        Stats s = stat(rs, ResultRow::meanW);
        if (s.n() == 0) {
            return "";
        }
        // a run's mean power is its energy over its time, so a declared 35 W comes back as 35.00000000000001: twelve
        // significant figures give the stated number back and drop the floating-point rest
        return declared(rs) ? new BigDecimal(s.mean()).round(new MathContext(12, RoundingMode.HALF_EVEN)).stripTrailingZeros().toPlainString()
            + " (declared)" : fmt(s);
    }

    /** {@code v} rounded to {@code digits} significant figures, trailing zeros kept up to them, no exponent. */
    static String sig(double v, int digits) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return v == 0 ? "0" : String.valueOf(v);
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(digits, RoundingMode.HALF_EVEN));
        if (d.precision() < digits && d.scale() >= 0) {
            d = d.setScale(d.scale() + digits - d.precision(), RoundingMode.UNNECESSARY);
        }
        return d.toPlainString();
    }

    /** {@code v} rounded at 10^-place (place may be negative: tens, hundreds), no exponent. */
    private static String atPlace(double v, int place) {
        return new BigDecimal(v).setScale(place, RoundingMode.HALF_EVEN).toPlainString();
    }

    /**
     * One side of a ratio, all that it divides: the node, where the figure comes from ({@code here},
     * {@code thesis} or {@code model}), the domain it was taken at ({@code 2^N}, or {@code per value}
     * for a rate counted without runs), what the figure is, and its basis (measured, declared,
     * modelled, emulated, simulated). {@code rate}: a rate whose fixed cost is negligible at its
     * domain, so that it may be divided across domain sizes.
     */
    record Side(String node, String place, String domain, String what, String basis, boolean rate) {
        String text() {
            return node + ", " + place + ", " + domain + ", " + what + ", " + basis;
        }
    }

    /** A side of this plan's runs: the node type, here, the plan's domain, the figure, and the runs' basis for it. */
    static Side here(ReportContext c, String node, List<ResultRow> rs, String what, boolean energy) {
        return new Side(node, "here", "2^" + c.plan.bits(), what, sideBasis(rs, energy), false);
    }

    /** A side of the thesis: its node's name, the thesis's 2^28 values, the figure, measured. */
    static Side thesisSide(String thesisNode, String what, boolean rate) {
        return new Side(thesisName(thesisNode), "thesis", "2^28", what, "measured", rate);
    }

    /** The thesis's name of its node: x86, ARM Novena, ARM-FPGA. */
    static String thesisName(String node) {
        return switch (node) {
            case "arm" -> "ARM Novena";
            case "arm-fpga" -> "ARM-FPGA";
            default -> node;
        };
    }

    /**
     * The basis of some runs' time ({@code energy} false) or energy figure, in the words of a ratio's
     * side: "measured", or what else it is ("emulated and declared", "simulated and declared", ...).
     */
    static String sideBasis(List<ResultRow> rs, boolean energy) {
        if (rs.isEmpty()) {
            return "";
        }
        List<String> words = new ArrayList<>();
        if (has(rs, "emulated-arm")) {
            words.add("emulated");
        }
        if (has(rs, "simulated-fpga")) {
            words.add("simulated");
        }
        if (energy) {
            words.add(declared(rs) ? "declared" : "modelled".equals(rs.get(0).basis()) ? "modelled" : "measured");
        }
        return words.isEmpty() ? "measured" : String.join(" and ", words);
    }

    /**
     * A ratio cell: {@code a / b} to three significant figures with both sides named,
     * {@code 2.77× [x86, here, 2^20, plain job's t_map, measured ÷ x86, here, 2^20, fpgamr's t_map, measured]};
     * or, where the two cannot be divided as they are, {@code no ratio: } and why: runs at unlike
     * domain sizes (unless both sides are rates whose fixed cost is negligible), and measured figures
     * of unlike nodes. Empty where a side has no figure.
     */
    static String ratio(Double a, Side sa, Double b, Side sb) {
        if (a == null || b == null || b == 0 || a.isNaN() || b.isNaN()) {
            return "";
        }
        if (!sa.domain().equals(sb.domain()) && !(sa.rate() && sb.rate())) {
            return "no ratio: " + sa.domain() + " values " + sa.place() + ", " + sb.domain() + " in the " + sb.place()
                + " (a run of few values is mostly fixed cost)";
        }
        if (sa.basis().equals("measured") && sb.basis().equals("measured") && !sa.node().equals(sb.node())) {
            return "no ratio: unlike nodes (" + sa.node() + " " + sa.place() + ", " + sb.node() + " " + sb.place() + ")";
        }
        return sig(a / b, 3) + "× [" + sa.text() + " ÷ " + sb.text() + "]";
    }

    static String ppk(int ppk) {
        return ppk == 262144 ? "2^18" : Integer.toString(ppk);
    }

    static double nz(Double d) {
        return d == null ? 0 : d;
    }
}
