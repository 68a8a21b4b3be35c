package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.accel.design.FpgaContainer;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.md5.cluster.EmbeddedCluster;
import io.fpgamr.md5.job.TaskSpans;
import io.fpgamr.md5.run.JvmOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * The embedded heterogeneous cluster of this checkout (a CPU NodeManager, an FPGA NodeManager with
 * simulated devices) running in a process of its own, as {@code EmbeddedClusterProcess --client-conf}
 * starts it, for jobs submitted through {@code bin/fpgamr -conf FILE ... --cluster conf}. Tests
 * read what the FPGA node did from its devices' state directories (their event logs) and ask the
 * ResourceManager what it counts; waiting is always for what a daemon answers, never a fixed sleep.
 */
final class StandingCluster implements AutoCloseable {
    /** The values the searches of these tests plant: the thesis's example, and one near the domain's end. */
    static final String TARGET_VALUE_HEX = "096822475dd517c1089f4b58c7f346ef";

    private final Process process;
    private final Path dir;
    private final Path clientConf;
    private final Configuration conf;
    private final Path fpgaState;
    private final YarnClient yarn;

    private StandingCluster(Process process, Path dir, Path clientConf) {
        this.process = process;
        this.dir = dir;
        this.clientConf = clientConf;
        this.conf = new Configuration(false);
        conf.addResource(new org.apache.hadoop.fs.Path(clientConf.toUri()));
        this.fpgaState = Path.of(conf.get(EmbeddedCluster.FPGA_STATE_KEY));
        this.yarn = YarnClient.createYarnClient();
        yarn.init(conf);
        yarn.start();
    }

    /** Starts the cluster with {@code devices} simulated FPGAs and the given NodeManager settings ({@code -D k=v}). */
    static StandingCluster start(Path dir, int devices, Map<String, String> settings) throws Exception {
        return start(dir, devices, settings, List.of());
    }

    /** Starts the cluster of the given node types ({@code --nodes x86,arm}), each FPGA node with {@code devices} simulated FPGAs. */
    static StandingCluster start(Path dir, String nodes, int devices) throws Exception {
        return start(dir, devices, Map.of(), List.of("--nodes", nodes));
    }

