package io.fpgamr.md5.job;

import io.fpgamr.accel.JavaMd5;
import io.fpgamr.accel.TargetSet;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what an engine reported as a preimage, once the host has re-checked it: the value's Java
 * re-hash must be a target digest. One that is not is counted as {@link Md5Counters#PREIMAGES_REJECTED}
 * and never written.
 */
final class Preimages {
    private static final Logger LOG = LoggerFactory.getLogger(Preimages.class);

    private final Domain domain;
    private final TargetSet targets;
    private final int[] state = new int[4];
    private final Text line = new Text();

    Preimages(Domain domain, TargetSet targets) {
        this.domain = domain;
        this.targets = targets;
    }

    void write(long value, TaskInputOutputContext<?, ?, NullWritable, Text> context) throws IOException, InterruptedException {
        JavaMd5.hashValue(value, domain.width(), state);
        byte[] digest = JavaMd5.digestBytes(state);
        ByteBuffer d = ByteBuffer.wrap(digest);
        if (!targets.contains(d.getLong(0), d.getLong(8))) {
            LOG.error("value {} was reported as a preimage but its re-hash {} is not a target: rejected", value, domain.potfileLine(value, digest));
            context.getCounter(Md5Counters.PREIMAGES_REJECTED).increment(1);
            return;
        }
        line.set(domain.potfileLine(value, digest));
        context.write(NullWritable.get(), line);
        context.getCounter(Md5Counters.PREIMAGES_FOUND).increment(1);
    }
}
