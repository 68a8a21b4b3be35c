package io.fpgamr.md5.job;

import io.fpgamr.md5.shuffle.ByteKeyCollector;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.io.ByteWritable;

/**
 * The thesis's map, faithfully: for every value, key = the value's least significant byte and
 * value = message ‖ MD5(message). Digests come from the engine a batch at a time. With the job's
 * {@link ByteKeyCollector} the whole batch goes to it in one call (still one pair per value, no
 * per-record objects); with any other collector, pair by pair through the context.
 */
public class BenchMapper extends EngineMapper<ByteWritable, HashedValue> {
    private final ByteWritable key = new ByteWritable();
    private final HashedValue value = new HashedValue();
    private ByteBuffer digests;
    private final byte[] batch = new byte[16 * JobKeys.BATCH];
    private ByteKeyCollector<?, ?> collector;

    @Override
    protected void setup(Context context) throws IOException {
        super.setup(context);
        value.setWidth(domain.width());
        // The engine's buffer: on the FPGA its DMA memory, which the device writes without a copy.
        digests = engine.digestBuffer(JobKeys.BATCH);
        collector = ByteKeyCollector.of(context.getTaskAttemptID());
    }

    @Override
    protected void hashBatch(long start, int n, Context context) throws IOException, InterruptedException {
        int width = domain.width();
        digests.clear();
        hashRange(start, n, digests, context);
        // one bulk copy out of the engine's (direct, possibly device) buffer, then plain array copies
        digests.get(0, batch, 0, 16 * n);
        if (collector != null) {
            collector.collectHashedRange(start, n, width, batch);
            return;
        }
        byte[] b = value.bytes();
        for (int i = 0; i < n; i++) {
            long v = start + i;
            HashedValue.encode(v, width, batch, i, b, 0);
            key.set((byte) v);
            context.write(key, value);
        }
    }
}
