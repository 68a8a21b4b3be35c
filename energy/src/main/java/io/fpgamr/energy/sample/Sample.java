package io.fpgamr.energy.sample;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One reading of one domain of one source on one node, standing for the interval
 * ({@code startMs}, {@code endMs}] on the wall clock shared with the job's task spans. A failed read
 * is a gap row: {@code gap} holds the reason, {@code domain} is "*" and {@code watts} is NaN; it is
 * never filled in from its neighbours. {@code primary} marks the source that gives the node's total.
 */
public record Sample(
    String node,
    String nodeType,
    String source,
    String domain,
    long startMs,
    long endMs,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = NaN.class) double watts,
    boolean measured,
    boolean primary,
    String gap) {

    /** The raw samples as CSV: a job's samples.csv, the node exporter's /samples answer. */
    public static final CsvTable<Sample> CSV = new CsvTable<>(Sample.class,
        "start_ms", "end_ms", "node", "node_type", "source", "domain", "watts", "measured", "primary", "gap");

    public Sample {
        if (gap != null) {
            watts = Double.NaN; // a gap has no reading, whatever a file's watts column says
        }
    }

    /** Leaves a gap's watts (NaN) empty in the CSV. */
    static final class NaN {
        @Override
        public boolean equals(Object o) {
            return o instanceof Double d && d.isNaN();
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    public static Sample ok(String node, String nodeType, String source, String domain, long startMs, long endMs,
                            double watts, boolean measured, boolean primary) {
        return new Sample(node, nodeType, source, domain, startMs, endMs, watts, measured, primary, null);
    }

    public static Sample gap(String node, String nodeType, String source, long startMs, long endMs,
                             boolean measured, boolean primary, String reason) {
        return new Sample(node, nodeType, source, "*", startMs, endMs, Double.NaN, measured, primary,
            reason == null || reason.isBlank() ? "read failed" : reason);
    }

    public boolean isGap() {
        return gap != null;
    }

    /** Joules this row stands for inside [{@code fromMs}, {@code toMs}]; 0 for a gap. */
    public double joulesWithin(long fromMs, long toMs) {
        return isGap() ? 0 : watts * overlapMs(fromMs, toMs) / 1000.0;
    }

    public long overlapMs(long fromMs, long toMs) {
        return Math.max(0, Math.min(endMs, toMs) - Math.max(startMs, fromMs));
    }
}
