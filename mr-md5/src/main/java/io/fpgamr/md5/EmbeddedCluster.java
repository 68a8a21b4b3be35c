package io.fpgamr.md5;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * An in-process cluster with real daemons: a NameNode and DataNode (MiniDFSCluster), and a
 * ResourceManager, NodeManager and JobHistoryServer (MiniMRYarnCluster) whose containers are
 * separate JVMs. Sized so that {@link #mapSlots()} maps run at once, one per core.
 */
final class EmbeddedCluster implements AutoCloseable {
    static final int MAP_MB = 768;
    static final int REDUCE_MB = 1024;
    static final int AM_MB = 768;

    private final Path workDir;
    private final MiniDFSCluster dfs;
    private final MiniMRYarnCluster yarn;
    private final int mapSlots;

    private EmbeddedCluster(Path workDir, MiniDFSCluster dfs, MiniMRYarnCluster yarn, int mapSlots) {
        this.workDir = workDir;
        this.dfs = dfs;
        this.yarn = yarn;
        this.mapSlots = mapSlots;
    }

    static EmbeddedCluster start(Configuration base, String jvmOpts) throws IOException {
        Path work = Files.createTempDirectory("fpgamr-embedded-");
        int slots = Math.max(1, Runtime.getRuntime().availableProcessors());
        // The mini clusters put their NodeManager and log dirs under test.build.data (default:
        // target/test/data in the current directory); keep them in the work dir instead.
        System.setProperty("test.build.data", work.resolve("yarn").toString());
        System.setProperty("hadoop.log.dir", work.resolve("logs").toString());
        Configuration conf = new Configuration(base);
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
        conf.set("hadoop.tmp.dir", work.resolve("tmp").toString());
        MiniDFSCluster dfs = null;
        try {
            dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
            dfs.waitActive();
            conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
            // Room for the AM and one map per core; reduces fit once maps finish.
            conf.setInt(YarnConfiguration.NM_PMEM_MB, AM_MB + slots * MAP_MB);
            conf.setInt(YarnConfiguration.NM_VCORES, slots + 1);
            conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
            conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
            conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.9f);
            // Containers are separate JVMs: give them this JVM's classpath and JDK 17 flags.
            String cp = System.getProperty("java.class.path").replace(File.pathSeparatorChar, ',');
            conf.set(YarnConfiguration.YARN_APPLICATION_CLASSPATH, cp);
            conf.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH, cp);
            conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx512m " + jvmOpts);
            conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx512m " + jvmOpts);
            conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx768m " + jvmOpts);
            conf.setInt(MRJobConfig.MAP_MEMORY_MB, MAP_MB);
            conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, REDUCE_MB);
            conf.setInt(MRJobConfig.MR_AM_VMEM_MB, AM_MB);
            conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
            MiniMRYarnCluster yarn = new MiniMRYarnCluster("fpgamr", 1);
            yarn.init(conf);
            yarn.start();
            return new EmbeddedCluster(work, dfs, yarn, slots);
        } catch (IOException | RuntimeException e) {
            if (dfs != null) {
                dfs.shutdown();
            }
            deleteTree(work);
            throw e;
        }
    }

    /** The job configuration: the cluster's, with the file system and job defaults set. */
    Configuration config() {
        return new Configuration(yarn.getConfig());
    }

    int mapSlots() {
        return mapSlots;
    }

    @Override
    public void close() {
        try {
            yarn.stop();
        } finally {
            dfs.shutdown();
            deleteTree(workDir);
        }
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Best effort: a temp dir left behind is harmless.
        }
    }
}
