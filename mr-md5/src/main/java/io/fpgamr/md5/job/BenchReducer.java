package io.fpgamr.md5.job;

import io.fpgamr.accel.TargetSet;
import java.io.IOException;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The thesis's reduce: of all shuffled pairs, emit those whose digest is a target. Every pair is
 * checked on its raw bytes (the digest read in place, no objects per pair); a hit is re-checked by
 * the host before it is written.
 */
public class BenchReducer extends Reducer<ByteWritable, HashedValue, NullWritable, Text> {
    private TargetSet targets;
    private Preimages preimages;
    private long readyMs;

    @Override
    protected void setup(Context context) {
        // Setup runs once the shuffle and merge are done: that instant ends the shuffle stage.
        readyMs = System.currentTimeMillis();
        LocalTasks.REDUCES.incrementAndGet();
        targets = JobKeys.targets(context.getConfiguration());
        preimages = new Preimages(JobKeys.domain(context.getConfiguration()), targets);
    }

    @Override
    protected void reduce(ByteWritable key, Iterable<HashedValue> values, Context context) throws IOException, InterruptedException {
        for (HashedValue hv : values) {
            byte[] b = hv.bytes();
            int width = hv.width();
            if (targets.contains(HashedValue.digestHi(b, 0, width), HashedValue.digestLo(b, 0, width))) {
                preimages.write(hv.value(), context);
            }
        }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
        LocalTasks.REDUCES.decrementAndGet();
        TaskSpans.writeReduce(context, readyMs);
    }
}
