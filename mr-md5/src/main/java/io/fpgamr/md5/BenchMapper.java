package io.fpgamr.md5;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.LongWritable;

/**
 * The thesis's map, faithfully: for every value, key = the value's least significant byte and
 * value = message ‖ MD5(message). Digests come from the engine a record (batch) at a time.
 */
public class BenchMapper extends EngineMapper<ByteWritable, HashedValue> {
    private final ByteWritable key = new ByteWritable();
    private final HashedValue value = new HashedValue();
    private ByteBuffer digests;

    @Override
    protected void setup(Context context) throws IOException {
        super.setup(context);
        value.setWidth(domain.width());
        // The engine's buffer: on the FPGA its DMA memory, which the device writes without a copy.
        digests = engine.digestBuffer(context.getConfiguration().getInt(JobKeys.PPK, JobKeys.BATCH));
    }

    @Override
    protected void map(LongWritable start, LongWritable count, Context context) throws IOException, InterruptedException {
        int n = (int) count.get();
        int width = domain.width();
        digests.clear();
        engine.hashRange(start.get(), n, width, digests);
        byte[] b = value.bytes();
        for (int i = 0; i < n; i++) {
            long v = start.get() + i;
            for (int j = 0; j < width; j++) {
                b[j] = (byte) (v >>> (8 * (width - 1 - j)));
            }
            digests.get(16 * i, b, width, 16);
            key.set((byte) v);
            context.write(key, value);
        }
        context.getCounter(Md5Counters.VALUES_HASHED).increment(n);
    }
}
