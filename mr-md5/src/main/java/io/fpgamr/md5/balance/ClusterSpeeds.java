package io.fpgamr.md5.balance;

import io.fpgamr.accel.SpeedProfile;
import io.fpgamr.accel.design.FpgaContainer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceTypeInfo;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * The cluster's nodes as the job client sees them before it submits: each node's map slots (CPU
 * and FPGA) from the ResourceManager's node reports, and its speed from its node attributes (the
 * profile the node published, {@code nm.yarn.io/fpgamr-*}, and what an operator set with YARN's
 * centralized attributes, which wins). A node without a figure for an engine gets the mean of the
 * others' (labelled {@code assumed}); with no figure anywhere every map is given the same.
 */
public final class ClusterSpeeds {
    /** The label of a speed the cluster had no figure for. */
    public static final String ASSUMED = "assumed";

    /**
     * One node: its host (how YARN keys node attributes), its map slots on the CPU and on FPGAs,
     * and its speed profile as the cluster serves it.
     */
    public record Node(String host, int cpuSlots, int fpgaSlots, SpeedProfile profile) {
        /** The node's type: x86 or arm by its architecture, {@code -fpga} (or {@code fpga} for x86) when it offers FPGAs. */
        public String type() {
            String arch = profile.node().getOrDefault("arch", "");
            boolean arm = arch.startsWith("arm") || arch.startsWith("aarch");
            if (fpgaSlots > 0) {
                return arm ? "arm-fpga" : "fpga";
            }
            return arm ? "arm" : "x86";
        }
    }

    private ClusterSpeeds() {
    }

    /**
     * The running nodes of the cluster of {@code conf}, with their slots for maps of the job's size and their speeds.
     * This JVM learns the cluster's resource types on the way: a job whose tasks ask for one (an embedded cluster
     * with ARM nodes: {@code fpgamr-framework}) is submitted with it.
     */
    public static List<Node> read(Configuration conf) throws IOException {
        long mapMb = conf.getLong(MRJobConfig.MAP_MEMORY_MB, MRJobConfig.DEFAULT_MAP_MEMORY_MB);
        int mapVcores = conf.getInt(MRJobConfig.MAP_CPU_VCORES, MRJobConfig.DEFAULT_MAP_CPU_VCORES);
        try (YarnClient yarn = YarnClient.createYarnClient()) {
            yarn.init(conf);
            yarn.start();
            List<ResourceTypeInfo> types = yarn.getResourceTypeInfo();
            if (!ResourceUtils.getResourceTypes().keySet().containsAll(types.stream().map(ResourceTypeInfo::getName).toList())) {
                ResourceUtils.reinitializeResources(types);
            }
            Map<String, NodeReport> reports = new TreeMap<>();
            for (NodeReport r : yarn.getNodeReports(NodeState.RUNNING)) {
                reports.put(r.getNodeId().getHost(), r);
            }
            Map<String, Set<NodeAttribute>> attributes = reports.isEmpty() ? Map.of() : yarn.getNodeToAttributes(reports.keySet());
            List<Node> nodes = new ArrayList<>();
            for (Map.Entry<String, NodeReport> e : reports.entrySet()) {
                Resource r = e.getValue().getCapability();
                // room for the job's maps; one container's worth is left for an AM on some node
                int slots = (int) Math.max(1, Math.min((r.getMemorySize() - mapMb) / Math.max(1, mapMb), (r.getVirtualCores() - 1) / Math.max(1, mapVcores)));
                int fpgas = (int) Math.min(slots, resource(r, FpgaContainer.RESOURCE));
                nodes.add(new Node(e.getKey(), slots - fpgas, fpgas, profile(attributes.getOrDefault(e.getKey(), Set.of()))));
            }
            return nodes;
        } catch (YarnException e) {
            throw new IOException("cannot read the cluster's nodes from the ResourceManager: " + e.getMessage(), e);
        }
    }

    private static long resource(Resource r, String name) {
        try {
            return r.getResourceValue(name);
        } catch (org.apache.hadoop.yarn.exceptions.ResourceNotFoundException e) {
            return 0;
        }
    }

    /** A node's profile from its attributes: what it published itself, and what an operator set. */
    static SpeedProfile profile(Set<NodeAttribute> attrs) {
        Map<String, String> node = new HashMap<>();
        Map<String, String> operator = new HashMap<>();
        for (NodeAttribute a : attrs) {
            String name = a.getAttributeKey().getAttributeName();
            if (NodeAttribute.PREFIX_DISTRIBUTED.equals(a.getAttributeKey().getAttributePrefix())) {
                node.put(name, a.getAttributeValue());
            } else {
                operator.put(name, a.getAttributeValue());
            }
        }
        return SpeedProfile.fromAttributes(node, operator);
    }

    /**
     * The job's plan over {@code nodes}: each node's engines' speeds in {@code mode} (search or
     * bench), an engine without a figure given the mean of the others' ({@value #ASSUMED}), and
     * the sum over the cluster's slots, scaled to the job's {@code maps} when it has fewer maps than
     * slots.
     */
    public static WorkPlan plan(List<Node> nodes, String mode, long domainSize, int maps) {
        Map<String, Double> mean = new HashMap<>();
        for (String kind : SpeedProfile.KINDS) {
            mean.put(kind, nodes.stream().flatMap(n -> n.profile().speed(kind, mode).stream())
                .mapToDouble(SpeedProfile.Speed::valuesPerS).average().orElse(0));
        }
        double anyMean = mean.values().stream().filter(v -> v > 0).mapToDouble(Double::doubleValue).average().orElse(0);
        Map<String, Map<String, WorkPlan.Given>> speeds = new LinkedHashMap<>();
        double total = 0;
        int slots = 0;
        for (Node n : nodes) {
            Map<String, WorkPlan.Given> engines = new LinkedHashMap<>();
            for (String kind : SpeedProfile.KINDS) {
                int k = kind.equals("cpu") ? n.cpuSlots() : n.fpgaSlots();
                if (k == 0) {
                    continue;
                }
                WorkPlan.Given g = n.profile().speed(kind, mode)
                    .map(s -> new WorkPlan.Given(s.valuesPerS(), s.source().label() + (s.simulated() ? "-simulated" : "")
                        + (n.profile().emulated() ? "-emulated" : "")))
                    .orElse(null);
                if (g == null) {
                    double m = mean.get(kind) > 0 ? mean.get(kind) : anyMean;
                    if (!(m > 0)) {
                        continue;
                    }
                    g = new WorkPlan.Given(m, ASSUMED);
                }
                engines.put(kind, g);
                total += k * g.valuesPerS();
                slots += k;
            }
            if (!engines.isEmpty()) {
                speeds.put(n.host(), engines);
            }
        }
        if (slots > maps) {
            total = total * maps / slots;
        }
        return new WorkPlan(domainSize, maps, speeds, total);
    }
}
