package io.fpgamr.md5.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claim log's one promise, on both file systems it runs on (a real HDFS NameNode and the local
 * file system): of publishers racing for the same entry, exactly one wins, and every reader reads
 * the winner's claim.
 */
class ClaimLogTest {
    private static final int PUBLISHERS = 6;
    private static final int ENTRIES = 60;

    @TempDir
    Path dir;

    /** Every publisher tries every entry in turn, all at once; each entry must have one winner. */
    private static void race(Configuration conf, org.apache.hadoop.fs.Path logDir) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(PUBLISHERS);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<List<Long>>> won = new ArrayList<>();
            for (int p = 0; p < PUBLISHERS; p++) {
                int task = p;
                won.add(pool.submit(() -> {
                    ClaimLog log = ClaimLog.open(conf, logDir, "attempt_" + task);
                    go.await();
                    List<Long> mine = new ArrayList<>();
                    for (long seq = 0; seq < ENTRIES; seq++) {
                        if (log.publish(seq, new Claim(task, 0, seq + 1, 1000 + seq))) {
                            mine.add(seq);
                        }
                    }
                    return mine;
                }));
            }
            go.countDown();
            int[] winners = new int[ENTRIES];
            int[] winner = new int[ENTRIES];
            for (int p = 0; p < PUBLISHERS; p++) {
                for (long seq : won.get(p).get()) {
                    winners[(int) seq]++;
                    winner[(int) seq] = p;
                }
            }
            ClaimLog reader = ClaimLog.open(conf, logDir, "reader");
            for (int seq = 0; seq < ENTRIES; seq++) {
                assertEquals(1, winners[seq], "publishers of entry " + seq);
                assertEquals(new Claim(winner[seq], 0, seq + 1, 1000 + seq), reader.read(seq));
            }
            assertNull(reader.read(ENTRIES));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void onTheLocalFileSystemOnePublisherWinsEachEntry() throws Exception {
        race(new Configuration(), new org.apache.hadoop.fs.Path(dir.toUri()));
    }

    @Test
    void onHdfsOnePublisherWinsEachEntry() throws Exception {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        try {
            dfs.waitActive();
            race(conf, new org.apache.hadoop.fs.Path(dfs.getFileSystem().getUri().toString() + "/job/fpgamr-claims"));
        } finally {
            dfs.shutdown();
        }
    }

    @Test
    void aFolderThatIsNotAClaimIsAnError() throws Exception {
        ClaimLog log = ClaimLog.open(new Configuration(), new org.apache.hadoop.fs.Path(dir.toUri()), "a");
        java.nio.file.Files.createDirectories(dir.resolve("log/0/something-else"));
        IOException e = assertThrows(IOException.class, () -> log.read(0));
        assertTrue(e.getMessage().startsWith("not a work claim: "), e.getMessage());
    }
}
