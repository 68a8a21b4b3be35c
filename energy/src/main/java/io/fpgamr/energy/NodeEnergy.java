package io.fpgamr.energy;

import java.util.List;
import java.util.Map;

/**
 * One node's energy over a job's window, from the source that gives the node's total.
 *
 * @param source        the kind of that source, or null when the node has no power source
 * @param measured      false when the figure comes from a declared wattage
 * @param energyJ       joules over the measured part of the window; null without a source
 * @param meanW         mean power over the measured part; null without a source
 * @param coverage      the measured share of the window, 0 to 1
 * @param gaps          the parts of the window with no measurement, and why
 * @param otherSources  joules seen by the node's other sources (e.g. RAPL beside a UPS), for reference
 */
public record NodeEnergy(
    String node,
    String nodeType,
    String source,
    boolean measured,
    List<String> domains,
    Double energyJ,
    Double meanW,
    double coverage,
    List<Gap> gaps,
    Map<String, Double> otherSources) {

    /** A stretch of a node's window without a measurement. */
    public record Gap(String source, long fromMs, long toMs, String reason) {
        public double seconds() {
            return (toMs - fromMs) / 1000.0;
        }
    }

    public boolean hasSource() {
        return source != null;
    }

    public boolean complete() {
        return source != null && gaps.isEmpty();
    }
}
