package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.md5.cluster.EmbeddedCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thesis's three node types in one job, on the embedded cluster ({@code --nodes x86,arm,arm-fpga}):
 * the ARM nodes' containers run Debian's armhf JVM under QEMU user-mode emulation of a Cortex-A9
 * and hash on the linux-armhf library's NEON kernels, and the ARM-FPGA node's also on its simulated
 * FPGAs (the armhf driver running the Verilated model built for armhf); the ApplicationMaster and
 * the reducers stay on the x86 node. Needs the armhf root and the armhf model {@code make test}
 * makes ({@code bin/armhf-root}, {@code make -C jni-fpga/native/fpga vsim-libs PLATFORM=linux-armhf}).
 * Emulation is slow: small domains. Time budget about 7 minutes on 2 shared cores (the cluster with
 * the ARM nodes' emulated profile, a search over 2^20, a bench over 2^18 whose one map runs on the
 * x86 node; the emulated task JVMs' start is most of it).
 */
class ArmNodesTest {
    private static final int BITS = 20;

    @TempDir
    static Path tmp;
    private static StandingCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = StandingCluster.start(tmp, "x86,arm,arm-fpga", 2);
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * The x86 node's host, as the cluster describes it: the one node whose published profile says it
     * runs on amd64 (the bench's maps may all have run on the ARM nodes, so the summary may not name it).
     */
    private static String x86Host() throws Exception {
        YarnClient yarn = cluster.yarn();
        List<String> hosts = new ArrayList<>();
        for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
            Set<NodeAttribute> attrs = yarn.getNodeToAttributes(Set.of(n.getNodeId().getHost())).getOrDefault(n.getNodeId().getHost(), Set.of());
            if (attrs.stream().anyMatch(a -> a.getAttributeKey().getAttributeName().equals("fpgamr-node-arch")
                && a.getAttributeValue().equals("amd64"))) {
                hosts.add(n.getNodeId().getHost());
            }
        }
        assertEquals(1, hosts.size(), "the x86 nodes: " + hosts);
        return hosts.get(0);
    }

    /** Per node type, the node (host:port) that summary's maps_by_node gives it. */
    private static Map<String, String> nodesByType(JsonNode summary) {
        Map<String, String> byType = new HashMap<>();
        summary.get("maps_by_node").fields().forEachRemaining(e -> byType.put(e.getValue().get("type").asText(), e.getKey()));
        return byType;
    }

    @Test
    void aSearchFindsThePlantedValuesAndEveryNodeTypeHashesOnItsOwnPlatform() throws Exception {
        // the embedded cluster's default design, named (a job on a standing cluster ships none by default)
        StandingCluster.Run run = cluster.search(tmp, "arm-search", BITS, "--design", "vsim-p4");
        cluster.assertFoundEverything(run, BITS);
        JsonNode s = run.summary();
        Map<String, String> byType = nodesByType(s);
        assertEquals(3, s.get("maps_by_node").size(), s.get("maps_by_node").toString());
        JsonNode x86 = s.get("maps_by_node").get(byType.get("x86"));
        JsonNode arm = s.get("maps_by_node").get(byType.get("arm"));
        JsonNode armFpga = s.get("maps_by_node").get(byType.get("arm-fpga"));
        assertTrue(x86 != null && arm != null && armFpga != null, s.get("maps_by_node").toString());
        assertEquals("amd64", x86.get("os_arch").asText());
        assertEquals("linux-x86_64", x86.get("native_platform").asText());
        assertEquals(false, x86.get("emulated").asBoolean());
        // the ARM nodes' maps saw an armhf JVM, loaded the armhf library, and know they were emulated
        for (JsonNode a : List.of(arm, armFpga)) {
            assertEquals("arm", a.get("os_arch").asText(), a.toString());
            assertEquals("linux-armhf", a.get("native_platform").asText(), a.toString());
            assertEquals(true, a.get("emulated").asBoolean(), a.toString());
        }
        // the ARM-FPGA node's maps hashed on its simulated FPGAs: simulated and emulated
        assertTrue(armFpga.get("fpga").asInt() >= 1, armFpga.toString());
        assertEquals(true, armFpga.get("simulated").asBoolean(), armFpga.toString());
        assertTrue(run.result().err().contains("(arm, os.arch arm, linux-armhf, emulated): "), run.result().err());
        assertTrue(run.result().err().contains("(arm-fpga, os.arch arm, linux-armhf, emulated): "), run.result().err());
        // every node type hashed values, and together exactly the domain, each value once
        JsonNode nodes = s.get("balance").get("nodes");
        long sum = 0;
        for (String node : List.of(byType.get("x86"), byType.get("arm"), byType.get("arm-fpga"))) {
            long v = nodes.get(node).get("values_hashed").asLong();
            assertTrue(v > 0, node + " hashed nothing: " + nodes);
            sum += v;
        }
        assertEquals(1L << BITS, sum, nodes.toString());
        // the ARM nodes' speeds are their emulated JVM's, measured, and say so; the ARM-FPGA node's FPGA
        // engine got its speed from its profile and hashed at least its reserved unit
        JsonNode armCpu = nodes.get(byType.get("arm")).get("engines").get(0);
        assertEquals("measured-emulated", armCpu.get("speed_source").asText(), armCpu.toString());
        assertEquals("cpu_neon", armCpu.get("engine").asText(), armCpu.toString());
        assertEquals("measured", nodes.get(byType.get("x86")).get("engines").get(0).get("speed_source").asText());
        JsonNode armFpgaEngine = null;
        for (JsonNode e : nodes.get(byType.get("arm-fpga")).get("engines")) {
            if (e.get("kind").asText().equals("fpga")) {
                armFpgaEngine = e;
            }
        }
        assertTrue(armFpgaEngine != null, nodes.toString());
        assertEquals("fpga_vsim_p4", armFpgaEngine.get("engine").asText(), armFpgaEngine.toString());
        assertEquals("measured-emulated", armFpgaEngine.get("speed_source").asText(), armFpgaEngine.toString());
        assertEquals(true, armFpgaEngine.get("simulated").asBoolean(), armFpgaEngine.toString());
        assertTrue(armFpgaEngine.get("speed_given").asDouble() > 0, armFpgaEngine.toString());
        assertTrue(armFpgaEngine.get("values_hashed").asLong() >= 1L << 18, armFpgaEngine.toString());
        // what the ARM-FPGA node's devices loaded is the armhf build of the model (a 32-bit ARM ELF), not the launcher's
        int armModels = 0;
        for (int i = 0; i < 2; i++) {
            Path model = cluster.device(i).resolve("model.so");
            if (Files.exists(model)) {
                byte[] head = Arrays.copyOf(Files.readAllBytes(model), 20);
                assertEquals(1, head[4], model + ": ELF class (1: 32-bit)");
                assertEquals(40, head[18], model + ": ELF machine (40: ARM)");
                armModels++;
            }
        }
        assertTrue(armModels >= 1, "no device of the ARM-FPGA node loaded a model");
    }

    @Test
    void theApplicationMasterAndTheReducersRunOnTheX86Node() throws Exception {
        // One map (2^18 values, one unit), asking for the framework's slot as the AM and the reducers do,
        // so on the x86 node: this test is about where the job's own tasks run, and an emulated bench map
        // (an armhf JVM's start, then 2^18 pairs collected under QEMU) was most of its time where it
        // landed on an ARM node. The AM and the reducers get no such help: they ask as every job does.
        String target = Fpgamr.md5Hex(0x4242, 18);
        Path json = tmp.resolve("arm-bench.json");
        String out = "/fpgamr-it/arm-bench";
        Fpgamr.Result r = Fpgamr.run(tmp, cluster.job("bench", "-D", MRJobConfig.MAP_RESOURCE_TYPE_PREFIX + EmbeddedCluster.FRAMEWORK_RESOURCE
            + "=1", target, "--bits", "18", "--reducers", "2", "--repeat", "1", "--output", out, "--summary-json", json.toString()));
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(Fpgamr.potLine(0x4242, 18)), r.outLines());
        JsonNode s = Fpgamr.summary(json);
        assertEquals(1L << 18, s.get("values_hashed").asLong());
        String x86Host = x86Host();
        List<TaskSpan> spans = cluster.spans(s.get("job_id").asText(), out);
        List<TaskSpan> reduces = spans.stream().filter(t -> !t.isMap()).toList();
        assertEquals(2, reduces.size(), reduces.toString());
        // the map asked for the framework's slot: it ran there too (else the pin above did not hold)
        List<TaskSpan> maps = spans.stream().filter(TaskSpan::isMap).toList();
        assertEquals(1, maps.size(), maps.toString());
        assertEquals(x86Host, TaskSpan.host(maps.get(0).node()), maps.toString());
        for (TaskSpan t : reduces) {
            assertEquals(x86Host, TaskSpan.host(t.node()), t.toString());
        }
        // the job's history names the node its ApplicationMaster ran on
        String history = cluster.finishedJob(s.get("job_id").asText()).getStatus().getHistoryFile();
        org.apache.hadoop.fs.Path historyFile = new org.apache.hadoop.fs.Path(history);
        JobHistoryParser.JobInfo info = new JobHistoryParser(historyFile.getFileSystem(cluster.conf()), historyFile).parse();
        assertEquals(x86Host, info.getAMInfos().get(0).getNodeManagerHost(), info.getAMInfos().toString());
    }
}
