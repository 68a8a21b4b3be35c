package io.fpgamr.md5;

import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.TargetSet;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What both modes' maps share: the engine, the targets, and the per-node accounting. */
abstract class EngineMapper<K, V> extends Mapper<LongWritable, LongWritable, K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(EngineMapper.class);

    protected Domain domain;
    protected Md5Engine engine;
    protected TargetSet targets;
    private long startMs;

    @Override
    protected void setup(Context context) throws IOException {
        startMs = System.currentTimeMillis();
        Configuration conf = context.getConfiguration();
        domain = new Domain(conf.getInt(JobKeys.BITS, 28));
        targets = TargetSet.of(Arrays.asList(conf.getStrings(JobKeys.TARGETS, new String[0])));
        int threads = Math.max(1, conf.getInt(MRJobConfig.MAP_CPU_VCORES, 1));
        String spec = conf.get(JobKeys.ENGINE, "auto");
        try {
            engine = Engines.open(spec, threads);
        } catch (IllegalArgumentException e) {
            throw new IOException("cannot open MD5 engine '" + spec + "': " + e.getMessage(), e);
        }
        if (engine.name().equals("java") && !spec.equals("java")) {
            LOG.warn("no native MD5 kernel for this platform; hashing in pure Java");
            context.getCounter(Md5Counters.JAVA_FALLBACK_MAPS).increment(1);
        }
        LOG.info("MD5 engine {} with {} thread(s)", engine.name(), threads);
        LocalTasks.MAPS.incrementAndGet();
        if (engine.kind().equals("fpga")) {
            LocalTasks.FPGA_MAPS.incrementAndGet();
        }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
        LocalTasks.MAPS.decrementAndGet();
        if (engine.kind().equals("fpga")) {
            LocalTasks.FPGA_MAPS.decrementAndGet();
        }
        engine.close();
        String task = context.getTaskAttemptID().getTaskID().toString();
        new TaskSpan("map", task, TaskSpan.nodeName(), engine.kind(), TaskSpan.taskStart(startMs), startMs,
            System.currentTimeMillis()).write(context);
    }
}
