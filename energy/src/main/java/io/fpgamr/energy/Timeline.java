package io.fpgamr.energy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * A job's timeline, as the job produced it: when it was submitted and done (the thesis's t = 0
 * and t_total) and its tasks' spans, each recorded once by the task itself. The stage table, the
 * energy windows and the maps per node all read it.
 */
public record Timeline(long submitMs, long doneMs, List<TaskSpan> spans) {
    public static final List<String> STAGES = List.of("map", "shuffle", "reduce", "total");

    /** One row of the thesis's stage table (its table 9.1): a stage and its window. */
    public record Stage(String name, long startMs, long endMs) {
        public double seconds() {
            return (endMs - startMs) / 1000.0;
        }
    }

    /** Per node, how many maps hashed on its CPU and on an FPGA, and whether an FPGA of it was simulated. */
    public record NodeMaps(int cpu, int fpga, boolean simulated) {
    }

    public Timeline {
        if (doneMs < submitMs) {
            throw new IllegalArgumentException("job done (" + doneMs + ") before it was submitted (" + submitMs + ")");
        }
        spans = List.copyOf(spans);
    }

    public double seconds() {
        return (doneMs - submitMs) / 1000.0;
    }

    /**
     * The stages that happened, then the total: map from the first map's start to the last map's
     * end; shuffle from there to the last reduce input being ready; reduce from there to the last
     * reduce's end; total from submission to completion.
     */
    public List<Stage> stages() {
        long mapStart = Long.MAX_VALUE;
        long mapEnd = Long.MIN_VALUE;
        long shuffleEnd = Long.MIN_VALUE;
        long reduceEnd = Long.MIN_VALUE;
        for (TaskSpan t : spans) {
            for (TaskSpan.Phase p : t.phases()) {
                switch (p.name()) {
                    case "map" -> {
                        mapStart = Math.min(mapStart, p.startMs());
                        mapEnd = Math.max(mapEnd, p.endMs());
                    }
                    case "shuffle" -> shuffleEnd = Math.max(shuffleEnd, p.endMs());
                    default -> reduceEnd = Math.max(reduceEnd, p.endMs());
                }
            }
        }
        List<Stage> out = new ArrayList<>();
        if (mapStart != Long.MAX_VALUE) {
            out.add(new Stage("map", mapStart, mapEnd));
        }
        long afterMap = mapEnd == Long.MIN_VALUE ? submitMs : mapEnd;
        if (shuffleEnd != Long.MIN_VALUE) {
            out.add(new Stage("shuffle", afterMap, Math.max(afterMap, shuffleEnd)));
        }
        if (reduceEnd != Long.MIN_VALUE) {
            long from = Math.max(afterMap, shuffleEnd);
            out.add(new Stage("reduce", from, Math.max(from, reduceEnd)));
        }
        out.add(new Stage("total", submitMs, doneMs));
        return out;
    }

    /** A stage's seconds; 0 for a stage that did not happen (search mode has no shuffle or reduce). */
    public double seconds(String stage) {
        return stages().stream().filter(s -> s.name().equals(stage)).mapToDouble(Stage::seconds).findFirst().orElse(0.0);
    }

    /** Per node (sorted), its maps by hardware. */
    public Map<String, NodeMaps> mapsByNode() {
        Map<String, NodeMaps> byNode = new TreeMap<>();
        for (TaskSpan t : spans) {
            if (t.isMap()) {
                NodeMaps n = byNode.getOrDefault(t.node(), new NodeMaps(0, 0, false));
                byNode.put(t.node(), t.onFpga() ? new NodeMaps(n.cpu(), n.fpga() + 1, n.simulated() || t.simulated())
                    : new NodeMaps(n.cpu() + 1, n.fpga(), n.simulated()));
            }
        }
        return byNode;
    }

    /** Whether any map hashed on a simulated FPGA: then every figure of the job is partly a simulation's. */
    public boolean simulated() {
        return spans.stream().anyMatch(t -> t.onFpga() && t.simulated());
    }

    /** The same timeline with each span's node renamed (energy names a span's node as its samples do). */
    public Timeline withNodes(UnaryOperator<String> rename) {
        return new Timeline(submitMs, doneMs, spans.stream().map(t -> t.withNode(rename.apply(t.node()))).toList());
    }
}
