package io.fpgamr.energy;

import java.util.List;

/**
 * When one phase of one task ran, and on which node, on the wall clock of the samples
 * ({@link System#currentTimeMillis()}). {@code phase} is map, shuffle or reduce: a reduce task is
 * two spans, its shuffle (start to input ready) and its reduce (ready to end); see
 * {@link #ofReduce}.
 */
public record TaskSpan(String node, String phase, long startMs, long endMs) {
    public static final List<String> PHASES = List.of("map", "shuffle", "reduce");

    public TaskSpan {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("a task span needs its node");
        }
        if (!PHASES.contains(phase)) {
            throw new IllegalArgumentException("phase must be map, shuffle or reduce, got '" + phase + "'");
        }
        if (endMs < startMs) {
            throw new IllegalArgumentException(phase + " span on " + node + " ends (" + endMs + ") before it starts (" + startMs + ")");
        }
    }

    public static TaskSpan ofMap(String node, long startMs, long endMs) {
        return new TaskSpan(node, "map", startMs, endMs);
    }

    /** A reduce task as its shuffle span (start to {@code readyMs}) and its reduce span (to end). */
    public static List<TaskSpan> ofReduce(String node, long startMs, long readyMs, long endMs) {
        long ready = Math.max(startMs, Math.min(readyMs, endMs));
        return List.of(new TaskSpan(node, "shuffle", startMs, ready), new TaskSpan(node, "reduce", ready, endMs));
    }

    /** Whether this span runs during any part of [{@code fromMs}, {@code toMs}). */
    public boolean overlaps(long fromMs, long toMs) {
        return startMs < toMs && endMs > fromMs;
    }

    /** The host part of the node name ({@code host:port} inside YARN). */
    public static String host(String node) {
        int colon = node.lastIndexOf(':');
        return colon > 0 && node.indexOf(':') == colon ? node.substring(0, colon) : node;
    }
}
