package io.fpgamr.md5.cluster;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.md5.run.JvmOptions;
import io.fpgamr.md5.run.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.nio.file.Files;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.YarnClient;

/**
 * Where a run's jobs go ({@code --cluster}): the local runner, the embedded cluster, or the cluster
 * of the configuration. Opening one checks the output directory first, so that nothing is started
 * for a run that cannot write its results.
 */
public sealed interface ClusterTarget {
    /** {@code local}, {@code embedded} or {@code conf}, as in the summary. */
    String name();

    /**
     * Checks the run's output, then starts or reaches the cluster.
     *
     * @param output   the run's output directory ({@code --output})
     * @param engine   the maps' engine ({@code --accel})
     * @param fpgaOnly whether every map needs an FPGA ({@code --accel fpga})
     */
    RunCluster open(String output, EngineSpec engine, boolean fpgaOnly, Configuration base, PrintStream err)
        throws IOException, UsageException;

    /** {@code --cluster KIND}; without it, {@code conf} when HADOOP_CONF_DIR is set, else {@code embedded}. */
    static ClusterTarget parse(String kind, boolean hadoopConfDir, List<NodeSpec> nodes, boolean mapsOnArm)
        throws UsageException {
        String k = kind != null ? kind : hadoopConfDir ? "conf" : "embedded";
        return switch (k.toLowerCase(Locale.ROOT)) {
            case "local" -> new Local();
            case "embedded" -> new Embedded(nodes, mapsOnArm);
            case "conf" -> new Conf();
            default -> throw new UsageException("--cluster must be embedded, local or conf, got '" + kind + "'");
        };
    }

    /** The LocalJobRunner in this JVM, writing to the local file system. */
    record Local() implements ClusterTarget {
        @Override
        public String name() {
            return "local";
        }

        @Override
        public RunCluster open(String output, EngineSpec engine, boolean fpgaOnly, Configuration base, PrintStream err)
            throws UsageException {
            java.nio.file.Path local = newLocalDir(output);
            boolean fpga = fpgaOnly;
            if (fpga) {
                // On this machine an engine that cannot open is a usage error, not a failed task.
                try (Md5Engine e = Engines.open(engine, 1)) {
                    e.name();
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--accel fpga: " + e.getMessage());
                }
            }
            Configuration conf = new Configuration(base);
            conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
            conf.set("fs.defaultFS", "file:///");
            int cores = Runtime.getRuntime().availableProcessors();
            // A device belongs to one process at a time, and the local runner's maps are threads of this
            // one: with --accel fpga they take turns on it (by default one map over the whole domain, its
            // records streamed through the device's batches), never wait on each other's lock.
            conf.setInt("mapreduce.local.map.tasks.maximum", fpga ? 1 : cores);
            conf.setInt("mapreduce.local.reduce.tasks.maximum", cores);
            return new RunCluster(conf, fpga ? 1 : cores, new Path(local.toUri()), null, false, null, () -> { });
        }
    }

    /**
     * The embedded cluster ({@link EmbeddedCluster}) of the given NodeManagers, started for this
     * run: the output is written to its HDFS and copied to the local directory the user named. With
     * {@code mapsOnArm} ({@code --maps-on arm}) the maps run on its ARM nodes only (the study's ARM points).
     */
    record Embedded(List<NodeSpec> nodes, boolean mapsOnArm) implements ClusterTarget {
        @Override
        public String name() {
            return "embedded";
        }

        @Override
        public RunCluster open(String output, EngineSpec engine, boolean fpgaOnly, Configuration base, PrintStream err)
            throws IOException, UsageException {
            java.nio.file.Path local = newLocalDir(output);
            if (nodes.stream().anyMatch(NodeSpec::arm)) {
                try {
                    ArmhfRoot.find(System.getenv());
                    NodeSpec.requireModels(nodes);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--nodes: " + e.getMessage());
                }
            }
            err.println("fpgamr: starting the embedded cluster (HDFS NameNode + DataNode, YARN ResourceManager, " + describe(nodes) + ")");
            EmbeddedCluster cluster = EmbeddedCluster.start(base, JvmOptions.JDK17_OPENS, nodes);
            Configuration conf = cluster.config();
            int slots = cluster.mapSlots();
            if (mapsOnArm) {
                conf.setInt(MRJobConfig.MAP_RESOURCE_TYPE_PREFIX + EmbeddedCluster.ARM_RESOURCE, 1);
                slots = cluster.armMapSlots();
            }
            MapShape fuller = mapsOnArm ? null : MapShape.fuller(nodes, EmbeddedCluster.slotsPerNode());
            return new RunCluster(conf, slots, new Path("/fpgamr/" + local.getFileName()), local, true, fuller, cluster);
        }

