package io.fpgamr.md5.balance;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.fpgamr.accel.SpeedProfile;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.energy.Timeline;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a job's work fell on its nodes, for the run's summary ({@code balance}): per node its type,
 * per engine the speed the node was given for the job's mode (and where that figure came from),
 * the values each engine hashed (as the engines counted them), its maps, and when the node's last
 * map ended; and {@code stragglerS}, the last node's last map end minus the earliest node's last
 * map end. Figures of a simulated FPGA say so ({@code simulated}).
 *
 * @param design how work reached the maps: {@code stream} (claimed as they ran) or {@code static} (equal splits)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Balance(String design, Map<String, NodeShare> nodes, double stragglerS) {

    /** One node's part: what it is, what each of its engines was given and hashed, its maps, its last map's end. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record NodeShare(String type, List<EngineShare> engines, long valuesHashed, int maps, double lastMapEndS) {
    }

    /**
     * One engine kind of a node: the engine, the speed given (values/s of one map; null when the
     * cluster had none) and its source, whether it is simulated, its maps and the values they hashed.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EngineShare(String kind, String engine, Double speedGiven, String speedSource, boolean simulated, int maps,
                              long valuesHashed) {
    }

    /**
     * The balance of a job from its timeline (the maps' spans: node, engine kind, values, end) and
     * the nodes as the cluster described them before the job ({@code nodes}, by host; empty on the
     * local runner, whose one node is this machine).
     */
    public static Balance of(String design, List<ClusterSpeeds.Node> nodes, String mode, Timeline timeline) {
        Map<String, ClusterSpeeds.Node> byHost = new TreeMap<>();
        nodes.forEach(n -> byHost.put(n.host(), n));
        Map<String, List<TaskSpan>> maps = new TreeMap<>();
        for (TaskSpan t : timeline.spans()) {
            if (t.isMap()) {
                maps.computeIfAbsent(t.node(), k -> new ArrayList<>()).add(t);
            }
        }
        Map<String, NodeShare> shares = new LinkedHashMap<>();
        double first = Double.MAX_VALUE;
        double last = 0;
        for (Map.Entry<String, List<TaskSpan>> e : maps.entrySet()) {
            ClusterSpeeds.Node node = byHost.get(TaskSpan.host(e.getKey()));
            List<EngineShare> engines = new ArrayList<>();
            for (String kind : SpeedProfile.KINDS) {
                List<TaskSpan> ofKind = e.getValue().stream().filter(t -> t.hardware().equals(kind)).toList();
                if (ofKind.isEmpty()) {
                    continue;
                }
                SpeedProfile.Speed s = node == null ? null : node.profile().speed(kind, mode).orElse(null);
                engines.add(new EngineShare(kind, s == null ? kind : s.engine(), s == null ? null : s.valuesPerS(),
                    s == null ? (node == null ? null : ClusterSpeeds.ASSUMED) : s.source().label() + (node.profile().emulated() ? "-emulated" : ""),
                    ofKind.stream().anyMatch(TaskSpan::simulated), ofKind.size(), ofKind.stream().mapToLong(TaskSpan::values).sum()));
            }
            long endMs = e.getValue().stream().mapToLong(TaskSpan::endMs).max().orElse(timeline.submitMs());
            double end = (endMs - timeline.submitMs()) / 1000.0;
            first = Math.min(first, end);
            last = Math.max(last, end);
            String type = node != null ? node.type() : localType();
            shares.put(e.getKey(), new NodeShare(type, engines, e.getValue().stream().mapToLong(TaskSpan::values).sum(), e.getValue().size(),
                end));
        }
        return new Balance(design, shares, shares.isEmpty() ? 0 : last - first);
    }

    /** This machine's node type, for the local runner's one node. */
    private static String localType() {
        String arch = System.getProperty("os.arch");
        return arch.startsWith("arm") || arch.startsWith("aarch") ? "arm" : "x86";
    }
}
