package io.fpgamr.it;

import io.fpgamr.md5.job.HashedValue;
import java.io.IOException;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.mapred.MapTask;

/**
 * Test only, chosen by a test as the bench job's collector ({@code -D mapreduce.job.map.output.collector.class},
 * which the job keeps): Hadoop's own MapOutputBuffer, except that map 0 writes a wrong record.
 * {@link #SWAP}: the second value of key byte 7 is replaced by the first, which is then there twice
 * while the second is missing (every record and byte count stays exact). {@link #SHORT}: the first
 * record's value is one byte short. The bench job must fail either way.
 */
public class MisplacingCollector extends MapTask.MapOutputBuffer<ByteWritable, HashedValue> {
    /** Which wrong record: {@code swap} or {@code short}. */
    public static final String KIND = "fpgamr.it.misplacing.kind";
    public static final String SWAP = "swap";
    public static final String SHORT = "short";
    static final int KEY = 7;

    private String kind;
    private boolean map0;
    private HashedValue first;
    private boolean done;

    @Override
    public void init(Context context) throws IOException, ClassNotFoundException {
        super.init(context);
        kind = context.getJobConf().get(KIND, "");
        map0 = context.getMapTask().getTaskID().getTaskID().getId() == 0;
    }

    @Override
    public synchronized void collect(ByteWritable key, HashedValue value, int partition) throws IOException {
        if (!map0 || done) {
            super.collect(key, value, partition);
        } else if (SHORT.equals(kind)) {
            done = true;
            super.collect(key, copy(value, value.width() - 1), partition);
        } else if (SWAP.equals(kind) && (key.get() & 0xff) == KEY) {
            if (first == null) {
                first = copy(value, value.width());
                super.collect(key, value, partition);
            } else {
                done = true;
                super.collect(key, first, partition);
            }
        } else {
            super.collect(key, value, partition);
        }
    }

    /** A value of {@code width} message bytes holding {@code v}'s first bytes. */
    private static HashedValue copy(HashedValue v, int width) {
        HashedValue c = new HashedValue();
        c.setWidth(width);
        System.arraycopy(v.bytes(), 0, c.bytes(), 0, width + 16);
        return c;
    }
}
