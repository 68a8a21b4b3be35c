package io.fpgamr.md5.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fpgamr.energy.JobProgress;
import io.fpgamr.md5.job.Md5Job;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;

/**
 * The dashboards' last word on a job is its final state: a periodic write that read the job's
 * status while it still ran, and arrives after {@link ProgressReporter#finish}, is dropped (it
 * once left a failed job shown as running).
 */
class ProgressReporterTest {
    private static final String TARGET = "096822475dd517c1089f4b58c7f346ef";

    @Test
    void aPeriodicWriteAfterTheFinalStateIsDropped() throws Exception {
        List<JobProgress> written = Collections.synchronizedList(new ArrayList<>());
        RunConfig config = RunConfig.parse(Md5Job.Mode.BENCH, new String[] {TARGET, "--bits", "20", "--cluster", "local"}, false);
        JobProgress running = JobProgress.launcher("job_1_0001", "node", 5, 1 << 20, 0, 1, 0, 0, 0, 0);
        try (ProgressReporter reporter = new ProgressReporter(Job.getInstance(new Configuration()), config, "node", 0, written::add,
            new PrintStream(OutputStream.nullOutputStream()))) {
            reporter.publishWhileRunning(running);
            reporter.finish(false);
            reporter.publishWhileRunning(running);
            reporter.finish(true);
        }
        assertEquals(2, written.size(), written.toString());
        assertEquals(running, written.get(0));
        assertEquals(JobProgress.FAILED, written.get(1).state());
    }
}
