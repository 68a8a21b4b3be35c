package io.fpgamr.md5.job;

import io.fpgamr.accel.TargetSet;
import java.io.IOException;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thesis's reduce: of all shuffled pairs, emit those whose digest is a target. Every pair is
 * checked on its raw bytes (the digest read in place, no objects per pair); a hit is re-checked by
 * the host before it is written. Each key's values are checked against the domain's
 * ({@link KeyCheck}: their count, sum and sum of squares), so that a value missing and another
 * there twice under the same key, which leave every record and byte count exact, fail the job
 * ({@link Md5Counters#KEYS_WRONG}).
 */
public class BenchReducer extends Reducer<ByteWritable, HashedValue, NullWritable, Text> {
    private TargetSet targets;
    private Preimages preimages;
    private static final Logger LOG = LoggerFactory.getLogger(BenchReducer.class);

    private long readyMs;
    private long domainSize;

    @Override
    protected void setup(Context context) {
        // Setup runs once the shuffle and merge are done: that instant ends the shuffle stage.
        readyMs = System.currentTimeMillis();
        LocalTasks.REDUCES.incrementAndGet();
        targets = JobKeys.targets(context.getConfiguration());
        preimages = new Preimages(JobKeys.domain(context.getConfiguration()), targets);
        domainSize = JobKeys.domain(context.getConfiguration()).size();
    }

    @Override
    protected void reduce(ByteWritable key, Iterable<HashedValue> values, Context context) throws IOException, InterruptedException {
        KeyCheck received = new KeyCheck(key.get() & 0xff);
        for (HashedValue hv : values) {
            byte[] b = hv.bytes();
            int width = hv.width();
            received.add(hv.value());
            if (targets.contains(HashedValue.digestHi(b, 0, width), HashedValue.digestLo(b, 0, width))) {
                preimages.write(hv.value(), context);
            }
        }
        context.getCounter(Md5Counters.KEYS_CHECKED).increment(1);
        String wrong = received.against(domainSize);
        if (wrong != null) {
            LOG.error("key byte {}: {}", received.key(), wrong);
            context.getCounter(Md5Counters.KEYS_WRONG).increment(1);
        }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
        LocalTasks.REDUCES.decrementAndGet();
        TaskSpans.writeReduce(context, readyMs);
    }
}
