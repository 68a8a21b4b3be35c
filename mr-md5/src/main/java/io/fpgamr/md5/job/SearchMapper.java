package io.fpgamr.md5.job;

import java.io.IOException;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;

/** The search mode's map: the engine compares as it hashes; only (re-checked) preimages leave the map. */
public class SearchMapper extends EngineMapper<NullWritable, Text> {
    private Preimages preimages;

    @Override
    protected void setup(Context context) throws IOException {
        super.setup(context);
        preimages = new Preimages(domain, targets);
    }

    @Override
    protected void hashBatch(long start, int count, Context context) throws IOException, InterruptedException {
        for (long v : searchRange(start, count, context)) {
            preimages.write(v, context);
        }
    }
}
