package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.md5.job.TaskSpans;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thesis's x86 and ARM node types in one job, on the embedded cluster ({@code --nodes x86,arm}):
 * the ARM node's containers run Debian's armhf JVM under QEMU user-mode emulation of a Cortex-A9
 * and hash on the linux-armhf library's NEON kernels; the ApplicationMaster and the reducers stay on
 * the x86 node. Needs the armhf root {@code make test} makes ({@code bin/armhf-root}). Emulation is
 * slow: small domains. Time budget about 6 minutes on 2 shared cores (339 s measured with other
 * builds running: the cluster with its ARM node's emulated profile, a search over 2^20 of about
 * 2 minutes, a bench over 2^19 of about 3; the emulated task JVMs' start is most of it).
 */
class ArmNodesTest {
    private static final int BITS = 20;

    @TempDir
    static Path tmp;
    private static StandingCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = StandingCluster.start(tmp, "x86,arm", 2);
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Per node type, the node (host:port) that summary's maps_by_node gives it. */
    private static Map<String, String> nodesByType(JsonNode summary) {
        Map<String, String> byType = new HashMap<>();
        summary.get("maps_by_node").fields().forEachRemaining(e -> byType.put(e.getValue().get("type").asText(), e.getKey()));
        return byType;
    }

    @Test
    void aSearchFindsThePlantedValuesAndBothNodeTypesHashOnTheirOwnPlatform() throws Exception {
        StandingCluster.Run run = cluster.search(tmp, "arm-search", BITS);
        cluster.assertFoundEverything(run, BITS);
        JsonNode s = run.summary();
        Map<String, String> byType = nodesByType(s);
        assertEquals(2, s.get("maps_by_node").size(), s.get("maps_by_node").toString());
        JsonNode x86 = s.get("maps_by_node").get(byType.get("x86"));
        JsonNode arm = s.get("maps_by_node").get(byType.get("arm"));
        assertTrue(x86 != null && arm != null, s.get("maps_by_node").toString());
        assertEquals("amd64", x86.get("os_arch").asText());
        assertEquals("linux-x86_64", x86.get("native_platform").asText());
        assertEquals(false, x86.get("emulated").asBoolean());
        // the ARM node's maps saw an armhf JVM, loaded the armhf library, and know they were emulated
        assertEquals("arm", arm.get("os_arch").asText());
        assertEquals("linux-armhf", arm.get("native_platform").asText());
        assertEquals(true, arm.get("emulated").asBoolean());
        assertTrue(run.result().err().contains("(arm, os.arch arm, linux-armhf, emulated): "), run.result().err());
        // every node type hashed values, and together exactly the domain, each value once
        JsonNode nodes = s.get("balance").get("nodes");
        long sum = 0;
        for (String node : List.of(byType.get("x86"), byType.get("arm"))) {
            long v = nodes.get(node).get("values_hashed").asLong();
            assertTrue(v > 0, node + " hashed nothing: " + nodes);
            sum += v;
        }
        assertEquals(1L << BITS, sum, nodes.toString());
        // the ARM node's speed is its emulated JVM's, measured, and says so
        JsonNode armCpu = nodes.get(byType.get("arm")).get("engines").get(0);
        assertEquals("measured-emulated", armCpu.get("speed_source").asText(), armCpu.toString());
        assertEquals("cpu_neon", armCpu.get("engine").asText(), armCpu.toString());
        assertEquals("measured", nodes.get(byType.get("x86")).get("engines").get(0).get("speed_source").asText());
    }

    @Test
    void theApplicationMasterAndTheReducersRunOnTheX86Node() throws Exception {
        String target = Fpgamr.md5Hex(0x4242, 19);
        Path json = tmp.resolve("arm-bench.json");
        String out = "/fpgamr-it/arm-bench";
        Fpgamr.Result r = Fpgamr.run(tmp, cluster.job("bench", target, "--bits", "19", "--reducers", "2", "--repeat", "1", "--output", out,
            "--summary-json", json.toString()));
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(Fpgamr.potLine(0x4242, 19)), r.outLines());
        JsonNode s = Fpgamr.summary(json);
        assertEquals(1L << 19, s.get("values_hashed").asLong());
        String x86Host = TaskSpan.host(nodesByType(s).get("x86"));
        List<TaskSpan> reduces = TaskSpans.read(FileSystem.get(cluster.conf()), new org.apache.hadoop.fs.Path(out)).stream()
            .filter(t -> !t.isMap()).toList();
        assertEquals(2, reduces.size(), reduces.toString());
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
