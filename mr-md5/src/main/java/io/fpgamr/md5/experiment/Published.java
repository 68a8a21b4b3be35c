package io.fpgamr.md5.experiment;

import io.fpgamr.md5.run.UsageException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The thesis's published figures ({@code mr-md5/experiments/thesis-published.yml}): each entry one
 * configuration of one table row, its stage times and TpW as printed, mean and sd.
 */
public record Published(String source, List<Entry> entries) {

    /**
     * One published row. Each figure is {@code [mean]} or {@code [mean, sd]}.
     *
     * @param node      x86, arm or arm-fpga: the thesis's node types
     * @param framework disco (chapters 9-11) or patched (chapter 12)
     * @param scaling   a row of the node-count study (tables 11.1, 11.2)
     * @param kMap      the node-count study's k coefficients (the figure over the one-node figure) as tables 11.1
     *                  and 11.2 print them, transcribed, never recomputed (rounding differs: the thesis's 3-node
     *                  k_total is 0.376, 2936.4 / 7746.4 is 0.379); null for the other rows
     */
    public record Entry(String tables, String node, String framework, int ppk, int maps, int reducers, int nodes, Boolean scaling,
                        List<Double> mapS, List<Double> shuffleS, List<Double> reduceS, List<Double> totalS, List<Double> tpw,
                        Double kMap, Double kShuffle, Double kReduce, Double kTotal, Double kTpw) {

        /** A figure as the thesis printed it (the digits transcribed, no more): "mean ± sd", or the mean alone for its single run. */
        public static String format(List<Double> v) {
            if (v == null || v.isEmpty()) {
                return "";
            }
            String mean = asPrinted(v.get(0));
            return v.size() > 1 ? mean + " ± " + asPrinted(v.get(1)) : mean + " (one run)";
        }

        private static String asPrinted(double d) {
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }

        public static Double mean(List<Double> v) {
            return v == null || v.isEmpty() ? null : v.get(0);
        }

        /** A k coefficient as the thesis printed it (three decimals), or empty. */
        public static String formatK(Double k) {
            return k == null ? "" : String.format(Locale.ROOT, "%.3f", k);
        }
    }

    public static Published read(Path file) throws UsageException {
        Published p = Plan.readYaml(file, Published.class, "file of published values");
        if (p.entries() == null || p.entries().isEmpty()) {
            throw new UsageException(file + ": no entries");
        }
        return p;
    }

    /** The entry of a node type, framework, values per record, reducers and nodes, if the thesis has one. */
    public Optional<Entry> find(String node, String framework, int ppk, int reducers, int nodes, boolean scaling) {
        return entries.stream().filter(e -> e.node().equals(node) && e.framework().equals(framework) && e.ppk() == ppk
            && e.reducers() == reducers && e.nodes() == nodes && Boolean.TRUE.equals(e.scaling()) == scaling).findFirst();
    }
}
