package io.fpgamr.it;

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
import java.util.concurrent.TimeUnit;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.md5.TaskSpans;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * The embedded heterogeneous cluster of this checkout (a CPU NodeManager, an FPGA NodeManager with
 * simulated devices) running in a process of its own, as {@code EmbeddedCluster --client-conf}
 * starts it, for jobs submitted through {@code bin/fpgamr -conf FILE ... --cluster conf}. Tests
 * read what the FPGA node did from its devices' state directories and ask the ResourceManager
 * what it counts.
 */
final class StandingCluster implements AutoCloseable {
    static final String FPGA = "yarn.io/fpga";

    private final Process process;
    private final Path clientConf;
    private final Configuration conf;
    private final Path fpgaState;
    private final YarnClient yarn;

    private StandingCluster(Process process, Path clientConf) {
        this.process = process;
        this.clientConf = clientConf;
        this.conf = new Configuration(false);
        conf.addResource(new org.apache.hadoop.fs.Path(clientConf.toUri()));
        this.fpgaState = Path.of(conf.get("fpgamr.embedded.fpga-node.state-dir"));
        this.yarn = YarnClient.createYarnClient();
        yarn.init(conf);
        yarn.start();
    }

    /** Starts the cluster with {@code devices} simulated FPGAs and the given NodeManager settings ({@code -D k=v}). */
    static StandingCluster start(Path dir, int devices, Map<String, String> settings) throws Exception {
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
        for (String pkg : List.of("java.lang", "java.util", "java.util.concurrent", "java.net", "java.io", "java.nio", "sun.nio.ch",
            "java.lang.reflect")) {
            cmd.add("--add-opens=java.base/" + pkg + "=ALL-UNNAMED");
        }
        cmd.addAll(List.of("-cp", jar + ":" + root.resolve("mr-md5/target/lib") + "/*", "io.fpgamr.md5.EmbeddedCluster",
            "--client-conf", clientConf.toString(), "--fpga-devices", Integer.toString(devices)));
        settings.forEach((k, v) -> cmd.addAll(List.of("-D", k + "=" + v)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("cluster.out").toFile()).start();
        long deadline = System.currentTimeMillis() + 240_000;
        while (!Files.exists(clientConf)) {
            if (!p.isAlive() || System.currentTimeMillis() > deadline) {
                p.destroyForcibly();
                throw new IllegalStateException("the embedded cluster did not start: " + Files.readString(dir.resolve("cluster.out")));
            }
            Thread.sleep(250);
        }
        return new StandingCluster(p, clientConf);
    }

    Path clientConf() {
        return clientConf;
    }

    Configuration conf() {
        return conf;
    }

    /** bin/fpgamr's arguments for a job on this cluster: the subcommand, then -conf, then the rest. */
    String[] job(String subcommand, String... args) {
        List<String> a = new ArrayList<>(List.of(subcommand, "-conf", clientConf.toString()));
        a.addAll(List.of(args));
        a.addAll(List.of("--cluster", "conf"));
        return a.toArray(new String[0]);
    }

    Path device(int i) {
        return fpgaState.resolve("vsim" + i);
    }

    /** The ResourceManager's count of FPGAs per running node. */
    synchronized Map<String, Long> fpgasByNode() throws Exception {
        if (!ResourceUtils.getResourceTypes().containsKey(FPGA)) {
            ResourceUtils.reinitializeResources(yarn.getResourceTypeInfo());
        }
        Map<String, Long> m = new HashMap<>();
        for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
            m.put(n.getNodeId().toString(), n.getCapability().getResourceValue(FPGA));
        }
        return m;
    }

    /** The node that offers FPGAs (or did when the cluster started). */
    String fpgaNode() throws Exception {
        return fpgasByNode().entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    /** The spans of the tasks a job committed into its output directory: the job's timeline. */
    List<TaskSpan> spans(String outputDir) throws IOException {
        return TaskSpans.read(FileSystem.get(conf), new org.apache.hadoop.fs.Path(outputDir));
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

    @Override
    public void close() throws Exception {
        yarn.close();
        process.getOutputStream().close();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
