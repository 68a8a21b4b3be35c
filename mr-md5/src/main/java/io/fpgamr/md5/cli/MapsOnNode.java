package io.fpgamr.md5.cli;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.energy.Timeline;
import io.fpgamr.md5.balance.ClusterSpeeds;
import io.fpgamr.md5.job.MapPlatform;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One node's maps, as the summary's {@code maps_by_node} gives them: the node's type (x86, fpga,
 * arm, arm-fpga, as the cluster described it), its maps on the CPU and on an FPGA, whether that
 * FPGA was simulated, and what the maps themselves saw: their JVM's {@code os.arch}, the platform
 * of the native library they loaded, and whether they ran emulated (an ARM node's maps on an
 * armhf JVM under QEMU). Maps of one node that saw different platforms are listed with commas.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record MapsOnNode(String type, int cpu, int fpga, boolean simulated, String osArch, String nativePlatform, boolean emulated) {

    /**
     * Per node of the timeline (sorted), its maps, with their platforms ({@code platforms}, by task;
     * a map without one counts as this JVM's) and the node's type from {@code nodes} (by host;
     * the local runner's one node: this machine's).
     */
    static Map<String, MapsOnNode> of(Timeline timeline, Map<String, MapPlatform> platforms, List<ClusterSpeeds.Node> nodes) {
        Map<String, ClusterSpeeds.Node> byHost = new TreeMap<>();
        nodes.forEach(n -> byHost.put(n.host(), n));
        Map<String, List<TaskSpan>> maps = new TreeMap<>();
        for (TaskSpan t : timeline.spans()) {
            if (t.isMap()) {
                maps.computeIfAbsent(t.node(), k -> new java.util.ArrayList<>()).add(t);
            }
        }
        Map<String, Timeline.NodeMaps> counts = timeline.mapsByNode();
        Map<String, MapsOnNode> out = new TreeMap<>();
        for (Map.Entry<String, List<TaskSpan>> e : maps.entrySet()) {
            List<MapPlatform> seen = e.getValue().stream().map(t -> platforms.get(t.task())).filter(Objects::nonNull).toList();
            ClusterSpeeds.Node node = byHost.get(TaskSpan.host(e.getKey()));
            String osArch = join(seen.stream().map(MapPlatform::osArch).toList());
            String type = node != null ? node.type() : localType(osArch, e.getValue().stream().anyMatch(TaskSpan::onFpga));
            Timeline.NodeMaps c = counts.get(e.getKey());
            out.put(e.getKey(), new MapsOnNode(type, c.cpu(), c.fpga(), c.simulated(), osArch,
                join(seen.stream().map(MapPlatform::nativePlatform).toList()), seen.stream().anyMatch(MapPlatform::emulated)));
        }
        return out;
    }

    private static String join(List<String> values) {
        return values.isEmpty() ? "unknown" : values.stream().collect(Collectors.toCollection(TreeSet::new)).stream()
            .collect(Collectors.joining(","));
    }

    /** The type of a node the cluster did not describe (the local runner's), by what its maps saw. */
    private static String localType(String osArch, boolean fpga) {
        boolean arm = osArch.startsWith("arm") || osArch.startsWith("aarch");
        return arm ? (fpga ? "arm-fpga" : "arm") : (fpga ? "fpga" : "x86");
    }

    /** {@code arm, os.arch arm, linux-armhf, emulated}: the printed node's description. */
    String describe() {
        return type + ", os.arch " + osArch + ", " + nativePlatform + (emulated ? ", emulated" : "");
    }
}
