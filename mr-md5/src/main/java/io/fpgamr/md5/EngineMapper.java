package io.fpgamr.md5;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.TargetSet;
import io.fpgamr.accel.design.FpgaContainer;
import java.io.IOException;
import java.nio.file.Path;
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
        // In a YARN container that the NodeManager gave an FPGA, the engine opens that device.
        EngineSpec spec = EngineSpec.parse(conf.get(JobKeys.ENGINE, "auto")).inContainer(System.getenv());
        try {
            engine = Engines.open(spec, threads);
        } catch (IllegalArgumentException e) {
            if (spec.kind() == EngineSpec.Kind.AUTO && spec.device() != null) {
                LOG.warn("cannot open the FPGA lent to this task ({}); hashing on the CPU", e.getMessage());
                spec = EngineSpec.cpu();
                engine = Engines.open(spec, threads);
            } else {
                FpgaContainer.reportFault(Path.of(""), System.getenv(), e);
                throw new IOException("cannot open MD5 engine '" + spec + "': " + e.getMessage(), e);
            }
        }
        if (engine.name().equals("java") && spec.kind() != EngineSpec.Kind.JAVA) {
            LOG.warn("no native MD5 kernel for this platform; hashing in pure Java");
            context.getCounter(Md5Counters.JAVA_FALLBACK_MAPS).increment(1);
        }
        LOG.info("MD5 engine {} with {} thread(s)", engine.name(), threads);
        LocalTasks.MAPS.incrementAndGet();
        if (engine.kind().equals("fpga")) {
            LocalTasks.FPGA_MAPS.incrementAndGet();
        }
    }

    /** A task whose FPGA fails tells the NodeManager, which takes the device out (see yarn-fpga-resource). */
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        try {
            super.run(context);
        } catch (IOException | RuntimeException e) {
            if (engine != null && engine.kind().equals("fpga")) {
                FpgaContainer.reportFault(Path.of(""), System.getenv(), e);
            }
            throw e;
        }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
        LocalTasks.MAPS.decrementAndGet();
        if (engine.kind().equals("fpga")) {
            LocalTasks.FPGA_MAPS.decrementAndGet();
        }
        FpgaFigures.count(engine, context);
        engine.close();
        String task = context.getTaskAttemptID().getTaskID().toString();
        new TaskSpan("map", task, TaskSpan.nodeName(), engine.kind(), TaskSpan.taskStart(startMs), startMs,
            System.currentTimeMillis()).write(context);
    }
}
