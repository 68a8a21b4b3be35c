package io.fpgamr.md5.job;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.TargetSet;
import io.fpgamr.accel.design.FpgaContainer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both modes' maps share: the engine, the targets, the per-node accounting, and the batches.
 * Consecutive records are hashed together in batches of {@link JobKeys#BATCH} values, so records of
 * one value each (1 PpK) still mean one engine call per batch, not per value; each value still
 * gives its own output where the mode emits one.
 */
abstract class EngineMapper<K, V> extends Mapper<LongWritable, LongWritable, K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(EngineMapper.class);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The kind of engine ({@code cpu}, {@code fpga}) of the map running in this thread: its record reader sizes its claims by it. */
    private static final ThreadLocal<String> ENGINE_KIND = new ThreadLocal<>();

    protected Domain domain;
    protected Md5Engine engine;
    protected TargetSet targets;
    private long startMs;
    /** The map's own marks ({@link MapMarks}): engine open, first batch's start (0 before it), last batch's end. */
    private long engineOpenMs;
    private long hashStartMs;
    private long hashEndMs;
    /** Values handed to this map and not yet hashed: {@code [pendingStart, pendingStart + pending)}. */
    private long pendingStart;
    private long pending;
    /** Of the engine's own count, what the values-hashed counter already has. */
    private long counted;
    /**
     * Where the map's time goes (chapter 12), in wall nanoseconds, read once each side of a batch and
     * of its engine call, never per record: the engine, between batches (reading records), the rest
     * of a batch (writing output); the collector counts its spills itself.
     */
    private long lastBatchEnd;
    private long engineNs;
    private long readNs;
    private long writeNs;
    /** Whether the map is done with its engine ({@link #release}). */
    private boolean released;

    @Override
    protected void setup(Context context) throws IOException {
        startMs = System.currentTimeMillis();
        Configuration conf = context.getConfiguration();
        domain = JobKeys.domain(conf);
        targets = JobKeys.targets(conf);
        int threads = Math.max(1, conf.getInt(MRJobConfig.MAP_CPU_VCORES, 1));
        // In a YARN container that the NodeManager gave an FPGA, the engine opens that device.
        EngineSpec spec = JobKeys.engine(conf).inContainer(System.getenv());
        EngineOpener opener = EngineOpener.of(conf);
        try {
            engine = opener.open(spec, threads);
        } catch (IllegalArgumentException e) {
            if (spec.kind() == EngineSpec.Kind.AUTO && spec.device() != null) {
                LOG.warn("cannot open the FPGA lent to this task ({}); hashing on the CPU", e.getMessage());
                spec = EngineSpec.cpu();
                engine = opener.open(spec, threads);
            } else {
                FpgaContainer.reportFault(Path.of(""), System.getenv(), e);
                throw new IOException("cannot open MD5 engine '" + spec + "': " + e.getMessage(), e);
            }
        }
        if (engine.name().equals("java") && spec.kind() != EngineSpec.Kind.JAVA) {
            LOG.warn("no native MD5 kernel for this platform; hashing in pure Java");
            context.getCounter(Md5Counters.JAVA_FALLBACK_MAPS).increment(1);
        }
        engineOpenMs = System.currentTimeMillis();
        LOG.info("MD5 engine {} with {} thread(s)", engine.name(), threads);
        ENGINE_KIND.set(engine.kind());
        LocalTasks.MAPS.incrementAndGet();
        if (engine.kind().equals("fpga")) {
            LocalTasks.FPGA_MAPS.incrementAndGet();
        }
        lastBatchEnd = System.nanoTime();
    }

    /** The engine kind of the map running in this thread ({@code cpu}, {@code fpga}), or null before its setup. */
    static String runningEngineKind() {
        return ENGINE_KIND.get();
    }

    /** The engine's digests of {@code [start, start + count)} into {@code digests}, its CPU time counted. */
    protected final void hashRange(long start, int count, ByteBuffer digests, Context context) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        long w0 = System.nanoTime();
        engine.hashRange(start, count, domain.width(), digests);
        engineNs += System.nanoTime() - w0;
        countEngineCpu(t0, context);
    }

    /** The values of {@code [start, start + count)} the engine reports as preimages, its CPU time counted. */
    protected final long[] searchRange(long start, int count, Context context) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        long w0 = System.nanoTime();
        long[] found = engine.searchRange(start, count, domain.width(), targets);
        engineNs += System.nanoTime() - w0;
        countEngineCpu(t0, context);
        return found;
    }

    /**
     * CPU time of this thread inside the engine's calls: all of the engine's work with the native
     * engine on one thread (the default, one vcore per map) and the Java engine; the driver's host
     * time on an FPGA. What the job spends outside it is the framework's.
     */
    private void countEngineCpu(long t0, Context context) {
        context.getCounter(Md5Counters.ENGINE_CPU_US).increment((THREADS.getCurrentThreadCpuTime() - t0) / 1000);
    }

    /** Hashes the values {@code [start, start + count)}, {@code count <= BATCH}, and emits what the mode emits for them. */
    protected abstract void hashBatch(long start, int count, Context context) throws IOException, InterruptedException;

    @Override
    protected final void map(LongWritable start, LongWritable count, Context context) throws IOException, InterruptedException {
        if (pending > 0 && start.get() != pendingStart + pending) {
            flush(context);
        }
        if (pending == 0) {
            pendingStart = start.get();
        }
        pending += count.get();
        while (pending >= JobKeys.BATCH) {
            hash(JobKeys.BATCH, context);
        }
    }

    private void flush(Context context) throws IOException, InterruptedException {
        while (pending > 0) {
            hash((int) Math.min(pending, JobKeys.BATCH), context);
        }
    }

    private void hash(int n, Context context) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        readNs += t0 - lastBatchEnd;
        if (hashStartMs == 0) {
            hashStartMs = System.currentTimeMillis();
        }
        long engine0 = engineNs;
        Counter spill = context.getCounter(Md5Counters.MAP_SPILL_US);
        long spill0 = spill.getValue();
        hashBatch(pendingStart, n, context);
        lastBatchEnd = System.nanoTime();
        hashEndMs = System.currentTimeMillis();
        writeNs += lastBatchEnd - t0 - (engineNs - engine0) - 1000 * (spill.getValue() - spill0);
        pendingStart += n;
        pending -= n;
        // the engine's own count, not what it was handed
        long hashed = engine.valuesHashed();
        context.getCounter(Md5Counters.VALUES_HASHED).increment(hashed - counted);
        counted = hashed;
    }

    /**
     * Mapper's loop, but a map that fails hashes nothing more: Mapper's own cleanup on the way out
     * would hash the failed batch again on the engine that just failed (on a device that did not
     * stop: refused as busy, and that error then hid the first). The failed map's engine is closed,
     * so that an FPGA's driver stops the device or finds it wedged (and keeps that where the
     * NodeManager reads it); the close's error goes with the map's. A task whose FPGA failed tells
     * the NodeManager, which takes the device out (see yarn-fpga-resource): the close's error when
     * the device is wedged, else the map's.
     */
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        setup(context);
        try {
            while (context.nextKeyValue()) {
                map(context.getCurrentKey(), context.getCurrentValue(), context);
            }
            cleanup(context);
        } catch (Throwable e) {
            RuntimeException closeError = null;
            try {
                release();
            } catch (RuntimeException c) {
                closeError = c;
                e.addSuppressed(c);
            }
            if ((e instanceof IOException || e instanceof RuntimeException) && engine.kind().equals("fpga")) {
                FpgaContainer.reportFault(Path.of(""), System.getenv(), closeError != null ? closeError : e);
            }
            throw e;
        }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
        flush(context);
        FpgaFigures.count(engine, context);
        context.getCounter(Md5Counters.MAP_ENGINE_US).increment(engineNs / 1000);
        context.getCounter(Md5Counters.MAP_READ_US).increment(readNs / 1000);
        context.getCounter(Md5Counters.MAP_WRITE_US).increment(Math.max(0, writeNs) / 1000);
        context.getCounter(Md5Counters.MAP_TASKS).increment(1);
        MapPlatform platform = MapPlatform.of(engine);
        release();
        TaskSpans.writeMap(context, engine.kind(), engine.simulated(), startMs, counted, platform,
            MapMarks.of(engineOpenMs, hashStartMs, hashEndMs));
    }

    /** The map is done with its engine, whether it succeeded or failed: out of this JVM's task counts, its engine closed. */
    private void release() {
        if (released) {
            return;
        }
        released = true;
        LocalTasks.MAPS.decrementAndGet();
        if (engine.kind().equals("fpga")) {
            LocalTasks.FPGA_MAPS.decrementAndGet();
        }
        ENGINE_KIND.remove();
        engine.close();
    }
}
