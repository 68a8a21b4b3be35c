package io.fpgamr.md5;

import io.fpgamr.accel.TargetSet;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/** The thesis's reduce: of all shuffled pairs, emit those whose digest is a target. */
public class BenchReducer extends Reducer<ByteWritable, HashedValue, NullWritable, Text> {
    private Domain domain;
    private TargetSet targets;
    private final Text line = new Text();
    private long readyMs;

    @Override
    protected void setup(Context context) {
        // Setup runs once the shuffle and merge are done: that instant ends the shuffle stage.
        readyMs = System.currentTimeMillis();
        LocalTasks.REDUCES.incrementAndGet();
        domain = JobKeys.domain(context.getConfiguration());
        targets = TargetSet.of(Arrays.asList(context.getConfiguration().getStrings(JobKeys.TARGETS, new String[0])));
    }

    @Override
    protected void reduce(ByteWritable key, Iterable<HashedValue> values, Context context) throws IOException, InterruptedException {
        for (HashedValue hv : values) {
            ByteBuffer d = ByteBuffer.wrap(hv.bytes(), hv.width(), 16);
            if (targets.contains(d.getLong(), d.getLong())) {
                line.set(domain.potfileLine(hv.value(), Arrays.copyOfRange(hv.bytes(), hv.width(), hv.width() + 16)));
                context.write(NullWritable.get(), line);
                context.getCounter(Md5Counters.PREIMAGES_FOUND).increment(1);
            }
        }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
        LocalTasks.REDUCES.decrementAndGet();
        TaskSpans.writeReduce(context, readyMs);
    }
}
