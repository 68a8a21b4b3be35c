package io.fpgamr.md5.job;

import io.fpgamr.accel.TargetSet;
import io.fpgamr.md5.shuffle.KeyRunShuffle;
import java.io.IOException;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thesis's reduce: of all shuffled pairs, emit those whose digest is a target. Every pair is
 * checked on its raw bytes (the digest read in place, no objects per pair); a hit is re-checked by
 * the host before it is written. Each key's values are checked against the domain's
 * ({@link KeyCheck}: their count, sum and sum of squares), so that a value missing and another
 * there twice under the same key, which leave every record and byte count exact, fail the job
 * ({@link Md5Counters#KEYS_WRONG}).
 *
 * <p>When every map output of the reduce was held by {@link KeyRunShuffle}, the reducer reads its
 * key runs in bulk, each run's values checked in a loop over the held bytes, with no per-record
 * call of Hadoop's reduce context (its key and value deserialized, the next key compared); it
 * counts the input records and groups as the context does. Otherwise, or with {@link #BULK} false,
 * Hadoop's per-record path runs.
 */
public class BenchReducer extends Reducer<ByteWritable, HashedValue, NullWritable, Text> {
    /**
     * false: the reduce reads its input record by record through Hadoop's reduce context even when
     * the key-run shuffle held it all: the reference the bulk path is measured against, and the way
     * around it should it misbehave.
     */
    public static final String BULK = "fpgamr.reduce.bulk";

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
    public void run(Context context) throws IOException, InterruptedException {
        KeyRunShuffle.KeyRuns runs = KeyRunShuffle.take(context.getTaskAttemptID());
        if (runs == null || !context.getConfiguration().getBoolean(BULK, true)) {
            super.run(context);
            return;
        }
        setup(context);
        try {
            int width = JobKeys.domain(context.getConfiguration()).width();
            Counter groups = context.getCounter(TaskCounter.REDUCE_INPUT_GROUPS);
            Counter records = context.getCounter(TaskCounter.REDUCE_INPUT_RECORDS);
            while (runs.nextRun()) {
                if (runs.keyLength() != 1) {
                    throw new IOException("a bench key of " + runs.keyLength() + " bytes, not 1: a map wrote a record of the wrong key");
                }
                KeyCheck received = new KeyCheck(runs.key()[0] & 0xff);
                groups.increment(1);
                records.increment(runs.readRun((data, off, length, stride, count) -> {
                    HashedValue.checkLength(length, width);
                    for (int i = 0, o = off; i < count; i++, o += stride) {
                        check(received, data, o, width, context);
                    }
                }));
                keyChecked(received, context);
            }
        } finally {
            cleanup(context);
        }
    }

    @Override
    protected void reduce(ByteWritable key, Iterable<HashedValue> values, Context context) throws IOException, InterruptedException {
        KeyCheck received = new KeyCheck(key.get() & 0xff);
        for (HashedValue hv : values) {
            check(received, hv.bytes(), 0, hv.width(), context);
        }
        keyChecked(received, context);
    }

    /** One value of the key {@code received} counts, message ‖ digest at {@code b[off]}: counted, and written when its digest is a target. */
    private void check(KeyCheck received, byte[] b, int off, int width, Context context) throws IOException, InterruptedException {
        long v = HashedValue.value(b, off, width);
        received.add(v);
        if (targets.contains(HashedValue.digestHi(b, off, width), HashedValue.digestLo(b, off, width))) {
            preimages.write(v, context);
        }
    }

    /** A key's values all checked: counted, and against the domain's. */
    private void keyChecked(KeyCheck received, Context context) {
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
