package io.fpgamr.md5.cluster;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;

/**
 * A cluster open for one run of the launcher.
 *
 * @param conf       the jobs' configuration
 * @param mapSlots   maps the cluster runs at once
 * @param output     the run's output directory on the cluster's file system
 * @param localCopy  where the output is copied once a job succeeded (the embedded cluster's), or null
 * @param yarn       whether maps run in containers of their own (separate processes)
 * @param fuller     the embedded cluster's fewer, fuller maps ({@link MapShape#fuller}), or null
 * @param daemons    stops what was started for the run
 */
public record RunCluster(Configuration conf, int mapSlots, org.apache.hadoop.fs.Path output, Path localCopy, boolean yarn,
                  MapShape fuller, AutoCloseable daemons) implements AutoCloseable {

    /** The same cluster running {@code shape}'s maps at once (its daemons stay the original's to close). */
    public RunCluster shaped(MapShape shape) {
        return new RunCluster(conf, shape.maps(), output, localCopy, yarn, shape, daemons);
    }

    /** Where the user finds the output: the local copy, or the output on the cluster. */
    public String shownOutput() {
        return localCopy != null ? localCopy.toString() : output.toString();
    }

    /** The local folder of the run's energy reports: beside a local output, else named after the output in the current directory. */
    public Path energyDir() {
        if (localCopy != null) {
            return localCopy.resolve("_energy");
        }
        if ("file".equals(output.toUri().getScheme())) {
            return Path.of(output.toUri()).resolve("_energy");
        }
        return Path.of("fpgamr-energy", output.getName()).toAbsolutePath();
    }

    /** Removes everything the run wrote: a failed run leaves no output that could pass for a result. */
    public void removeOutput() throws IOException {
        FileSystem fs = output.getFileSystem(conf);
        fs.delete(output, true);
        if (localCopy != null) {
            FileUtil.fullyDelete(localCopy.toFile());
        }
        FileUtil.fullyDelete(energyDir().toFile());
    }

    /**
     * Called once the launcher has read all it reads of job {@code jobId}: the embedded cluster ends
     * the job's ApplicationMaster then ({@link EmbeddedCluster#releaseFinishedAm}), so that the next
     * job's AM need not wait for its memory; other clusters are left as they are.
     */
    public void jobRead(String jobId) throws InterruptedException {
        if (daemons instanceof EmbeddedCluster embedded) {
            embedded.releaseFinishedAm(jobId);
        }
    }

    @Override
    public void close() throws Exception {
        daemons.close();
    }
}
