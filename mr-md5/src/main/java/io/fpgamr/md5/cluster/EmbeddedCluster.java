package io.fpgamr.md5.cluster;

import io.fpgamr.accel.SpeedProfile;
import io.fpgamr.accel.design.FpgaContainer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;

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
    /** How long the exit hook may take to stop the cluster (a normal stop: about 2 s). */
    static final long STOP_TIMEOUT_S = 30;

    private final MiniMRYarnCluster yarn;
    private final List<NodeManager> nodeManagers;
    private final ClusterShutdown shutdown;
    private final NodeManager fpgaNode;
    private final Path fpgaState;
    private final int mapSlots;
    /** The ARM nodes' map slots: with any, the job's AM and reducers ask for {@link #FRAMEWORK_RESOURCE}. */
    private final int armMapSlots;
    /**
     * Stops the cluster when its JVM ends without {@link #close()} (Ctrl-C, SIGTERM), but for HDFS:
     * its daemons' threads end with the JVM, and stopping them in a shutdown hook prints a stack trace.
     */
    private final Runnable stopOnExit;

    private EmbeddedCluster(Path workDir, MiniDFSCluster dfs, MiniMRYarnCluster yarn, List<NodeManager> nodeManagers, NodeManager fpgaNode,
        Path fpgaState, int mapSlots, int armMapSlots) {
        this.armMapSlots = armMapSlots;
        this.yarn = yarn;
        this.nodeManagers = List.copyOf(nodeManagers);
        this.shutdown = new ClusterShutdown(workDir, dfs, yarn, nodeManagers);
        this.stopOnExit = () -> shutdown.stop(false);
        this.fpgaNode = fpgaNode;
        this.fpgaState = fpgaState;
        this.mapSlots = mapSlots;
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
        // Until the cluster's own exit hook is in place (below), a SIGTERM while its daemons start
        // (a study stopped as it starts its next cluster) still removes the directory.
        Runnable removeWork = () -> FileUtil.fullyDelete(work.toFile());
        ShutdownHookManager.get().addShutdownHook(removeWork, FileSystem.SHUTDOWN_HOOK_PRIORITY + 1);
        int slots = slotsPerNode();
        // The nodes' speeds are measured while HDFS starts (one profile per node type: the nodes share
        // this machine; an ARM node's in its emulated JVM, as its maps run).
        CompletableFuture<Map<String, SpeedProfile>> profiles = CompletableFuture.supplyAsync(() -> NodeProfiles.measure(specs, armhf, work));
        // The mini clusters put their NodeManager and log dirs under test.build.data (default:
        // target/test/data in the current directory); keep them in the work dir instead.
        System.setProperty("test.build.data", work.resolve("yarn").toString());
        System.setProperty("hadoop.log.dir", work.resolve("logs").toString());
        Configuration conf = new Configuration(base);
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
        conf.set("hadoop.tmp.dir", work.resolve("tmp").toString());
        // Before the first HDFS client (the launcher's file system is the one MiniDFSCluster makes).
        ClusterSettings.hdfsClient(conf);
        MiniDFSCluster dfs = null;
        MiniMRYarnCluster yarn = null;
        List<NodeManager> nodeManagers = new ArrayList<>();
        EmbeddedCluster c;
        try {
            dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
            dfs.waitActive();
            conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
            ClusterSettings.apply(conf, base, jvmOpts, work, armhf);
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
                NodeManager nm = EmbeddedNode.start(yarn, dir, HOST_PREFIX + (i + 1), spec, slots, fpga ? fpgaState : dir.resolve("fpga"), base, armhf);
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
            forget(removeWork);
            throw e;
        }
        // Containers run in sessions of their own: a Ctrl-C reaches the launcher, not them. The hook
        // runs before the file systems close (FileSystem's hook comes after).
        ShutdownHookManager.get().addShutdownHook(c.stopOnExit, FileSystem.SHUTDOWN_HOOK_PRIORITY + 1,
            STOP_TIMEOUT_S, TimeUnit.SECONDS);
        forget(removeWork);
        try {
            c.awaitNodes(specs.size(), specs.stream().mapToInt(NodeSpec::fpgaDevices).sum());
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
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

    /**
     * Ends job {@code jobId}'s ApplicationMaster once it has unregistered, rather than after its 5 s
     * wait ({@link FinishedAm}): the launcher calls it when it has read all it reads of the job.
     */
    public void releaseFinishedAm(String jobId) throws InterruptedException {
        FinishedAm.release(yarn.getResourceManager().getRMContext(), nodeManagers, jobId);
    }

    /** The map slots of the ARM nodes (0: none). */
    public int armMapSlots() {
        return armMapSlots;
    }

    /** Takes {@code hook} back, unless the JVM is already ending (then it runs, and may). */
    private static void forget(Runnable hook) {
        if (!ShutdownHookManager.get().isShutdownInProgress()) {
            ShutdownHookManager.get().removeShutdownHook(hook);
        }
    }

    /** Each node's map slots besides its FPGAs' (and the vcores it offers them): a slot per core of this machine. */
    static int slotsPerNode() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    public int mapSlots() {
        return mapSlots;
    }

    @Override
    public void close() {
        shutdown.stop(!ShutdownHookManager.get().isShutdownInProgress());
        // Only now: a JVM that begins to end while this stops must wait for it in the hook.
        try {
            ShutdownHookManager.get().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException e) {
            // The JVM is ending: the hook finds the cluster stopped.
        }
    }

    /** The FPGA node's NodeManager (the first node with FPGAs), or null when the cluster has none. */
    public NodeManager fpgaNode() {
        return fpgaNode;
    }
}
