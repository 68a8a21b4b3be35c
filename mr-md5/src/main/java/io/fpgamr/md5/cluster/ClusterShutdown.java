package io.fpgamr.md5.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * Stopping the embedded cluster, once, whoever asks first ({@link EmbeddedCluster#close()} or its
 * exit hook): the containers' processes, the NodeManagers in parallel, the ResourceManager, HDFS
 * (but from the exit hook), the cluster's directory.
 */
final class ClusterShutdown {
    private final Path workDir;
    private final MiniDFSCluster dfs;
    private final MiniMRYarnCluster yarn;
    private final List<NodeManager> nodeManagers;
    private boolean closed;

    ClusterShutdown(Path workDir, MiniDFSCluster dfs, MiniMRYarnCluster yarn, List<NodeManager> nodeManagers) {
        this.workDir = workDir;
        this.dfs = dfs;
        this.yarn = yarn;
        this.nodeManagers = List.copyOf(nodeManagers);
    }

    /** Synchronized: the exit hook must not return (and the JVM end) while {@link EmbeddedCluster#close()} is still stopping. */
    synchronized void stop(boolean withDfs) {
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
}
