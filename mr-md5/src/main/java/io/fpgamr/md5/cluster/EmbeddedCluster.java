package io.fpgamr.md5.cluster;

import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.NativeArtifacts;
import io.fpgamr.accel.SpeedProfile;
import io.fpgamr.accel.design.DesignPackage;
import io.fpgamr.accel.design.FpgaContainer;
import io.fpgamr.accel.fpga.DeviceSpec;
import io.fpgamr.md5.balance.SpeedProfiler;
import io.fpgamr.md5.job.Defaults;
import io.fpgamr.md5.run.JvmOptions;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.util.GenericOptionsParser;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process heterogeneous cluster with real daemons: a NameNode and DataNode (MiniDFSCluster);
 * a ResourceManager, JobHistoryServer and a CPU-only NodeManager (MiniMRYarnCluster); and an FPGA
 * node, a second NodeManager offering simulated FPGAs ({@code yarn.io/fpga}, vsim devices) through
 * the yarn-fpga-resource plugin. Containers are separate JVMs. MiniYARNCluster gives all its
 * NodeManagers one configuration, so the FPGA node is a NodeManager of its own, with its own
 * configuration, joined to the same ResourceManager. Scheduling uses the DominantResourceCalculator,
 * so a container asking for an FPGA lands only where one is free, and fair ordering, so that two
 * jobs share the cluster. The CPU node has room for an AM and a map per core, the FPGA node for an
 * AM and a map per core and per device: {@link #mapSlots()} maps in all. A cluster of more nodes
 * ({@link #start(Configuration, String, int, int)}, the experiment plans' node counts) has more CPU
 * nodes, each like the first, all on this machine.
 */
public final class EmbeddedCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);
    /** The NodeManagers' hosts: {@code 127.0.10.1}, {@code 127.0.10.2}, ... (Linux routes all of 127/8 to the loopback). */
    static final String HOST_PREFIX = "127.0.10.";
    /** Each NodeManager's speed profile, in its directory. */
    static final String PROFILE_FILE = "speed-profile.properties";
    static final int MAP_MB = 768;
    static final int REDUCE_MB = 1024;
    static final int AM_MB = 768;
    /** The NodeManagers' and the MR AM's heartbeat to the ResourceManager (Hadoop's default: 1000 ms). */
    static final long HEARTBEAT_MS = 100;
    public static final int DEFAULT_FPGA_DEVICES = 2;
    /** NodeManagers of the default cluster: a CPU node and the FPGA node (or a second CPU node). */
    public static final int DEFAULT_NODES = 2;
    /** The line on {@link #main}'s standard input that stops the FPGA node. */
    public static final String STOP_FPGA_NODE = "stop-fpga-node";
    /** Set in {@link #config()}: where the FPGA node keeps its devices' state and logs. */
    public static final String FPGA_STATE_KEY = "fpgamr.embedded.fpga-node.state-dir";
    /**
     * A countable resource only x86 nodes offer, which the job's ApplicationMaster and reducers ask
     * for when the cluster has ARM nodes: the framework's own tasks run on x86 nodes, maps anywhere.
     * (No dots: MapReduce reads custom resource requests only as {@code yarn.io/NAME} or {@code NAME}.)
     */
    public static final String FRAMEWORK_RESOURCE = "fpgamr-framework";
    /** A countable resource ARM nodes offer, one per map slot: maps that ask for it run on ARM nodes only ({@code --maps-on arm}). */
    public static final String ARM_RESOURCE = "fpgamr-armhf";
    /**
     * The resource types of every embedded cluster, whatever its nodes: Hadoop keeps the types in
     * static state (ResourceUtils) for the whole JVM, so a second cluster of one JVM (an experiment's
     * next shape) with more types than the first would meet resources of the first's length, and
     * the scheduler's thread dies (ArrayIndexOutOfBounds in DominantResourceCalculator, the RM exits).
     */
    static final String RESOURCE_TYPES = FpgaContainer.RESOURCE + "," + FRAMEWORK_RESOURCE + "," + ARM_RESOURCE;
    /** How long an ARM node type's profiler (an emulated JVM) may take. */
    static final long ARM_PROFILE_TIMEOUT_S = 180;
    /** How long the exit hook may take to stop the cluster (a normal stop: about 2 s). */
    static final long STOP_TIMEOUT_S = 30;

    private final Path workDir;
    private final MiniDFSCluster dfs;
    private final MiniMRYarnCluster yarn;
    private final List<NodeManager> nodeManagers;
    private final NodeManager fpgaNode;
    private final Path fpgaState;
    private final int mapSlots;
    /** The ARM nodes' map slots: with any, the job's AM and reducers ask for {@link #FRAMEWORK_RESOURCE}. */
    private final int armMapSlots;
    private boolean closed;
    /**
     * Stops the cluster when its JVM ends without {@link #close()} (Ctrl-C, SIGTERM), but for HDFS:
     * its daemons' threads end with the JVM, and stopping them in a shutdown hook prints a stack trace.
     */
    private final Runnable stopOnExit = () -> stop(false);

    private EmbeddedCluster(Path workDir, MiniDFSCluster dfs, MiniMRYarnCluster yarn, List<NodeManager> nodeManagers, NodeManager fpgaNode,
        Path fpgaState, int mapSlots, int armMapSlots) {
        this.armMapSlots = armMapSlots;
        this.workDir = workDir;
        this.dfs = dfs;
        this.yarn = yarn;
        this.nodeManagers = List.copyOf(nodeManagers);
        this.fpgaNode = fpgaNode;
        this.fpgaState = fpgaState;
        this.mapSlots = mapSlots;
    }

    /**
     * One NodeManager of the cluster: {@code x86}, a CPU node; {@code fpga}, an x86 host whose
     * {@code fpgaDevices} simulated FPGAs it offers as {@code yarn.io/fpga}; {@code arm}, a node whose
     * containers run Debian's armhf JVM under QEMU user-mode emulation of a Cortex-A9 ({@link ArmhfRoot})
     * and load the {@code linux-armhf} native library; {@code arm-fpga}, an ARM node with simulated FPGAs.
     */
    public record NodeSpec(String type, int fpgaDevices) {
        public static final String X86 = "x86";
        public static final String FPGA = "fpga";
        public static final String ARM = "arm";
        public static final String ARM_FPGA = "arm-fpga";
        public static final List<String> TYPES = List.of(X86, FPGA, ARM, ARM_FPGA);
        /** The most NodeManagers an embedded cluster starts. */
        public static final int MAX_NODES = 16;

        public NodeSpec {
            if (!TYPES.contains(type) || hasFpga(type) != fpgaDevices > 0) {
                throw new IllegalArgumentException("a node is x86 or arm (no FPGA), or fpga or arm-fpga (with simulated FPGAs), got " + type
                    + " with " + fpgaDevices + " FPGAs");
            }
        }

        private static boolean hasFpga(String type) {
            return type.equals(FPGA) || type.equals(ARM_FPGA);
        }

        /** Whether the node's containers run the armhf JVM, emulated. */
        public boolean arm() {
            return type.equals(ARM) || type.equals(ARM_FPGA);
        }

        /**
         * Checks that the nodes can start: an {@code arm-fpga} node's simulated FPGAs need the
         * accelerator's model built for armhf ({@link FpgaRequest#EMBEDDED_DESIGN}'s, which the
         * node's profiler and the job's default design load), which {@code make test} builds and
         * {@code make run} does not.
         *
         * @throws IllegalArgumentException in one line naming what is missing and the command that builds it
         */
        public static void requireModels(List<NodeSpec> specs) {
            if (specs.stream().anyMatch(n -> n.type().equals(ARM_FPGA))) {
                requireArmhfModel(FpgaRequest.embeddedDesignPipelines());
            }
        }

        /** Checks that the model of {@code pipelines} pipelines is built for armhf, in one line saying how to build it. */
        static void requireArmhfModel(int pipelines) {
            try {
                DesignPackage.findVsimModel(pipelines, ArmhfRoot.PLATFORM);
            } catch (IOException e) {
                throw new IllegalArgumentException("arm-fpga nodes need the simulated FPGA's model built for " + ArmhfRoot.PLATFORM + ", "
                    + NativeArtifacts.vsimModel(pipelines) + ", which this build has not (make test builds it; make run does not): run "
                    + "make -C jni-fpga/native/fpga vsim-libs PLATFORM=" + ArmhfRoot.PLATFORM + " VSIM_PIPES=" + pipelines);
            }
        }

        /** Today's shape: {@code nodes} NodeManagers, with FPGAs the last of them the FPGA node. */
        public static List<NodeSpec> of(int nodes, int fpgaDevices) {
            if (nodes < 1 || fpgaDevices > 0 && nodes < 2) {
                throw new IllegalArgumentException("an embedded cluster has at least one CPU node, and an FPGA node when it has FPGAs");
            }
            List<NodeSpec> specs = new ArrayList<>();
            for (int i = 0; i < (fpgaDevices > 0 ? nodes - 1 : nodes); i++) {
                specs.add(new NodeSpec(X86, 0));
            }
            if (fpgaDevices > 0) {
                specs.add(new NodeSpec(FPGA, fpgaDevices));
            }
            return specs;
        }

        /**
         * A list of node types with optional counts, {@code x86,arm} or {@code x86:2,fpga}, in
         * that order; nodes with FPGAs get {@code fpgaDevices} each. At least one x86 node: it runs the
         * job's ApplicationMaster and reducers.
         *
         * @throws IllegalArgumentException in one line naming what is wrong
         */
        public static List<NodeSpec> parse(String list, int fpgaDevices) {
            List<NodeSpec> specs = new ArrayList<>();
            for (String item : list.split(",", -1)) {
                String[] tc = item.strip().split(":", -1);
                String type = tc[0].strip();
                if (!TYPES.contains(type) || tc.length > 2) {
                    throw new IllegalArgumentException("a node type is one of " + String.join(", ", TYPES) + ", with an optional count "
                        + "(x86:2); got '" + item.strip() + "'");
                }
                int count = 1;
                if (tc.length == 2) {
                    try {
                        count = Integer.parseInt(tc[1].strip());
                    } catch (NumberFormatException e) {
                        count = 0;
                    }
                    if (count < 1 || count > MAX_NODES) {
                        throw new IllegalArgumentException("the count of " + type + " nodes must be in 1.." + MAX_NODES + ", got '" + tc[1] + "'");
                    }
                }
                if (hasFpga(type) && fpgaDevices < 1) {
                    throw new IllegalArgumentException(type + " nodes need simulated FPGAs: --fpga-devices must be at least 1");
                }
                for (int i = 0; i < count; i++) {
                    specs.add(new NodeSpec(type, hasFpga(type) ? fpgaDevices : 0));
                }
            }
            if (specs.size() > MAX_NODES) {
                throw new IllegalArgumentException("an embedded cluster has at most " + MAX_NODES + " nodes, got " + specs.size());
            }
            if (specs.stream().noneMatch(n -> n.type().equals(X86))) {
                throw new IllegalArgumentException("an embedded cluster needs an x86 node (it runs the job's ApplicationMaster and reducers)");
            }
            return specs;
        }
    }

    /** Starts the cluster; its FPGA node offers {@code fpgaDevices} simulated devices (0: a second CPU node). */
    public static EmbeddedCluster start(Configuration base, String jvmOpts, int fpgaDevices) throws IOException {
        return start(base, jvmOpts, DEFAULT_NODES, fpgaDevices);
    }

    /**
     * Starts a cluster of {@code nodes} NodeManagers: with {@code fpgaDevices > 0} one of them is the
     * FPGA node and the others CPU nodes, without, all are CPU nodes (each with a map slot per core).
     */
    public static EmbeddedCluster start(Configuration base, String jvmOpts, int nodes, int fpgaDevices) throws IOException {
        return start(base, jvmOpts, NodeSpec.of(nodes, fpgaDevices));
    }

    /**
     * Starts a cluster of the given NodeManagers, each with a map slot per core and one per FPGA.
     * Every NodeManager is a host of its own on the loopback network ({@value #HOST_PREFIX}1,
     * {@value #HOST_PREFIX}2, ...), as on a real cluster: YARN keys node attributes (and locality)
     * by host, and each node publishes its speed profile as node attributes
     * ({@code SpeedAttributesProvider}), measured here once per node type before the nodes start.
     */
    public static EmbeddedCluster start(Configuration base, String jvmOpts, List<NodeSpec> specs) throws IOException {
        if (specs.stream().noneMatch(n -> n.type().equals(NodeSpec.X86))) {
            throw new IllegalArgumentException("an embedded cluster has at least one CPU node");
        }
        NodeSpec.requireModels(specs);
        // ARM nodes' containers run an emulated 32-bit JVM, which cannot list ext4 directories: then the
        // whole cluster's directory (the NodeManagers' local and log dirs among them) is on tmpfs, beside the root.
        ArmhfRoot armhf = specs.stream().anyMatch(NodeSpec::arm) ? ArmhfRoot.find(System.getenv()) : null;
        Path work = armhf != null ? Files.createTempDirectory(armhf.path().getParent(), "fpgamr-embedded-")
            : Files.createTempDirectory("fpgamr-embedded-");
        int slots = Math.max(1, Runtime.getRuntime().availableProcessors());
        // The nodes' speeds are measured while HDFS starts (one profile per node type: the nodes share
        // this machine; an ARM node's in its emulated JVM, as its maps run).
        CompletableFuture<Map<String, SpeedProfile>> profiles = CompletableFuture.supplyAsync(() -> profileNodeTypes(specs, armhf, work));
        // The mini clusters put their NodeManager and log dirs under test.build.data (default:
        // target/test/data in the current directory); keep them in the work dir instead.
        System.setProperty("test.build.data", work.resolve("yarn").toString());
        System.setProperty("hadoop.log.dir", work.resolve("logs").toString());
        Configuration conf = new Configuration(base);
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
        conf.set("hadoop.tmp.dir", work.resolve("tmp").toString());
        MiniDFSCluster dfs = null;
        MiniMRYarnCluster yarn = null;
        List<NodeManager> nodeManagers = new ArrayList<>();
        EmbeddedCluster c;
        try {
            dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
            dfs.waitActive();
            conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
            conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
            conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
            conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.9f);
            // How long a NodeManager waits for a killed container, and so for its applications when it stops.
            conf.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 1000);
            // FPGAs are a resource type; memory, cores and FPGAs all count when placing a container,
            // and two jobs' AMs may run at once.
            // With ARM nodes, the job's own tasks (its ApplicationMaster and reducers) ask for a slot of
            // FRAMEWORK_RESOURCE too, which only x86 nodes offer: they run on the host's JVM, maps anywhere.
            String resourceTypes = RESOURCE_TYPES;
            conf.set(YarnConfiguration.RESOURCE_TYPES, resourceTypes);
            conf.set("yarn.scheduler.capacity.resource-calculator", "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
            conf.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 0.5f);
            conf.set("yarn.scheduler.capacity.root.default.ordering-policy", "fair");
            if (armhf != null) {
                // One container per node heartbeat: a job of few maps (a small domain, as emulated nodes
                // get) spreads them over the node types, where the first node to heartbeat would take them all.
                conf.setBoolean("yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled", false);
            }
            // Containers are separate JVMs: give them this JVM's classpath and JDK 17 flags, and
            // (first) a directory with resource-types.xml, which the MR AM reads from its classpath.
            Path confDir = work.resolve("conf");
            Files.createDirectories(confDir);
            Files.writeString(confDir.resolve("resource-types.xml"), "<?xml version=\"1.0\"?>\n<configuration>\n  <property><name>"
                + YarnConfiguration.RESOURCE_TYPES + "</name><value>" + resourceTypes + "</value></property>\n</configuration>\n",
                StandardCharsets.UTF_8);
            String cp = confDir + "," + System.getProperty("java.class.path").replace(File.pathSeparatorChar, ',');
            conf.set(YarnConfiguration.YARN_APPLICATION_CLASSPATH, cp);
            conf.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH, cp);
            // Task JVMs live seconds: C1 alone, the serial collector and no perf data cut each one's CPU
            // from 4.4 to 1.9 s (make bench-job's 32-reducer runs; mr-md5/README, Figures); the hashing is native.
            // The MR AM mostly starts and then waits on events: the same flags.
            String taskOpts = " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData " + jvmOpts + classDataSharing(confDir);
            // A user's -D mapreduce.{map,reduce}.java.opts (yarn.app.mapreduce.am.command-opts) comes last,
            // so its flags win (the JDK 17 opens stay).
            conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx512m" + taskOpts + usersFlags(base, MRJobConfig.MR_AM_COMMAND_OPTS));
            conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx512m" + taskOpts + usersFlags(base, MRJobConfig.MAP_JAVA_OPTS));
            conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx768m" + taskOpts + usersFlags(base, MRJobConfig.REDUCE_JAVA_OPTS));
            conf.setInt(MRJobConfig.MAP_MEMORY_MB, MAP_MB);
            conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, REDUCE_MB);
            conf.setInt(MRJobConfig.MR_AM_VMEM_MB, AM_MB);
            conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
            // A container's turn waits for a NodeManager's heartbeat (the RM places it) and then the AM's
            // (the AM hears of it): Hadoop's 1 s defaults, paid by each of a bench run's 64 containers on
            // a few slots, are made for clusters of thousands of nodes, not one machine.
            Defaults.set(conf, YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, HEARTBEAT_MS);
            Defaults.set(conf, MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, HEARTBEAT_MS);
            // Reduces start once every map is done: on one machine an early reduce only holds a slot a
            // map could use (the CPU, not the network, is what is short).
            Defaults.set(conf, MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 1.0f);
            // Nor does a second attempt of a slow task help: it runs on the same cores as the first.
            Defaults.set(conf, MRJobConfig.MAP_SPECULATIVE, false);
            Defaults.set(conf, MRJobConfig.REDUCE_SPECULATIVE, false);
            // A NodeManager deletes a finished application's container logs after this long; stopping,
            // it waits up to 10 s per node for that deletion. The cluster's directory goes when it stops.
            Defaults.set(conf, YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
            // Node attributes (the nodes' speeds) are kept by the ResourceManager in the cluster's directory.
            conf.set(YarnConfiguration.FS_NODE_ATTRIBUTE_STORE_ROOT_DIR, work.resolve("node-attributes").toUri().toString());
            // The ResourceManager and history server: the NodeManagers are this cluster's own, below.
            yarn = new MiniMRYarnCluster("fpgamr", 0);
            yarn.init(conf);
            yarn.start();
            Path fpgaState = work.resolve("fpga-node");
            Map<String, SpeedProfile> measured;
            try {
                measured = profiles.join();
            } catch (java.util.concurrent.CompletionException e) {
                // an ARM node whose emulated JVM cannot run the profiler cannot run a map either
                if (e.getCause() instanceof java.io.UncheckedIOException u) {
                    throw u.getCause();
                }
                throw e;
            }
            NodeManager fpgaNode = null;
            int mapSlots = 0;
            int armMapSlots = 0;
            for (int i = 0; i < specs.size(); i++) {
                NodeSpec spec = specs.get(i);
                Path dir = work.resolve("nm-" + (i + 1));
                Files.createDirectories(dir);
                SpeedProfile profile = measured.get(spec.type());
                if (profile != null) {
                    profile.write(dir.resolve(PROFILE_FILE));
                }
                boolean fpga = spec.fpgaDevices() > 0 && fpgaNode == null;
                NodeManager nm = startNode(yarn, dir, HOST_PREFIX + (i + 1), spec, slots, fpga ? fpgaState : dir.resolve("fpga"), base, armhf);
                nodeManagers.add(nm);
                if (fpga) {
                    fpgaNode = nm;
                }
                mapSlots += slots + spec.fpgaDevices();
                armMapSlots += spec.arm() ? slots + spec.fpgaDevices() : 0;
            }
            c = new EmbeddedCluster(work, dfs, yarn, nodeManagers, fpgaNode, fpgaState, mapSlots, armMapSlots);
        } catch (IOException | RuntimeException e) {
            nodeManagers.forEach(NodeManager::stop);
            if (yarn != null) {
                yarn.stop();
            }
            if (dfs != null) {
                dfs.shutdown();
            }
            FileUtil.fullyDelete(work.toFile());
            throw e;
        }
        // Containers run in sessions of their own: a Ctrl-C reaches the launcher, not them. The hook
        // runs before the file systems close (FileSystem's hook comes after).
        ShutdownHookManager.get().addShutdownHook(c.stopOnExit, FileSystem.SHUTDOWN_HOOK_PRIORITY + 1,
            STOP_TIMEOUT_S, TimeUnit.SECONDS);
        try {
            c.awaitNodes(specs.size(), specs.stream().mapToInt(NodeSpec::fpgaDevices).sum());
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /**
     * Task JVMs and the MR AM map a class-data archive made for the launcher's class path (bin/fpgamr
     * names the launcher's in {@value JvmOptions#CDS_ARCHIVE_KEY}; the build's training run leaves one of the
     * classes task JVMs load beside it, {@link JvmOptions#tasksArchive}) when they run on that class
     * path: a container's default class path starts with its own directory and job.jar, which no
     * archive can match. The launcher's class path holds the job's classes; a task JVM reads job.xml
     * from its directory, not the class path. (So -libjars do not reach embedded tasks run with an
     * archive.)
     */
    private static String classDataSharing(Path confDir) {
        String launcherArchive = System.getProperty(JvmOptions.CDS_ARCHIVE_KEY);
        if (launcherArchive == null || !Files.isReadable(Path.of(launcherArchive))) {
            return "";
        }
        // The training run's archive of the classes the AM and task JVMs themselves load, when it was made.
        Path tasks = JvmOptions.tasksArchive(Path.of(launcherArchive));
        String archive = Files.isReadable(tasks) ? tasks.toString() : launcherArchive;
        // The archive allows entries after its own class path: the MR AM finds resource-types.xml there.
        return " -cp " + System.getProperty("java.class.path") + File.pathSeparator + confDir + " -XX:SharedArchiveFile=" + archive
            + " -Xlog:cds=off -Xlog:cds+dynamic=off";
    }

    /**
     * A NodeManager of the cluster at {@code host} (a loopback address of its own): the cluster's
     * configuration (with the ResourceManager's bound addresses) plus its own directories, ports and
     * resources (the AM and a map per core, and one map per FPGA), its speed profile as node
     * attributes, and on an FPGA node the FPGA device plugin and the executor that gives containers
     * their devices. Settings from {@code base} under {@code fpgamr.fpga.} (health intervals, say)
     * apply to it.
     */
    private static NodeManager startNode(MiniMRYarnCluster yarn, Path dir, String host, NodeSpec spec, int slots, Path fpgaState,
        Configuration base, ArmhfRoot armhf) throws IOException {
        Configuration rm = yarn.getResourceManager().getConfig();
        YarnConfiguration c = new YarnConfiguration(yarn.getConfig());
        for (String k : new String[] {YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
            YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS}) {
            c.set(k, rm.get(k));
        }
        Files.createDirectories(dir.resolve("local"));
        Files.createDirectories(dir.resolve("log"));
        c.set(YarnConfiguration.NM_LOCAL_DIRS, dir.resolve("local").toString());
        c.set(YarnConfiguration.NM_LOG_DIRS, dir.resolve("log").toString());
        c.set(YarnConfiguration.NM_ADDRESS, host + ":0");
        c.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
        c.set(YarnConfiguration.NM_WEBAPP_ADDRESS, host + ":0");
        c.set(YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS, host + ":0");
        int maps = slots + spec.fpgaDevices();
        c.setInt(YarnConfiguration.NM_PMEM_MB, AM_MB + maps * MAP_MB);
        c.setInt(YarnConfiguration.NM_VCORES, maps + 1);
        c.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
        c.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, false);
        c.setLong(YarnConfiguration.NM_RESOURCE_MON_INTERVAL_MS, 0);
        c.set(YarnConfiguration.NM_NODE_ATTRIBUTES_PROVIDER_CONFIG, "io.fpgamr.yarn.SpeedAttributesProvider");
        c.set("fpgamr.speed.profile", dir.resolve(PROFILE_FILE).toString());
        if (spec.arm()) {
            // As an operator sets an ARM board's NodeManager: its containers' JVM is the armhf one (here
            // under QEMU's emulation of a Cortex-A9), forced over the launcher's JAVA_HOME.
            StringBuilder env = new StringBuilder(c.get(YarnConfiguration.NM_ADMIN_USER_ENV, YarnConfiguration.DEFAULT_NM_ADMIN_USER_ENV));
            armhf.containerEnv().forEach((k, v) -> env.append(',').append(k).append('=').append(v));
            c.set(YarnConfiguration.NM_ADMIN_USER_ENV, env.toString());
            c.setInt(YarnConfiguration.NM_RESOURCES_PREFIX + ARM_RESOURCE, maps);
        } else if (armhf != null) {
            c.setInt(YarnConfiguration.NM_RESOURCES_PREFIX + FRAMEWORK_RESOURCE, maps + 1);
        }
        if (spec.fpgaDevices() > 0) {
            if (spec.arm()) {
                // the x86 NodeManager's containers are armhf: its devices load the armhf build of a design's model
                c.set("fpgamr.fpga.container-platform", ArmhfRoot.PLATFORM);
            }
            c.set(YarnConfiguration.NM_CONTAINER_EXECUTOR, "io.fpgamr.yarn.FpgaContainerExecutor");
            c.setBoolean(YarnConfiguration.NM_PLUGGABLE_DEVICE_FRAMEWORK_ENABLED, true);
            c.set(YarnConfiguration.NM_PLUGGABLE_DEVICE_FRAMEWORK_DEVICE_CLASSES, "io.fpgamr.yarn.FpgaDevicePlugin");
            c.setInt("fpgamr.fpga.vsim.devices", spec.fpgaDevices());
            c.set("fpgamr.fpga.state-dir", fpgaState.toString());
            c.setBoolean("fpgamr.fpga.uio.discover", false);
            base.getPropsWithPrefix("fpgamr.fpga.").forEach((k, v) -> c.set("fpgamr.fpga." + k, v));
        }
        NodeManager nm = new NodeManager();
        // A JVM keeps the first NodeManager's resource types (yarn.nodemanager.resource-type.*) for all:
        // each node of this one JVM reads its own (only x86 nodes offer FRAMEWORK_RESOURCE, only ARM nodes ARM_RESOURCE).
        ResourceUtils.resetNodeResources();
        nm.init(c);
        nm.start();
        if (nm.getServiceState() != Service.STATE.STARTED) {
            throw new IOException("the " + spec.type() + " NodeManager at " + host + " failed to start");
        }
        return nm;
    }

    /**
     * The speed profile of each node type of {@code specs}, measured in this JVM (the nodes share
     * this machine): the CPU kernels, and on an FPGA node also its simulated device with the
     * design the cluster's maps load by default. A node type whose engines do not open here (no
     * simulated model built) gets only what does. An ARM node's profile is measured by the profiler
     * in the armhf JVM under emulation ({@code fpgamr rate --profile}), as the node's own maps run:
     * it says it is emulated. An ARM-FPGA node's is measured there too, with its simulated device
     * (the armhf driver running the armhf model, as its maps do); one emulated run serves both ARM
     * types (the ARM node's is its CPU part).
     */
    private static Map<String, SpeedProfile> profileNodeTypes(List<NodeSpec> specs, ArmhfRoot armhf, Path work) {
        SpeedProfiler profiler = new SpeedProfiler(SpeedProfiler.DEFAULT_SECONDS);
        Map<String, SpeedProfile> byType = new HashMap<>();
        SpeedProfile cpu = profiler.profile(List.of(EngineSpec.cpu()), Map.of());
        byType.put(NodeSpec.X86, cpu);
        if (specs.stream().anyMatch(n -> n.type().equals(NodeSpec.FPGA))) {
            SpeedProfile fpga = cpu;
            try {
                DeviceSpec device = DeviceSpec.parse("vsim:pipelines=" + FpgaRequest.embeddedDesignPipelines());
                for (SpeedProfile.Speed s : profiler.profile(List.of(EngineSpec.fpga(device)), Map.of()).speeds()) {
                    fpga = fpga.with(s);
                }
            } catch (IllegalArgumentException e) {
                LOG.warn("the FPGA node's simulated device was not profiled: {}", e.getMessage());
            }
            byType.put(NodeSpec.FPGA, fpga);
        }
        boolean armFpga = specs.stream().anyMatch(n -> n.type().equals(NodeSpec.ARM_FPGA));
        if (specs.stream().anyMatch(NodeSpec::arm)) {
            SpeedProfile arm;
            try {
                arm = profileEmulated(armhf, work.resolve("profile-arm"), armFpga ? List.of("--accel", "fpga:vsim:pipelines="
                    + FpgaRequest.embeddedDesignPipelines()) : List.of());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(new IOException("the ARM node's emulated JVM: " + e.getMessage(), e));
            }
            if (armFpga) {
                byType.put(NodeSpec.ARM_FPGA, arm);
            }
            byType.put(NodeSpec.ARM, new SpeedProfile(arm.node(), arm.speeds().stream().filter(s -> !s.kind().equals("fpga")).toList()));
        }
        return byType;
    }

    /**
     * The profile {@code fpgamr rate --profile} measures in the armhf JVM under QEMU, in {@code dir} (on tmpfs),
     * of the CPU and the FPGAs {@code accel} names ({@code --accel fpga:...}).
     */
    private static SpeedProfile profileEmulated(ArmhfRoot armhf, Path dir, List<String> accel) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(PROFILE_FILE);
        Path log = dir.resolve("profile.log");
        List<String> cmd = new ArrayList<>(List.of(armhf.javaHome().resolve("bin/java").toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + dir, "-cp", System.getProperty("java.class.path"), "io.fpgamr.md5.cli.Main", "rate",
            "--profile", file.toString()));
        cmd.addAll(accel);
        ProcessBuilder pb = new ProcessBuilder(cmd)
            .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(armhf.containerEnv());
        Process p = pb.start();
        try {
            if (!p.waitFor(ARM_PROFILE_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("its profiler did not finish within " + ARM_PROFILE_TIMEOUT_S + " s (" + log + ")");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while profiling", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException("its profiler exited with " + p.exitValue() + ": " + Files.readString(log).strip().lines().reduce((a, b) -> b)
                .orElse(""));
        }
        SpeedProfile profile = SpeedProfile.read(file);
        if (!profile.emulated()) {
            throw new IOException("its profile, measured under QEMU, does not say it is emulated: " + file);
        }
        return profile;
    }

    /** The user's own JVM flags under {@code key}, with a space before them, or nothing (Hadoop's default is not the user's). */
    private static String usersFlags(Configuration base, String key) {
        return Defaults.given(base, key) ? " " + base.get(key).strip() : "";
    }

    /**
     * Waits until the ResourceManager has every node, the FPGA node with its devices, and each
     * node's speed attributes (the job client reads them at submission).
     */
    private void awaitNodes(int expected, int fpgaDevices) throws IOException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            int nodes = 0;
            int profiled = 0;
            long fpgas = 0;
            for (RMNode n : yarn.getResourceManager().getRMContext().getRMNodes().values()) {
                nodes++;
                Resource r = n.getTotalCapability();
                fpgas += r.getResourceValue(FpgaContainer.RESOURCE);
                if (!yarn.getResourceManager().getRMContext().getNodeAttributesManager().getAttributesForNode(n.getHostName()).isEmpty()) {
                    profiled++;
                }
            }
            if (nodes == expected && fpgas == fpgaDevices && profiled == expected) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IOException("the embedded cluster's NodeManagers did not register within 60 s");
    }

    /** The job configuration: the cluster's, with the file system and job defaults set. */
    public Configuration config() {
        Configuration c = new Configuration(yarn.getConfig());
        // the admin address the ResourceManager bound, for an operator's tools (yarn rmadmin, yarn nodeattributes)
        c.set(YarnConfiguration.RM_ADMIN_ADDRESS, yarn.getResourceManager().getConfig().get(YarnConfiguration.RM_ADMIN_ADDRESS));
        c.set(FPGA_STATE_KEY, fpgaState.toString());
        if (armMapSlots > 0) {
            c.setInt(MRJobConfig.MR_AM_RESOURCE_PREFIX + FRAMEWORK_RESOURCE, 1);
            c.setInt(MRJobConfig.REDUCE_RESOURCE_TYPE_PREFIX + FRAMEWORK_RESOURCE, 1);
        }
        return c;
    }

    /** Where the FPGA node keeps its devices (vsimN/: the loaded model, design.properties, device.log). */
    public Path fpgaState() {
        return fpgaState;
    }

    /** The map slots of the ARM nodes (0: none). */
    public int armMapSlots() {
        return armMapSlots;
    }

    public int mapSlots() {
        return mapSlots;
    }

    @Override
    public void close() {
        stop(!ShutdownHookManager.get().isShutdownInProgress());
        // Only now: a JVM that begins to end while this stops must wait for it in the hook.
        try {
            ShutdownHookManager.get().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException e) {
            // The JVM is ending: the hook finds the cluster stopped.
        }
    }

    /** Synchronized: the exit hook must not return (and the JVM end) while {@link #close()} is still stopping. */
    private synchronized void stop(boolean withDfs) {
        if (closed) {
            return;
        }
        closed = true;
        // The containers first, at once: a NodeManager sends its containers a SIGTERM and the SIGKILL
        // a moment later, from a thread that dies with this JVM, and an MR AM whose ResourceManager
        // is gone retries for 15 minutes in its own exit hook. Again at the end: what started since
        // (the ResourceManager retries an AM it lost).
        killContainers();
        // Each NodeManager waits some seconds for its applications on the way down: in parallel.
        List<Thread> stops = new ArrayList<>();
        for (NodeManager nm : nodeManagers) {
            Thread t = new Thread(nm::stop, "fpgamr-nm-stop");
            t.start();
            stops.add(t);
        }
        try {
            for (Thread t : stops) {
                t.join();
            }
            yarn.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            killContainers();
            if (withDfs) {
                stopDfs();
            }
            // Best effort (a NodeManager may still be deleting in it): a directory left in /tmp is harmless.
            FileUtil.fullyDelete(workDir.toFile());
        }
    }

    private void stopDfs() {
        try {
            dfs.shutdown();
        } catch (IllegalStateException e) {
            // The JVM began to end meanwhile (a SIGTERM while closing): HDFS cannot take its exit
            // hooks back then, and its threads end with the JVM.
        }
    }

    /** Kills the containers' processes (the NodeManagers' launch scripts and what they started): they name the cluster's directory. */
    private void killContainers() {
        String dir = workDir.toString();
        ProcessHandle.current().descendants()
            .filter(p -> p.info().commandLine().map(c -> c.contains(dir)).orElse(false))
            .forEach(ProcessHandle::destroyForcibly);
    }

    /** Stops the FPGA node's NodeManager (as a node that goes down mid-job): its containers die, the ResourceManager loses it. */
    public void stopFpgaNode() {
        if (fpgaNode != null) {
            fpgaNode.stop();
        }
    }

    /**
     * Runs the cluster until standard input closes, for trying jobs against a standing
     * heterogeneous cluster ({@code bin/fpgamr search -conf FILE ... --cluster conf}) and for the
     * integration tests: {@code EmbeddedCluster [-D key=value]... --client-conf FILE [--fpga-devices N] [--nodes TYPES]}
     * writes the client configuration to FILE once the cluster is up. A line {@value #STOP_FPGA_NODE}
     * on standard input stops the FPGA node's NodeManager.
     */
    public static void main(String[] args) throws Exception {
        java.util.logging.LogManager.getLogManager().reset();
        GenericOptionsParser generic = new GenericOptionsParser(new Configuration(), args);
        Options options = new Options();
        options.addOption(Option.builder().longOpt("client-conf").hasArg().argName("FILE").required()
            .desc("where to write the client configuration once the cluster is up").build());
        options.addOption(Option.builder().longOpt("fpga-devices").hasArg().argName("N").type(Number.class)
            .desc("simulated FPGAs of the FPGA node (default " + DEFAULT_FPGA_DEVICES + ")").build());
        options.addOption(Option.builder().longOpt("nodes").hasArg().argName("TYPES")
            .desc("node types with optional counts, e.g. x86,arm (default: an x86 node and the FPGA node)").build());
        CommandLine cl;
        int devices;
        List<NodeSpec> specs;
        try {
            cl = new DefaultParser().parse(options, generic.getRemainingArgs());
            devices = cl.hasOption("fpga-devices") ? ((Number) cl.getParsedOptionValue("fpga-devices")).intValue() : DEFAULT_FPGA_DEVICES;
            specs = cl.hasOption("nodes") ? NodeSpec.parse(cl.getOptionValue("nodes"), devices) : NodeSpec.of(DEFAULT_NODES, devices);
        } catch (ParseException | IllegalArgumentException e) {
            System.err.println("EmbeddedCluster: " + e.getMessage() + " (usage: EmbeddedCluster [-D k=v]... --client-conf FILE "
                + "[--fpga-devices N] [--nodes TYPES])");
            System.exit(2);
            return;
        }
        Path clientConf = Path.of(cl.getOptionValue("client-conf")).toAbsolutePath();
        try (EmbeddedCluster c = start(generic.getConfiguration(), JvmOptions.JDK17_OPENS, specs)) {
            AtomicFiles.write(clientConf, c.config()::writeXml);
            System.out.println("fpgamr: embedded cluster up; client configuration in " + clientConf);
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null;) {
                if (line.strip().equals(STOP_FPGA_NODE)) {
                    c.stopFpgaNode();
                    System.out.println("fpgamr: FPGA node stopped");
                    System.out.flush();
                }
            }
        }
        System.exit(0);
    }
}
