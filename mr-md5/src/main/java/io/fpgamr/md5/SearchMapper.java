package io.fpgamr.md5;

import io.fpgamr.accel.JavaMd5;
import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;

/** The search mode's map: the engine compares as it hashes; only preimages leave the map. */
public class SearchMapper extends EngineMapper<NullWritable, Text> {
    private final int[] state = new int[4];
    private final Text line = new Text();

    @Override
    protected void map(LongWritable start, LongWritable count, Context context) throws IOException, InterruptedException {
        long[] found = engine.searchRange(start.get(), count.get(), domain.width(), targets);
        for (long v : found) {
            JavaMd5.hashValue(v, domain.width(), state);
            line.set(domain.potfileLine(v, JavaMd5.digestBytes(state)));
            context.write(NullWritable.get(), line);
        }
        context.getCounter(Md5Counters.PREIMAGES_FOUND).increment(found.length);
        context.getCounter(Md5Counters.VALUES_HASHED).increment(count.get());
    }
}
