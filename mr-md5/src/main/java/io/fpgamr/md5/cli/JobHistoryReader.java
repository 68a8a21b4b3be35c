package io.fpgamr.md5.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import org.apache.hadoop.security.AccessControlException;

/**
 * A finished YARN job's own history (the MR ApplicationMaster's job history events, the file the
 * JobHistoryServer serves): where Hadoop itself says the ApplicationMaster started, each task
 * attempt's container was launched and each attempt finished (after its commit, if it made one). The AM moves the file
 * into the intermediate done folder as the job ends, and the history server moves it on into its
 * done folder; both are searched, for a while, since the client may see the job done before the
 * AM has closed its history. On a real cluster the history server's done folder is often its own
 * ({@code mapred}, mode 750: Hadoop's cluster set-up guide): a folder the job's user may not read is
 * searched as if it held nothing, and the user's own intermediate folder is where its job is found.
 */
final class JobHistoryReader {
    /** How long a done job's history may take to appear: the AM closes it as it shuts down. */
    private static final long WAIT_MS = 15_000;
    private static final long POLL_MS = 200;

    private JobHistoryReader() {
    }

    /** The job's history, parsed, or null when it did not appear in time (a cluster that keeps none). */
    static JobHistoryParser.JobInfo read(Configuration conf, String jobId) throws IOException, InterruptedException {
        return read(conf, jobId, WAIT_MS);
    }

    /** The job's history, parsed, or null when it did not appear within {@code waitMs}. */
    static JobHistoryParser.JobInfo read(Configuration conf, String jobId, long waitMs) throws IOException, InterruptedException {
        Path[] dirs = {new Path(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf)),
            new Path(JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(conf))};
        long deadline = System.currentTimeMillis() + waitMs;
        while (true) {
            for (Path dir : dirs) {
                FileSystem fs = dir.getFileSystem(conf);
                Path file = find(fs, dir, jobId);
                if (file != null) {
                    try {
                        JobHistoryParser.JobInfo info = new JobHistoryParser(fs, file).parse();
                        if (info.getFinishTime() > 0) {
                            return info;
                        }
                    } catch (FileNotFoundException e) {
                        // the history server moved it between the listing and the read: look again
                    } catch (AccessControlException e) {
                        // moved into a done folder this user may not read: only the intermediate one is this user's
                    }
                }
            }
            if (System.currentTimeMillis() > deadline) {
                return null;
            }
            Thread.sleep(POLL_MS);
        }
    }

    /** The job's {@code <job id>-....jhist} under {@code dir}, or null. */
    private static Path find(FileSystem fs, Path dir, String jobId) throws IOException {
        try {
            RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
            while (files.hasNext()) {
                Path p = files.next().getPath();
                if (p.getName().startsWith(jobId + "-") && p.getName().endsWith(".jhist")) {
                    return p;
                }
            }
        } catch (FileNotFoundException e) {
            // the folder is not there (yet), or a file in it moved while listing
        } catch (AccessControlException e) {
            // the history server's own done folder, closed to the job's user
        }
        return null;
    }
}