    private static StandingCluster start(Path dir, int devices, Map<String, String> settings, List<String> more) throws Exception {
        Path root = Fpgamr.ROOT;
        Path jar = null;
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(root.resolve("mr-md5/target"), "mr-md5-*.jar")) {
            for (Path j : jars) {
                if (!j.getFileName().toString().contains("original") && !j.getFileName().toString().contains("sources")) {
                    jar = j;
                }
            }
        }
        if (jar == null) {
            throw new IllegalStateException("mr-md5 is not built");
        }
        Path clientConf = dir.resolve("cluster.xml");
        Path tmp = dir.resolve("tmp");
        Files.createDirectories(tmp);
        List<String> cmd = new ArrayList<>(List.of("java", "-Djava.io.tmpdir=" + tmp, "-Dlog4j.configuration=fpgamr-log4j.properties",
            "-Dfpgamr.log.file=" + dir.resolve("cluster.log")));
        cmd.addAll(List.of(JvmOptions.JDK17_OPENS.split(" ")));
        // The tests' own classes last (as bin/fpgamr puts HADOOP_CLASSPATH): the cluster's containers run on this class
        // path, so a test may plug a class of its own into them (ForcedSpeculator).
        cmd.addAll(List.of("-cp", jar + ":" + root.resolve("mr-md5/target/lib") + "/*:" + testClasses(), EmbeddedClusterProcess.class.getName()));
        settings.forEach((k, v) -> cmd.addAll(List.of("-D", k + "=" + v)));
        cmd.addAll(List.of("--client-conf", clientConf.toString(), "--fpga-devices", Integer.toString(devices)));
        cmd.addAll(more);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("cluster.out").toFile()).start();
        long deadline = System.currentTimeMillis() + 240_000;
        while (!Files.exists(clientConf)) {
            if (!p.isAlive() || System.currentTimeMillis() > deadline) {
                p.destroyForcibly();
                throw new IllegalStateException("the embedded cluster did not start: " + Files.readString(dir.resolve("cluster.out")));
            }
            Thread.sleep(250);
        }
        return new StandingCluster(p, dir, clientConf);
    }

    /** The folder of the integration tests' compiled classes, from this JVM's class path. */
    static String testClasses() {
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (e.endsWith("test-classes")) {
                return e;
            }
        }
        throw new IllegalStateException("no test-classes folder on the class path: " + System.getProperty("java.class.path"));
    }

    Configuration conf() {
        return conf;
    }

    /** The folder of the cluster's daemons (their temporary directories: HDFS, the NodeManagers' local dirs). */
    Path daemonsDir() {
        return dir.resolve("tmp");
    }

    YarnClient yarn() {
        return yarn;
    }

    /** bin/fpgamr's arguments for a job on this cluster: the subcommand, then -conf, then the rest. */
    String[] job(String subcommand, String... args) {
        List<String> a = new ArrayList<>(List.of(subcommand, "-conf", clientConf.toString()));
        a.addAll(List.of(args));
        a.addAll(List.of("--cluster", "conf"));
        return a.toArray(new String[0]);
    }

    /** A search run through bin/fpgamr: its result, its summary and its output directory on the cluster's HDFS. */
    record Run(Fpgamr.Result result, JsonNode summary, String output) {
        String jobId() {
            return Fpgamr.jobId(result.err());
        }
    }

    /**
     * Searches [0, 2^bits) for the two planted values on this cluster; the job must succeed. Hadoop's
     * generic options among {@code options} ({@code -D k=v}) go first, where Hadoop reads them.
     */
    Run search(Path workDir, String name, int bits, String... options) throws Exception {
        Path json = workDir.resolve(name + ".json");
        String out = "/fpgamr-it/" + name;
        List<String> args = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < options.length; i++) {
            if (options[i].equals("-D") && i + 1 < options.length) {
                args.addAll(List.of(options[i], options[++i]));
            } else {
                rest.add(options[i]);
            }
        }
        args.addAll(List.of(TARGET_VALUE_HEX, Fpgamr.md5Hex((1L << bits) - 7, bits), "--bits", Integer.toString(bits), "--output", out,
            "--summary-json", json.toString()));
        args.addAll(rest);
        Fpgamr.Result r = Fpgamr.run(workDir, job("search", args.toArray(new String[0])));
        assertEquals(0, r.code(), r.err());
        return new Run(r, Fpgamr.summary(json), out);
    }

    /** Output and counter of a correct search over 2^bits values: both planted values, every value hashed once. */
    void assertFoundEverything(Run run, int bits) throws IOException {
        List<String> expected = new ArrayList<>(List.of(Fpgamr.potLine(0x123, bits), Fpgamr.potLine((1L << bits) - 7, bits)));
        expected.sort(null);
        assertEquals(expected, run.result().outLines(), run.result().err());
        assertEquals(expected, output(run.output()));
        assertEquals(1L << bits, run.summary().get("values_hashed").asLong(), run.result().err());
        assertEquals(0, run.summary().get("preimages_rejected").asLong(), run.result().err());
    }

    /** A finished job, as its ApplicationMaster's history gives it (counters of the attempts that succeeded and failed). */
    Job finishedJob(String jobId) throws IOException, InterruptedException {
        return new Cluster(conf).getJob(JobID.forName(jobId));
    }

    /** Stops the FPGA node's NodeManager, as a node that goes down. */
    void stopFpgaNode() throws IOException {
        process.getOutputStream().write((EmbeddedClusterProcess.STOP_FPGA_NODE + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /** The cluster process's log: every daemon's lines (the NodeManagers' and their FPGA plugin's among them). */
    Path log() {
        return dir.resolve("cluster.log");
    }

    Path device(int i) {
        return fpgaState.resolve("vsim" + i);
    }

    /** The ResourceManager's count of FPGAs per running node. */
    synchronized Map<String, Long> fpgasByNode() throws Exception {
        if (!ResourceUtils.getResourceTypes().containsKey(FpgaContainer.RESOURCE)) {
            ResourceUtils.reinitializeResources(yarn.getResourceTypeInfo());
        }
        Map<String, Long> m = new HashMap<>();
        for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
            m.put(n.getNodeId().toString(), n.getCapability().getResourceValue(FpgaContainer.RESOURCE));
        }
        return m;
    }

    /** The node that offers FPGAs (or did when the cluster started). */
    String fpgaNode() throws Exception {
        return fpgasByNode().entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /**
     * Watches, while {@code until} runs, the fewest FPGAs the ResourceManager counted on {@code node}
     * (a node it lost counts -1).
     */
    AtomicLong fewestFpgasWhile(String node, Future<?> until) {
        AtomicLong fewest = new AtomicLong(Long.MAX_VALUE);
        Thread watcher = new Thread(() -> {
            while (!until.isDone()) {
                try {
                    fewest.accumulateAndGet(fpgasByNode().getOrDefault(node, -1L), Math::min);
                    Thread.sleep(100);
                } catch (Exception e) {
                    return;
                }
            }
        }, "fpgamr-it-fpga-count");
        watcher.setDaemon(true);
        watcher.start();
        return fewest;
    }

    /** One line of a device's event log (loads, assignments, releases, faults, health): its time, name and fields. */
    record DeviceEvent(long time, String name, Map<String, String> fields) {
        String get(String key) {
            return fields.get(key);
        }
    }

    /** A device's events since {@code since}. */
    List<DeviceEvent> events(int device, long since) throws IOException {
        List<DeviceEvent> out = new ArrayList<>();
        Path log = device(device).resolve("device.log");
        if (!Files.exists(log)) {
            return out;
        }
        for (String line : Files.readAllLines(log)) {
            String[] p = line.split("\t");
            Map<String, String> f = new HashMap<>();
            for (int i = 2; i < p.length; i++) {
                int eq = p[i].indexOf('=');
                f.put(p[i].substring(0, eq), p[i].substring(eq + 1));
            }
            long t = Long.parseLong(p[0]);
            if (t >= since) {
                out.add(new DeviceEvent(t, p[1], f));
            }
        }
        return out;
    }

    static long count(List<DeviceEvent> events, Predicate<DeviceEvent> p) {
        return events.stream().filter(p).count();
    }

    /** Asserts that a device got no container while it was out of service. */
    static void assertNoAssignmentWhileUnhealthy(List<DeviceEvent> events) {
        boolean out = false;
        for (DeviceEvent e : events) {
            if (e.name().equals("unhealthy")) {
                out = true;
            } else if (e.name().equals("healthy")) {
                out = false;
            } else if (e.name().equals("assign")) {
                assertFalse(out, "the device got a container while unhealthy: " + e);
            }
        }
    }

    /** The spans of a run's tasks, each task's succeeded attempt's: the job's timeline. */
    List<TaskSpan> spans(Run run) throws IOException, InterruptedException {
        return spans(run.jobId(), run.output());
    }

    /** The spans of job {@code jobId}'s tasks under its output folder, each task's succeeded attempt's (its completion events name it). */
    List<TaskSpan> spans(String jobId, String outputDir) throws IOException, InterruptedException {
        return TaskSpans.spans(TaskSpans.read(FileSystem.get(conf), new org.apache.hadoop.fs.Path(outputDir), TaskSpans.succeeded(finishedJob(jobId))));
    }

    /** The lines a job wrote into its output's part files, sorted. */
    List<String> output(String outputDir) throws IOException {
        List<String> lines = new ArrayList<>();
        FileSystem fs = FileSystem.get(conf);
        for (FileStatus st : fs.listStatus(new org.apache.hadoop.fs.Path(outputDir), p -> p.getName().startsWith("part-"))) {
            try (InputStream in = fs.open(st.getPath())) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).forEach(lines::add);
            }
        }
        lines.sort(null);
        return lines;
    }

    /** A condition on what the daemons answer. */
    @FunctionalInterface
    interface Check {
        boolean ok() throws Exception;
    }

    /** Polls {@code check} until it holds; fails naming {@code what} after {@code timeoutMs} (a guard, not a timing assertion). */
    static void await(String what, long timeoutMs, Check check) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!check.ok()) {
            assertTrue(System.currentTimeMillis() < deadline, "timed out waiting: " + what);
            Thread.sleep(100);
        }
    }

    /** The JVMs of the cluster's containers: java processes, but for the cluster's own, whose tmpdir is under {@link #daemonsDir()}. */
    List<ProcessHandle> containerJvms() {
        String under = daemonsDir() + "/";
        return ProcessHandle.allProcesses()
            .filter(p -> p.pid() != process.pid())
            .filter(StandingCluster::isJava)
            .filter(p -> p.info().commandLine().map(c -> c.contains("-Djava.io.tmpdir=" + under)).orElse(false))
            .toList();
    }

    static boolean isJava(ProcessHandle p) {
        return p.info().command().map(c -> c.endsWith("/java")).orElse(false);
    }

    /** Sends the cluster's process a SIGTERM, as a Ctrl-C would, and waits for it to end. */
    void terminate() throws InterruptedException {
        process.destroy();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the cluster's process did not end on SIGTERM");
    }

    @Override
    public void close() throws Exception {
        yarn.close();
        process.getOutputStream().close();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
