package io.fpgamr.it;

import static io.fpgamr.it.StandingCluster.assertNoAssignmentWhileUnhealthy;
import static io.fpgamr.it.StandingCluster.await;
import static io.fpgamr.it.StandingCluster.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.it.StandingCluster.DeviceEvent;
import io.fpgamr.it.StandingCluster.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocol;
import org.apache.hadoop.yarn.server.api.protocolrecords.AttributeMappingOperationType;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeToAttributes;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodesToAttributesMappingRequest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * FPGA scheduling on a heterogeneous YARN cluster: the embedded cluster (a CPU NodeManager and an
 * FPGA NodeManager with two simulated devices behind yarn-fpga-resource), started once, in a
 * process of its own; jobs go to it through bin/fpgamr as to any cluster. What the FPGA node did
 * is read from its devices' logs (loads, assignments, faults, health), what the ResourceManager
 * counts from the ResourceManager, and where and when each map ran from the job's task spans.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FpgaSchedulingTest extends OnStandingCluster {
    // ---- helpers

    /** The job (job_X_N) a container (container_X_N_..., container_eA_X_N_...) belongs to. */
    private static String jobOf(String container) {
        Matcher m = Pattern.compile("_(\\d{10,})_(\\d+)_\\d+_\\d+$").matcher(container);
        assertTrue(m.find(), container);
        return "job_" + m.group(1) + "_" + m.group(2);
    }

    /** The design's hash prefix from the summary's "design": "md5acc-vsim-p4 (vsim, 4 pipelines, sha256 0123456789ab)". */
    private static String designSha(JsonNode summary) {
        Matcher m = Pattern.compile("sha256 ([0-9a-f]{12})").matcher(summary.get("design").asText());
        assertTrue(m.find(), summary.toString());
        return m.group(1);
    }

    /** The most spans that overlap at any instant. */
    private static int maxOverlap(List<TaskSpan> spans) {
        List<long[]> edges = new ArrayList<>();
        for (TaskSpan s : spans) {
            edges.add(new long[] {s.startMs(), 1});
            edges.add(new long[] {s.endMs(), -1});
        }
        edges.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        int now = 0;
        int max = 0;
        for (long[] e : edges) {
            now += (int) e[1];
            max = Math.max(max, now);
        }
        return max;
    }

    // ---- the tests

    private static final int TWO_JOBS_BITS = 22;
    private static final int TWO_JOBS_MAPS = 4;

    /** Two --accel fpga jobs at once, one with the 1-pipeline design, one with the 4-pipeline design. */
    private record TwoJobs(long since, Map<Integer, String> heldBefore, Run p1, Run p4) {
    }

    private TwoJobs twoJobs;

    private TwoJobs twoJobs() throws Exception {
        if (twoJobs == null) {
            long since = System.currentTimeMillis();
            Map<Integer, String> heldBefore = new HashMap<>();
            for (int d = 0; d < DEVICES; d++) {
                Path design = cluster.device(d).resolve("design.properties");
                java.util.Properties p = new java.util.Properties();
                if (Files.exists(design)) {
                    try (var in = Files.newInputStream(design)) {
                        p.load(in);
                    }
                }
                heldBefore.put(d, p.getProperty("sha256", "-"));
            }
            String maps = Integer.toString(TWO_JOBS_MAPS);
            CompletableFuture<Run> one = searchInBackground("design-p1", TWO_JOBS_BITS, "--accel", "fpga", "--maps", maps, "--design",
                "vsim-p1");
            Run p4 = search("design-p4", TWO_JOBS_BITS, "--accel", "fpga", "--maps", maps, "--design", "vsim-p4");
            twoJobs = new TwoJobs(since, heldBefore, one.get(), p4);
        }
        return twoJobs;
    }

    @Test
    @Order(1)
    void withAccelFpgaEveryMapRunsOnTheFpgaNodeAndNeverMoreAtOnceThanItsDevices() throws Exception {
        TwoJobs jobs = twoJobs();
        List<TaskSpan> spans = new ArrayList<>();
        for (Run run : List.of(jobs.p1(), jobs.p4())) {
            cluster.assertFoundEverything(run, TWO_JOBS_BITS);
            List<TaskSpan> maps = cluster.spans(run.output()).stream().filter(TaskSpan::isMap).toList();
            assertEquals(TWO_JOBS_MAPS, maps.size());
            for (TaskSpan s : maps) {
                assertEquals(fpgaNode, s.node(), "map " + s.task() + " ran on " + s.node());
                assertEquals("fpga", s.hardware(), "map " + s.task() + " hashed on " + s.hardware());
                assertTrue(s.simulated(), "map " + s.task() + " says its FPGA was simulated");
            }
            JsonNode byNode = run.summary().get("maps_by_node");
            assertEquals(1, byNode.size(), byNode.toString());
            assertEquals(TWO_JOBS_MAPS, byNode.get(fpgaNode).get("fpga").asInt(), byNode.toString());
            spans.addAll(maps);
        }
        // The FPGA node has memory and cores for 4 maps, and the two jobs 8 of them: only the devices limit.
        int overlap = maxOverlap(spans);
        assertTrue(overlap <= DEVICES, "at most " + DEVICES + " FPGA maps at once, saw " + overlap);
    }

    @Test
    @Order(2)
    void twoJobsWithTwoDesignsInterleaveAndADeviceLoadsOnlyOnARealSwitch() throws Exception {
        TwoJobs jobs = twoJobs();
        Run p1 = jobs.p1();
        Run four = jobs.p4();
        Map<String, String> designOfJob = Map.of(p1.jobId(), designSha(p1.summary()),
            four.jobId(), designSha(four.summary()));
        assertFalse(designSha(p1.summary()).equals(designSha(four.summary())));

        long loads = 0;
        long switches = 0;
        Map<String, long[]> jobSpan = new HashMap<>();
        for (int d = 0; d < DEVICES; d++) {
            String held = jobs.heldBefore().get(d);
            for (DeviceEvent e : cluster.events(d, jobs.since())) {
                if (e.name().equals("load")) {
                    loads++;
                } else if (e.name().equals("assign")) {
                    String job = jobOf(e.get("container"));
                    String want = e.get("want");
                    assertTrue(want.startsWith(designOfJob.get(job)), "vsim" + d + ": " + e + " is not " + job + "'s design");
                    assertEquals(want, e.get("holds"), "vsim" + d + " held the wrong design for " + e);
                    if (!want.equals(held)) {
                        switches++;
                        held = want;
                    }
                    jobSpan.computeIfAbsent(job, j -> new long[] {Long.MAX_VALUE, 0})[0] =
                        Math.min(jobSpan.get(job)[0], e.time());
                } else if (e.name().equals("release")) {
                    String job = jobOf(e.get("container"));
                    if (jobSpan.containsKey(job)) {
                        jobSpan.get(job)[1] = Math.max(jobSpan.get(job)[1], e.time());
                    }
                }
            }
        }
        assertEquals(switches, loads, "loads are exactly the design switches");
        assertTrue(switches >= 1, "the devices switched designs");
        assertEquals(2, jobSpan.size(), "both jobs ran on the FPGAs");
        long[] a = jobSpan.get(p1.jobId());
        long[] b = jobSpan.get(four.jobId());
        assertTrue(a[0] < b[1] && b[0] < a[1], "the two jobs held FPGAs at the same time: " + a[0] + ".." + a[1] + " and " + b[0] + ".." + b[1]);
    }

    @Test
    @Order(3)
    void withAccelAutoBothNodesTakeMapsAndTheResultIsTheSame() throws Exception {
        // More maps than either node has room for (the FPGA node: 4 and an AM), so both take some.
        int maps = 6;
        Run auto = search("auto", TWO_JOBS_BITS, "--accel", "auto", "--maps", Integer.toString(maps), "--design", "vsim-p4");
        cluster.assertFoundEverything(auto, TWO_JOBS_BITS);
        assertEquals(cluster.output(twoJobs().p4().output()), cluster.output(auto.output()), "the same as with --accel fpga");
        assertEquals(twoJobs().p4().summary().get("values_hashed"), auto.summary().get("values_hashed"));

        JsonNode byNode = auto.summary().get("maps_by_node");
        assertEquals(2, byNode.size(), "both nodes take maps: " + byNode);
        int all = 0;
        for (var e : (Iterable<Map.Entry<String, JsonNode>>) byNode::fields) {
            int cpu = e.getValue().get("cpu").asInt();
            int fpgaMaps = e.getValue().get("fpga").asInt();
            assertTrue(cpu + fpgaMaps > 0, byNode.toString());
            all += cpu + fpgaMaps;
            if (!e.getKey().equals(fpgaNode)) {
                assertEquals(0, fpgaMaps, "no FPGA on the CPU node: " + byNode);
            }
        }
        assertEquals(maps, all);
        assertTrue(byNode.get(fpgaNode).get("fpga").asInt() >= 1, "a free device on the FPGA node is used: " + byNode);
    }

    @Test
    @Order(4)
    void aDeviceThatFailsMidJobIsTakenOutAndItsTaskRetriedElsewhere() throws Exception {
        long since = System.currentTimeMillis();
        int bits = 21;
        int maps = 8;
        CompletableFuture<Run> job = searchInBackground("failure", bits, "--accel", "fpga", "--maps", Integer.toString(maps), "--design",
            "vsim-p4");
        AtomicLong fewest = cluster.fewestFpgasWhile(fpgaNode, job);

        // After vsim0 has done a map of this job, it fails: a stray process holds it (as a hung
        // program holds a board), so the next map given vsim0 cannot open it.
        await("a map on vsim0", 120_000, () -> count(cluster.events(0, since), e -> e.name().equals("release")) >= 1 || job.isDone());
        long injected = System.currentTimeMillis();
        Path dev0 = cluster.device(0);
        String spec = "fpga:vsim:pipelines=4,lib=" + dev0.resolve("model.so") + ",lock=" + dev0.resolve("lock");
        Md5Engine stray = null;
        while (stray == null && !job.isDone()) {
            try {
                stray = Engines.open(spec, 1);
            } catch (IllegalArgumentException busy) {
                Thread.sleep(50);
            }
        }
        try {
            await("vsim0 taken out", 120_000, () -> count(cluster.events(0, injected), e -> e.name().equals("unhealthy")) >= 1 || job.isDone());
        } finally {
            if (stray != null) {
                stray.close();
            }
        }
        Run run = job.get();
        cluster.assertFoundEverything(run, bits);

        List<DeviceEvent> log0 = cluster.events(0, injected);
        long faults = count(log0, e -> e.name().equals("fault"));
        assertTrue(faults >= 1, "vsim0 failed under a map: " + log0);
        assertTrue(count(log0, e -> e.name().equals("unhealthy")) >= 1, log0.toString());
        // Taken out: no container on vsim0 while it is unhealthy, and the ResourceManager counted one FPGA.
        assertNoAssignmentWhileUnhealthy(log0);
        assertEquals(DEVICES - 1, fewest.get(), "the ResourceManager counted the healthy devices only");

        // Retried elsewhere: every failed attempt was the faulty device's, and each task succeeded once, on an FPGA.
        Job j = cluster.finishedJob(run.jobId());
        assertEquals(faults, j.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
        List<TaskSpan> spans = cluster.spans(run.output()).stream().filter(TaskSpan::isMap).toList();
        assertEquals(maps, spans.size());
        assertEquals(maps, spans.stream().map(TaskSpan::task).distinct().count());
        for (TaskSpan s : spans) {
            assertEquals(fpgaNode, s.node());
            assertEquals("fpga", s.hardware());
        }

        // It recovers: reloaded, checked, and counted again.
        await("vsim0 back", RECOVERY_MS + 30_000, () -> count(cluster.events(0, injected), e -> e.name().equals("healthy")) >= 1
            && cluster.fpgasByNode().get(fpgaNode) == DEVICES);
        Map<String, Long> now = new LinkedHashMap<>(cluster.fpgasByNode());
        assertEquals((long) DEVICES, now.get(fpgaNode), now.toString());
    }

    // ---- work follows speed (the job streams its work units to the maps: mr-md5/README.md)

    /** The values of one work unit: a batch of the accelerator. */
    private static final long UNIT = 1L << 18;

    @Test
    @Order(5)
    void theWorkFollowsEachEnginesSpeedAndEveryValueIsHashedOnce() throws Exception {
        // make run's job: 2^28 values, the simulated FPGAs (three orders slower than a CPU map) beside the CPUs
        int bits = 28;
        Run run = search("follows-speed", bits, "--accel", "auto", "--design", "vsim-p4");
        cluster.assertFoundEverything(run, bits);
        List<TaskSpan> maps = cluster.spans(run.output()).stream().filter(TaskSpan::isMap).toList();
        assertEquals(1L << bits, maps.stream().mapToLong(TaskSpan::values).sum(), "the maps' values, as their engines counted them");
        List<TaskSpan> fpgaMaps = maps.stream().filter(TaskSpan::onFpga).toList();
        assertEquals(DEVICES, fpgaMaps.size(), "each simulated FPGA ran a map: " + maps);
        // What a map's speed earns is its speed times the time it had, from its start to the end of the
        // pool's work: all maps that take from the pool end together (seed 004). A map that stopped early,
        // idle while others still hashed, or one that took more than it could finish in time (and so set
        // the end), is off by more than one of its own work units: its smallest claim, a unit or a quarter
        // second of its work, whichever is more, and as much again for the end's bookkeeping. A map that
        // hashed only its reserved unit (every engine hashes one, even one that starts after the pool is
        // empty) took nothing from the pool.
        for (TaskSpan m : maps) {
            assertTrue(m.values() >= UNIT, m.task() + " hashed at least its reserved unit: " + maps);
        }
        List<TaskSpan> claimers = maps.stream().filter(m -> m.values() > UNIT).toList();
        assertFalse(claimers.isEmpty(), maps.toString());
        long poolEnd = claimers.stream().mapToLong(TaskSpan::endMs).max().orElseThrow();
        // The really slower node (the simulated FPGAs): each of its maps hashed within one of its own
        // work units (and as much again for the end's bookkeeping) of what its speed earns by the
        // pool's end. The CPU maps' speeds over their spans vary too much on a 2-core CI machine whose
        // other lane builds and simulates beside the job for the same bound (seen: 20% off); how close
        // they end is make bench-balance's straggler figure, a benchmark.
        for (TaskSpan m : fpgaMaps) {
            double speed = speed(m);
            double earned = speed * (poolEnd - m.readyMs()) / 1000.0;
            double unit = 2 * Math.max(UNIT, speed * 0.25);
            assertTrue(Math.abs(earned - m.values()) <= unit, m.task() + " on " + m.node() + " (" + m.hardware() + ") hashed " + m.values()
                + ", its speed earns " + (long) earned + " by the pool's end: " + maps);
        }
        JsonNode balance = run.summary().get("balance");
        assertEquals("stream", balance.get("design").asText());
        JsonNode fpga = balance.get("nodes").get(fpgaNode).get("engines");
        long fpgaValues = 0;
        for (JsonNode e : fpga) {
            if (e.get("kind").asText().equals("fpga")) {
                assertTrue(e.get("simulated").asBoolean(), fpga.toString());
                assertEquals("measured", e.get("speed_source").asText(), fpga.toString());
                fpgaValues = e.get("values_hashed").asLong();
            }
        }
        assertEquals(fpgaMaps.stream().mapToLong(TaskSpan::values).sum(), fpgaValues, balance.toString());
        assertTrue(fpgaValues >= DEVICES * UNIT, "the simulated FPGAs' share is above zero: " + balance);
    }

    /** A map's speed in the job: its values over its time from its setup (its engine open) to its end. */
    private static double speed(TaskSpan m) {
        return m.values() * 1000.0 / Math.max(1, m.endMs() - m.readyMs());
    }

    @Test
    @Order(6)
    void aSpeculativeAttemptOfAMapCountsItsWorkOnce() throws Exception {
        // Hadoop's speculator with a test plugin that adds a second attempt of map 0 as soon as it runs
        // (on the test class path: the cluster's containers run on it); pure Java maps over 2^27 values,
        // ten seconds or more each, so that the first attempt still runs when the second has been given a
        // container and started (2^25 was not enough on a loaded 2-core CI machine: the speculative
        // attempt was killed before it launched).
        int bits = 27;
        Run run = search("speculative", bits, "--accel", "java", "--maps", "2", "-D", "mapreduce.map.speculative=true",
            "-D", "yarn.app.mapreduce.am.job.speculator.class=" + ForcedSpeculator.class.getName());
        cluster.assertFoundEverything(run, bits);
        JsonNode attempts = run.summary().get("map_attempts");
        assertEquals(3, attempts.get("launched").asLong(), "two maps and a speculative attempt: " + attempts);
        // the attempt that lost the race is killed, unless it had ended its work before the AM's kill
        // reached it (seen on a loaded machine); either way its task's work is counted once (below)
        assertTrue(attempts.get("killed").asLong() <= 1, "at most the attempt that lost the race killed: " + attempts);
        assertEquals(0, attempts.get("failed").asLong(), attempts.toString());
        List<TaskSpan> maps = cluster.spans(run.output()).stream().filter(TaskSpan::isMap).toList();
        assertEquals(2, maps.size(), maps.toString());
        assertEquals(1L << bits, maps.stream().mapToLong(TaskSpan::values).sum(), maps.toString());
    }

    @Test
    @Order(7)
    void anOperatorsSpeedWinsOverTheNodesOwn() throws Exception {
        // the CPU node's speed set by an operator as YARN's centralized node attribute (what
        // `yarn nodeattributes -replace HOST:fpgamr-cpu-search=1.5e8` asks the ResourceManager for),
        // beside the ones the node publishes
        String cpuNode = cluster.fpgasByNode().keySet().stream().filter(n -> !n.equals(fpgaNode)).findFirst().orElseThrow();
        String host = cpuNode.substring(0, cpuNode.lastIndexOf(':'));
        ResourceManagerAdministrationProtocol admin = ClientRMProxy.createRMProxy(new YarnConfiguration(cluster.conf()),
            ResourceManagerAdministrationProtocol.class);
        admin.mapAttributesToNodes(NodesToAttributesMappingRequest.newInstance(AttributeMappingOperationType.REPLACE, List.of(
            NodeToAttributes.newInstance(host, List.of(NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED, "fpgamr-cpu-search",
                NodeAttributeType.STRING, "1.5e8")))), true));
        try {
            Run run = search("operator-speed", 20, "--accel", "auto");
            cluster.assertFoundEverything(run, 20);
            JsonNode cpu = run.summary().get("balance").get("nodes").get(cpuNode).get("engines").get(0);
            assertEquals("cpu", cpu.get("kind").asText(), cpu.toString());
            assertEquals(1.5e8, cpu.get("speed_given").asDouble(), cpu.toString());
            assertEquals("operator", cpu.get("speed_source").asText(), cpu.toString());
            JsonNode fpgaCpu = run.summary().get("balance").get("nodes").get(fpgaNode).get("engines").get(0);
            assertEquals("measured", fpgaCpu.get("speed_source").asText(), "the other node keeps its own: " + fpgaCpu);
        } finally {
            admin.mapAttributesToNodes(NodesToAttributesMappingRequest.newInstance(AttributeMappingOperationType.REPLACE,
                List.of(NodeToAttributes.newInstance(host, List.of())), true));
        }
    }
}
