package io.fpgamr.md5.cli;

import io.fpgamr.energy.JobProgress;
import io.fpgamr.energy.ProgressSpool;
import io.fpgamr.md5.cluster.ClusterTarget;
import io.fpgamr.md5.job.LocalTasks;
import io.fpgamr.md5.job.Md5Counters;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * While a job runs: its map and reduce progress on stderr (in place on a terminal, else a line
 * when it changed, at most every 5 s), and once a second its {@link JobProgress} for the live
 * dashboards (labelled simulated when the maps' FPGAs are), handed to {@code publish}.
 */
final class ProgressReporter implements AutoCloseable {
    private final Thread thread;
    private final Job job;
    private final RunConfig config;
    private final String node;
    private final long submitMs;
    private final Consumer<JobProgress> publish;
    /** Set by {@link #finish}: the job's last word is written, a late periodic write must not replace it. */
    private boolean finished;

    ProgressReporter(Job job, RunConfig config, String node, long submitMs, Consumer<JobProgress> publish, PrintStream err) {
        this.job = job;
        this.config = config;
        this.node = node;
        this.submitMs = submitMs;
        this.publish = publish;
        boolean tty = System.console() != null;
        thread = new Thread(() -> {
            String last = "";
            long lastPrint = 0;
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(1000);
                    if (job.getJobID() == null) {
                        continue; // not submitted yet: no job to report on
                    }
                    publishWhileRunning(progressOf(job, config, node, submitMs));
                    String now = String.format("map %3.0f%% reduce %3.0f%%", 100 * job.mapProgress(), 100 * job.reduceProgress());
                    long t = System.currentTimeMillis();
                    if (tty) {
                        err.print("\rfpgamr: " + now);
                    } else if (!now.equals(last) && t - lastPrint >= 5000) {
                        err.println("fpgamr: " + now);
                        lastPrint = t;
                    }
                    last = now;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception e) {
                    // Not submitted yet, or a status call failed: progress is informational.
                }
            }
            if (tty) {
                err.println();
            }
        }, "fpgamr-progress");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The job's progress. On YARN from the task reports (a reduce is shuffling during the first
     * third of its progress, as Hadoop counts it); on the local runner, which reports no tasks,
     * from the tasks running in this JVM. Counts not known are -1: the dashboards show a gap.
     */
    private static JobProgress progressOf(Job job, RunConfig config, String node, long submitMs) {
        long hashed = -1;
        int maps = -1;
        int shuffles = -1;
        int reduces = -1;
        int containers = -1;
        int fpga = -1;
        try {
            hashed = job.getCounters().findCounter(Md5Counters.VALUES_HASHED).getValue();
            if (config.cluster() instanceof ClusterTarget.Local) {
                maps = LocalTasks.MAPS.get();
                fpga = LocalTasks.FPGA_MAPS.get();
                reduces = LocalTasks.REDUCES.get();
                boolean shuffling = config.mode().shuffles() && job.mapProgress() >= 1f && job.reduceProgress() < 1f / 3;
                shuffles = shuffling ? config.reducers() : 0;
                containers = 0;
            } else {
                maps = running(job.getTaskReports(TaskType.MAP), 0f, 1f);
                shuffles = running(job.getTaskReports(TaskType.REDUCE), 0f, 1f / 3);
                reduces = running(job.getTaskReports(TaskType.REDUCE), 1f / 3, 1f);
                containers = maps + shuffles + reduces + 1;
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // what is not known stays -1
        }
        return JobProgress.launcher(String.valueOf(job.getJobID()), node, hashed, config.domain().size(), submitMs, maps, shuffles, reduces,
            containers, fpga).withSimulated(config.simulatedFpga());
    }

    private static int running(TaskReport[] reports, float fromProgress, float toProgress) {
        int n = 0;
        for (TaskReport r : reports) {
            if (r.getCurrentStatus() == TIPStatus.RUNNING && r.getProgress() >= fromProgress && r.getProgress() < toProgress) {
                n++;
            }
        }
        return n;
    }

    /**
     * A periodic progress, dropped once the job has ended: the thread may have read a running
     * job's status just before {@link #finish} wrote the final state.
     */
    synchronized void publishWhileRunning(JobProgress p) {
        if (!finished) {
            publish.accept(p);
        }
    }

    /** The job's last word for the dashboards, once it ended: succeeded or failed, with its final count. Only the first call counts. */
    void finish(boolean succeeded) {
        JobProgress last = progressOf(job, config, node, submitMs).withState(succeeded ? JobProgress.SUCCEEDED : JobProgress.FAILED,
            System.currentTimeMillis());
        synchronized (this) {
            if (!finished) {
                finished = true;
                publish.accept(last);
            }
        }
    }

    /**
     * Writes each progress to its file in the spool folder {@code spoolDir} (the node exporter
     * reads it), replaced atomically; nothing without a spool. Progress is for the live dashboards
     * only: a write that fails is left for the next second.
     */
    static Consumer<JobProgress> spool(Path spoolDir) {
        if (spoolDir == null) {
            return p -> { };
        }
        ProgressSpool spool = new ProgressSpool(spoolDir);
        return p -> {
            try {
                spool.write(p);
            } catch (IOException e) {
                // the job's figures do not depend on it
            }
        };
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(2000);
    }
}
