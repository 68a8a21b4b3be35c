package io.fpgamr.energy.sample;

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
    double watts,
    boolean measured,
    boolean primary,
    String gap) {

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
