package io.fpgamr.md5.cluster;

import io.fpgamr.md5.job.Defaults;
import io.fpgamr.md5.run.JvmOptions;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The settings every daemon of the embedded cluster shares (its ResourceManager's scheduling, the
 * containers' class path and JVM options, the heartbeats and job defaults of one machine), set in
 * the configuration the ResourceManager and the NodeManagers start from.
 */
final class ClusterSettings {
    private ClusterSettings() {
    }

    /**
     * Sets the cluster's settings in {@code conf} (HDFS already up), over the user's {@code base}:
     * task JVMs get {@code jvmOpts}; the cluster's files go under {@code work}; {@code armhf} is the
     * ARM nodes' root, or null when the cluster has none.
     */
    static void apply(Configuration conf, Configuration base, String jvmOpts, Path work, ArmhfRoot armhf) throws IOException {
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
        conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
        conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.9f);
        // How long a NodeManager waits for a killed container, and so for its applications when it stops.
        conf.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 1000);
        // FPGAs are a resource type; memory, cores and FPGAs all count when placing a container,
        // and two jobs' AMs may run at once.
        // With ARM nodes, the job's own tasks (its ApplicationMaster and reducers) ask for a slot of
        // FRAMEWORK_RESOURCE too, which only x86 nodes offer: they run on the host's JVM, maps anywhere.
        String resourceTypes = EmbeddedCluster.RESOURCE_TYPES;
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
        conf.setInt(MRJobConfig.MAP_MEMORY_MB, EmbeddedCluster.MAP_MB);
        conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, EmbeddedCluster.REDUCE_MB);
        conf.setInt(MRJobConfig.MR_AM_VMEM_MB, EmbeddedCluster.AM_MB);
        conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
        // A container's turn waits for a NodeManager's heartbeat (the RM places it) and then the AM's
        // (the AM hears of it): Hadoop's 1 s defaults, paid by each of a bench run's 64 containers on
        // a few slots, are made for clusters of thousands of nodes, not one machine.
        Defaults.set(conf, YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, EmbeddedCluster.HEARTBEAT_MS);
        Defaults.set(conf, MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, EmbeddedCluster.HEARTBEAT_MS);
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
    }

    /**
     * The HDFS client's settings of every party to a job on the embedded cluster (the launcher, the
     * AM and the tasks read them from the job's configuration), set before the first client starts.
     * A client that closes a file asks the NameNode to complete it, and while the DataNode has not yet
     * reported the file's last block, sleeps and asks again: Hadoop's first sleep is 400 ms, doubling,
     * 5 times (12.4 s in all), sized for a cluster's network. On one machine the DataNode's report
     * follows the data by milliseconds, but the first ask usually comes first, so nearly every small
     * file closed with a block cost 400 ms (measured, issue 40: the staging's job.xml, the AM's history
     * file, each map's three side files one after the other: 0.85 to 1.3 s at a map's end). Here the first
     * sleep is 20 ms and there are 10 (20.5 s in all, no less patience than Hadoop's). The same
     * settings pace a block's allocation while the one before it is not yet reported.
     */
    static void hdfsClient(Configuration conf) {
        Defaults.set(conf, HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY, 20);
        Defaults.set(conf, HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_RETRIES_KEY, 10);
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

    /** The user's own JVM flags under {@code key}, with a space before them, or nothing (Hadoop's default is not the user's). */
    private static String usersFlags(Configuration base, String key) {
        return Defaults.given(base, key) ? " " + base.get(key).strip() : "";
    }
}
