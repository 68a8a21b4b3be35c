package io.fpgamr.it;

import io.fpgamr.md5.shuffle.ByteKeyCollector;
import java.io.IOException;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.TaskAttemptID;

/**
 * Test only, chosen by the test as the job's collector ({@code -D mapreduce.job.map.output.collector.class},
 * which the bench job keeps): the one-byte-key collector, except that in a YARN container the
 * first attempt of map 0 halts its JVM as soon as it has a spill on disk, before its spills are
 * merged (a map killed in the middle of its output). Its class reaches the containers on the
 * standing cluster's class path ({@link StandingCluster}), as the tests' own classes.
 */
public class HaltingCollector<K, V> extends ByteKeyCollector<K, V> {
    private MapOutputFile files;
    private boolean halts;

    @Override
    public void init(Context context) throws IOException, ClassNotFoundException {
        super.init(context);
        files = context.getMapTask().getMapOutputFile();
        TaskAttemptID id = context.getMapTask().getTaskID();
        halts = id.getId() == 0 && id.getTaskID().getId() == 0 && System.getenv("CONTAINER_ID") != null;
    }

    @Override
    public synchronized void collectHashedRange(long start, int count, int width, byte[] digests) throws IOException {
        super.collectHashedRange(start, count, width, digests);
        if (halts && hasASpill()) {
            Runtime.getRuntime().halt(3);
        }
    }

    private boolean hasASpill() {
        try {
            files.getSpillFile(0);
            return true;
        } catch (IOException none) {
            return false;
        }
    }
}