        /** {@code 1 CPU NodeManager and an FPGA NodeManager with 2 simulated FPGAs}; with ARM nodes, each node's type. */
        static String describe(List<NodeSpec> nodes) {
            long cpuNodes = nodes.stream().filter(n -> n.type().equals(NodeSpec.X86)).count();
            List<NodeSpec> fpga = nodes.stream().filter(n -> n.type().equals(NodeSpec.FPGA)).toList();
            if (nodes.stream().noneMatch(NodeSpec::arm) && fpga.size() <= 1) {
                int devices = fpga.isEmpty() ? 0 : fpga.get(0).fpgaDevices();
                return cpuNodes + " CPU NodeManager" + (cpuNodes == 1 ? "" : "s") + (devices > 0 ? " and an FPGA NodeManager with " + devices
                    + " simulated FPGA" + (devices == 1 ? "" : "s") : "");
            }
            return "NodeManagers " + String.join(", ", nodes.stream().map(n -> n.type() + (n.fpgaDevices() > 0 ? " (" + n.fpgaDevices()
                + " simulated FPGAs)" : "")).toList()) + "; ARM nodes run an armhf JVM under QEMU (" + ArmhfRoot.CPU + "), emulated";
        }
    }

    /** The cluster of HADOOP_CONF_DIR or {@code -conf}: reached (or refused in one line) before anything is submitted. */
    record Conf() implements ClusterTarget {
        @Override
        public String name() {
            return "conf";
        }

        @Override
        public RunCluster open(String output, EngineSpec engine, boolean fpgaOnly, Configuration base, PrintStream err)
            throws IOException, UsageException {
            Configuration conf = new Configuration(base);
            int slots = probe(conf);
            FileSystem fs = FileSystem.get(conf);
            Path out = fs.makeQualified(new Path(output));
            if (fs.exists(out)) {
                throw new UsageException("--output: " + out + " already exists");
            }
            return new RunCluster(conf, slots, out, null, true, null, () -> { });
        }

        /**
         * Checks that the file system and, for YARN, the ResourceManager answer within seconds, and
         * returns the map slots the cluster offers.
         */
        private static int probe(Configuration conf) throws UsageException {
            Configuration probe = new Configuration(conf);
            probe.setInt("ipc.client.connect.max.retries", 1);
            probe.setInt("ipc.client.connect.max.retries.on.timeouts", 1);
            probe.setInt("ipc.client.connect.timeout", 5000);
            probe.setLong("yarn.resourcemanager.connect.max-wait.ms", 8000);
            probe.setLong("yarn.resourcemanager.connect.retry-interval.ms", 1000);
            String fsUri = FileSystem.getDefaultUri(probe).toString();
            try (FileSystem fs = FileSystem.newInstance(probe)) {
                fs.exists(new Path("/"));
            } catch (IOException e) {
                throw new UsageException("cannot reach the cluster's file system " + fsUri + ": " + UsageException.firstLine(e));
            }
            if (!MRConfig.YARN_FRAMEWORK_NAME.equals(probe.get(MRConfig.FRAMEWORK_NAME))) {
                return Runtime.getRuntime().availableProcessors();
            }
            String rm = probe.get("yarn.resourcemanager.address", "0.0.0.0:8032");
            try (YarnClient yarn = YarnClient.createYarnClient()) {
                yarn.init(probe);
                yarn.start();
                long mb = 0;
                long vcores = 0;
                for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
                    Resource r = n.getCapability();
                    mb += r.getMemorySize();
                    vcores += r.getVirtualCores();
                }
                int mapMb = conf.getInt(MRJobConfig.MAP_MEMORY_MB, MRJobConfig.DEFAULT_MAP_MEMORY_MB);
                int mapVcores = conf.getInt(MRJobConfig.MAP_CPU_VCORES, MRJobConfig.DEFAULT_MAP_CPU_VCORES);
                int amMb = conf.getInt(MRJobConfig.MR_AM_VMEM_MB, MRJobConfig.DEFAULT_MR_AM_VMEM_MB);
                long slots = Math.min((mb - amMb) / Math.max(1, mapMb), (vcores - 1) / Math.max(1, mapVcores));
                return (int) Math.max(1, slots);
            } catch (Exception e) {
                throw new UsageException("cannot reach the ResourceManager at " + rm + ": " + UsageException.firstLine(e));
            }
        }
    }

    /** A local output directory that must not exist yet. */
    private static java.nio.file.Path newLocalDir(String output) throws UsageException {
        java.nio.file.Path local = java.nio.file.Path.of(output).toAbsolutePath().normalize();
        if (Files.exists(local)) {
            throw new UsageException("--output: " + local + " already exists");
        }
        return local;
    }
}
