package io.fpgamr.it;

import static io.fpgamr.it.StandingCluster.assertNoAssignmentWhileUnhealthy;
import static io.fpgamr.it.StandingCluster.await;
import static io.fpgamr.it.StandingCluster.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fpgamr.energy.TaskSpan;
import io.fpgamr.it.StandingCluster.DeviceEvent;
import io.fpgamr.it.StandingCluster.Run;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerReport;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Faults, for real, on the embedded heterogeneous cluster (in a process of its own, as
 * {@link FpgaSchedulingTest}'s): a map task's JVM killed mid-job, a simulated FPGA that fails
 * mid-batch (a DMA error, a hang: faults the Verilated device injects through its driver spec),
 * simulated FPGAs that do not stop their job at all (wedged), and the FPGA node's NodeManager
 * stopped mid-job. Each time the job succeeds with the same preimages
 * and every value hashed exactly once, as the job's own counters (only the attempts that succeeded
 * count) and its timeline show. The NodeManager goes last but one: the cluster has no FPGA node
 * after it. Last, the cluster's process gets a SIGTERM mid-job (a Ctrl-C): its containers' JVMs
 * must end with it and its directory must go.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultsTest extends OnStandingCluster {
    /** A search whose maps each take seconds (pure Java hashing): long enough to be caught mid-map. */
    private static final int JAVA_BITS = 24;

    private CompletableFuture<Run> javaSearch(String name, int maps) {
        return searchInBackground(name, JAVA_BITS, "--accel", "java", "--maps", Integer.toString(maps));
    }

    /** The map spans of a finished job: each map task exactly once, on the nodes it really finished on. */
    private List<TaskSpan> mapSpans(Run run, int maps) throws IOException, InterruptedException {
        List<TaskSpan> spans = cluster.spans(run).stream().filter(TaskSpan::isMap).toList();
        assertEquals(maps, spans.size(), spans.toString());
        assertEquals(maps, spans.stream().map(TaskSpan::task).distinct().count(), spans.toString());
        return spans;
    }

    /** A running map container of the one running job: its id and the node it runs on. */
    private Optional<ContainerReport> runningMap(String onNode) throws Exception {
        for (ApplicationReport app : cluster.yarn().getApplications(EnumSet.of(YarnApplicationState.RUNNING))) {
            ApplicationAttemptId attempt = app.getCurrentApplicationAttemptId();
            ContainerId am = cluster.yarn().getApplicationAttemptReport(attempt).getAMContainerId();
            for (ContainerReport c : cluster.yarn().getContainers(attempt)) {
                if (c.getContainerState() == ContainerState.RUNNING && !c.getContainerId().equals(am)
                    && (onNode == null || c.getAssignedNode().toString().equals(onNode))) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The JVM a NodeManager launched for a container: the pid it recorded for the container
     * ({@code <container>.pid} among its private files), or the java process under it.
     */
    private Optional<ProcessHandle> jvmOf(ContainerId container) {
        String pidFile = container + ".pid";
        Optional<Path> file;
        try (Stream<Path> walk = Files.walk(cluster.daemonsDir())) {
            file = walk.filter(p -> p.getFileName().toString().equals(pidFile)).findFirst();
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty(); // a file vanished while walking: look again
        }
        if (file.isEmpty()) {
            return Optional.empty();
        }
        long pid;
        try {
            String text = Files.readString(file.get()).strip();
            if (text.isEmpty()) {
                return Optional.empty();
            }
            pid = Long.parseLong(text);
        } catch (IOException e) {
            return Optional.empty();
        }
        return ProcessHandle.of(pid)
            .flatMap(p -> StandingCluster.isJava(p) ? Optional.of(p) : p.descendants().filter(StandingCluster::isJava).findFirst());
    }

    @Test
    @Order(1)
    void aMapJvmKilledMidJobIsRunAgainAndNothingIsLostOrCountedTwice() throws Exception {
        int maps = 4;
        CompletableFuture<Run> job = javaSearch("killed-jvm", maps);
        ProcessHandle[] killed = new ProcessHandle[1];
        await("a running map's JVM", 300_000, () -> {
            if (job.isDone()) {
                return true;
            }
            Optional<ContainerReport> map = runningMap(null);
            Optional<ProcessHandle> jvm = map.flatMap(c -> jvmOf(c.getContainerId()));
            if (jvm.isPresent() && jvm.get().destroyForcibly()) {
                killed[0] = jvm.get();
                return true;
            }
            return false;
        });
        assertTrue(killed[0] != null, "the job ended before a map's JVM could be killed");
        await("the killed JVM gone", 60_000, () -> !killed[0].isAlive());

        Run run = job.get();
        cluster.assertFoundEverything(run, JAVA_BITS);
        Job j = cluster.finishedJob(run.jobId());
        assertEquals(1, j.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue(), "the killed attempt failed, and only it");
        assertEquals(maps, j.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue() - 1, "one map ran twice");
        mapSpans(run, maps);
    }

    @Test
    @Order(2)
    void anFpgaThatFailsMidBatchIsTakenOutItsBatchRedoneAndItComesBack() throws Exception {
        for (String fault : List.of("fault=dma_error@2", "fault=hang@2,timeout_ms=3000")) {
            int bits = 21;
            // static splits of 2^19 values each: two device batches per map, the second fails (a map
            // streamed its work would hash one batch on a simulated FPGA and claim little more)
            int maps = 4;
            long since = System.currentTimeMillis();
            for (int d = 0; d < DEVICES; d++) {
                Files.writeString(cluster.device(d).resolve("options"), fault + "\n");
            }
            String name = fault.substring("fault=".length(), fault.indexOf('@'));
            CompletableFuture<Run> job = searchInBackground("fpga-" + name, bits, "--accel", "auto", "--maps", Integer.toString(maps),
                "--balance", "static", "--design", "vsim-p4");
            AtomicLong fewest = cluster.fewestFpgasWhile(fpgaNode, job);
            // Once a device is out of service its fault is cleared, so that it comes back sound.
            boolean[] cleared = new boolean[DEVICES];
            await("the job with " + fault, 600_000, () -> {
                for (int d = 0; d < DEVICES; d++) {
                    if (!cleared[d] && count(cluster.events(d, since), e -> e.name().equals("unhealthy")) > 0) {
                        Files.deleteIfExists(cluster.device(d).resolve("options"));
                        cleared[d] = true;
                    }
                }
                return job.isDone();
            });
            Run run = job.get();
            for (int d = 0; d < DEVICES; d++) {
                Files.deleteIfExists(cluster.device(d).resolve("options"));
            }

            cluster.assertFoundEverything(run, bits);
            long faults = 0;
            List<Integer> faulty = new ArrayList<>();
            for (int d = 0; d < DEVICES; d++) {
                List<DeviceEvent> log = cluster.events(d, since);
                long f = count(log, e -> e.name().equals("fault"));
                if (f > 0) {
                    faulty.add(d);
                    assertTrue(count(log, e -> e.name().equals("unhealthy")) >= 1, fault + ": vsim" + d + " failed but stayed in: " + log);
                }
                assertNoAssignmentWhileUnhealthy(log);
                faults += f;
            }
            if (faulty.isEmpty()) {
                // say where the maps ran and what each device logged, so that a run that used no device explains itself
                StringBuilder where = new StringBuilder();
                for (TaskSpan s : cluster.spans(run)) {
                    where.append("\n  ").append(s);
                }
                for (int d = 0; d < DEVICES; d++) {
                    where.append("\n  vsim").append(d).append(": ").append(cluster.events(d, since));
                }
                fail(fault + ": no device failed under a map; the tasks and the devices' logs:" + where);
            }
            Job j = cluster.finishedJob(run.jobId());
            assertEquals(faults, j.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue(),
                fault + ": every failed attempt was a faulty device's, and its batch was redone");
            assertTrue(fewest.get() < DEVICES, fault + ": the ResourceManager counted the healthy devices only, saw " + fewest.get());
            mapSpans(run, maps);

            await("the devices back after " + fault, RECOVERY_MS + 60_000, () -> {
                for (int d : faulty) {
                    if (count(cluster.events(d, since), e -> e.name().equals("healthy")) == 0) {
                        return false;
                    }
                }
                return cluster.fpgasByNode().get(fpgaNode) == DEVICES;
            });
        }
    }

    /**
     * Both simulated FPGAs wedged by their own fault hook (wedge@1: from the first job on, the
     * device's memory takes requests and answers none, and no ABORT releases it): each map's search
     * times out, its engine's close waits the driver's 5 s stop and finds the device wedged, which
     * the driver keeps in the device's state file; the map fails. Each device leaves YARN's offer
     * with one line in the NodeManager's log (the node offers no FPGA at all for a while), comes back
     * once its recovery loaded its model again (the hook cleared meanwhile), and the failed maps run
     * again: the job finds exactly the planted values and hashes every value once.
     */
    @Test
    @Order(3)
    void fpgasWedgedByTheirOwnFaultHookLeaveTheOfferAndTheJobStillFindsEverything() throws Exception {
        int bits = 19;
        int maps = 2; // 2^18 values each (a map's split is at least one engine batch)
        long since = System.currentTimeMillis();
        long logFrom = Files.size(cluster.log());
        for (int d = 0; d < DEVICES; d++) {
            Files.writeString(cluster.device(d).resolve("options"), "timeout_ms=300,fault=wedge@1\n");
        }
        // every map on an FPGA, one on each device; static splits, one device batch each
        CompletableFuture<Run> job = searchInBackground("fpga-wedge", bits, "--accel", "fpga", "--maps", Integer.toString(maps),
            "--balance", "static", "--design", "vsim-p4");
        AtomicLong fewest = cluster.fewestFpgasWhile(fpgaNode, job);
        String[] state = new String[DEVICES];
        await("the job with wedged FPGAs", 300_000, () -> {
            for (int d = 0; d < DEVICES; d++) {
                if (state[d] == null && count(cluster.events(d, since), e -> e.name().equals("unhealthy")) > 0) {
                    // out of the offer: its state as the driver left it, before the recovery's reload writes idle
                    state[d] = Files.readString(cluster.device(d).resolve("state"));
                    Files.deleteIfExists(cluster.device(d).resolve("options"));
                }
            }
            return job.isDone();
        });
        Run run = job.get();
        for (int d = 0; d < DEVICES; d++) {
            Files.deleteIfExists(cluster.device(d).resolve("options"));
        }

        cluster.assertFoundEverything(run, bits);
        String wedged = "wedged: the device did not stop its job within 5000 ms (JOBS_STARTED 0x00000001 of 0x00000001, STATUS 0x";
        String nodeManagerLog;
        try (InputStream in = Files.newInputStream(cluster.log())) {
            in.skipNBytes(logFrom);
            nodeManagerLog = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (int d = 0; d < DEVICES; d++) {
            assertTrue(state[d] != null && state[d].startsWith(wedged) && state[d].endsWith(")\n"), "vsim" + d + "'s state: " + state[d]);
            String leaves = "vsim" + d + " leaves the FPGA offer: ";
            List<String> lines = nodeManagerLog.lines().filter(l -> l.contains(leaves)).toList();
            assertEquals(1, lines.size(), "one line in the NodeManager's log: " + lines);
            assertTrue(lines.get(0).contains(wedged), lines.get(0));
            List<DeviceEvent> log = cluster.events(d, since);
            assertEquals(1, count(log, e -> e.name().equals("fault")), "vsim" + d + ": one map failed on it: " + log);
            assertNoAssignmentWhileUnhealthy(log);
        }
        assertEquals(0, fewest.get(), "the ResourceManager counted no FPGA on the node while both were wedged");
        Job j = cluster.finishedJob(run.jobId());
        assertEquals(DEVICES, j.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue(), "the two wedged maps failed, and only they");
        mapSpans(run, maps);

        await("the devices back", RECOVERY_MS + 60_000, () -> cluster.fpgasByNode().get(fpgaNode) == DEVICES);
    }

    @Test
    @Order(4)
    void theFpgaNodeStoppedMidJobTheJobCompletesOnTheOtherNode() throws Exception {
        int maps = 6;
        CompletableFuture<Run> job = javaSearch("node-stopped", maps);
        await("a map running on the FPGA node", 300_000, () -> job.isDone()
            || runningMap(fpgaNode).flatMap(c -> jvmOf(c.getContainerId())).isPresent());
        assertFalse(job.isDone(), "the job ended before a map ran on the FPGA node");
        long stoppedMs = System.currentTimeMillis();
        cluster.stopFpgaNode();
        await("the ResourceManager without the FPGA node", 120_000, () -> !cluster.fpgasByNode().containsKey(fpgaNode));

        Run run = job.get();
        cluster.assertFoundEverything(run, JAVA_BITS);
        List<TaskSpan> spans = mapSpans(run, maps);
        for (TaskSpan s : spans) {
            assertTrue(!s.node().equals(fpgaNode) || s.endMs() <= stoppedMs, "a map finished on the stopped node: " + s);
        }
        assertTrue(spans.stream().anyMatch(s -> !s.node().equals(fpgaNode) && s.startMs() >= stoppedMs),
            "the maps of the stopped node ran again on the other: " + spans);
    }

    @Test
    @Order(5)
    void theClusterTerminatedMidJobLeavesNoContainerJvmAndNoDirectory() throws Exception {
        // The client gives up seconds after the cluster is gone (Hadoop's default: retry 15 minutes).
        String[] args = cluster.job("search", "-D", "yarn.resourcemanager.connect.max-wait.ms=3000", "-D",
            "ipc.client.connect.max.retries=1", StandingCluster.TARGET_VALUE_HEX, "--bits", Integer.toString(JAVA_BITS),
            "--accel", "java", "--maps", "6", "--output", "/fpgamr-it/terminated");
        CompletableFuture<Fpgamr.Result> job = CompletableFuture.supplyAsync(() -> {
            try {
                return Fpgamr.run(tmp, args);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await("a map running", 300_000, () -> job.isDone() || runningMap(null).flatMap(c -> jvmOf(c.getContainerId())).isPresent());
        assertFalse(job.isDone(), "the job ended before a map ran");
        List<ProcessHandle> containers = cluster.containerJvms();
        assertTrue(containers.size() >= 2, "the MR AM and a map: " + containers);

        cluster.terminate();
        await("the containers' JVMs gone", 60_000, () -> containers.stream().noneMatch(ProcessHandle::isAlive));
        try (Stream<Path> left = Files.list(cluster.daemonsDir())) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("fpgamr-embedded-")).toList());
        }
        assertNotEquals(0, job.get().code(), job.get().err());
    }
}
