package io.fpgamr.md5.cli;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job history on a cluster laid out as Hadoop's cluster set-up guide lays it out: the history
 * server's done folder belongs to {@code mapred} (mode 750), so the job's own user cannot list it.
 * A launcher whose job's history is not yet in the user's intermediate folder looks in the done
 * folder too; it must find nothing there rather than fail the run (the deploy test's `hadoop jar`
 * run as user fpgamr failed so when its client saw the job done before the AM had closed its history).
 */
class JobHistoryReaderTest {
    @TempDir
    Path tmp;

    @Test
    void aDoneFolderTheUserMayNotReadHoldsNothingForIt() throws Exception {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, tmp.resolve("dfs").toString());
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        try {
            dfs.waitActive();
            FileSystem admin = dfs.getFileSystem();
            org.apache.hadoop.fs.Path done = new org.apache.hadoop.fs.Path("/mr-history/done");
            org.apache.hadoop.fs.Path intermediate = new org.apache.hadoop.fs.Path("/mr-history/tmp");
            admin.mkdirs(done);
            admin.setOwner(done, "mapred", "hadoop");
            admin.setPermission(done, new FsPermission((short) 0750));
            admin.mkdirs(intermediate);
            admin.setPermission(intermediate, new FsPermission((short) 01777));
            Configuration client = new Configuration(conf);
            client.set("fs.defaultFS", admin.getUri().toString());
            client.set(JHAdminConfig.MR_HISTORY_DONE_DIR, done.toString());
            client.set(JHAdminConfig.MR_HISTORY_INTERMEDIATE_DONE_DIR, intermediate.toString());
            UserGroupInformation user = UserGroupInformation.createUserForTesting("fpgamr", new String[] {"fpgamr"});
            // the layout is what the guide makes it: this user cannot list the done folder
            assertThrows(AccessControlException.class, () -> user.doAs((PrivilegedExceptionAction<Object>) () ->
                FileSystem.newInstance(client).listStatus(done)));
            // and a job whose history is in neither folder is simply not found, after the wait
            assertNull(user.doAs((PrivilegedExceptionAction<Object>) () -> JobHistoryReader.read(client, "job_1796543527668_0002", 300)));
        } finally {
            dfs.shutdown();
        }
    }
}
