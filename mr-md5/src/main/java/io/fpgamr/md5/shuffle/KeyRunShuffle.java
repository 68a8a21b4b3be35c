package io.fpgamr.md5.shuffle;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.InMemoryReader;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's shuffle (its fetchers and scheduler) with a cheaper last merge. The map outputs of the
 * bench job are sorted runs of few distinct keys (256 at most), so while they fit in the memory the
 * job gives the reduce, they are held as they arrive and read key by key: the smallest key at the
 * outputs' heads, then that key's run from each output in turn, records parsed in place (one key
 * comparison per record; Hadoop's merge compares on a priority queue, reads every length prefix
 * through a synchronized stream and updates a synchronized progress on every record). Outputs that
 * arrive once the held ones fill that memory go to Hadoop's own merge manager, which keeps the
 * rest of the memory, spills and merges as usual; the reduce then reads Hadoop's merge of both.
 * When every output was held, the reducer may also read them in bulk ({@link #take}): a key run's
 * records segment by segment, as offsets into the held bytes, with no per-record call of Hadoop's.
 * Set through {@code mapreduce.job.reduce.shuffle.consumer.plugin.class}.
 */
public class KeyRunShuffle<K, V> extends Shuffle<K, V> {
    /**
     * The reduces' held outputs, by reduce attempt, from the shuffle's end to the reducer's start:
     * ReduceTask hands the reducer only Hadoop's wrapper of the iterator. Keyed by attempt, since
     * the local runner runs several reduces in one JVM; the reducer takes its entry, and the
     * shuffle's close drops one no reducer took.
     */
    private static final Map<String, KeyRunIterator<?, ?>> HELD = new ConcurrentHashMap<>();

    private String reduceId;

    @Override
    protected MergeManager<K, V> createMergeManager(ShuffleConsumerPlugin.Context context) {
        reduceId = context.getReduceId().toString();
        return new KeyRunMergeManager<>(context, this);
    }

    @Override
    public void close() {
        if (reduceId != null) {
            HELD.remove(reduceId);
        }
        super.close();
    }

    /**
     * The key runs of a reduce attempt whose map outputs this shuffle held, every one, in memory;
     * null when its shuffle is another (a plugin the user chose) or some outputs went to Hadoop's
     * merge. Once: the entry is removed. The iterator the reduce context read its first record
     * from, so that record comes first ({@link KeyRuns#readRun}).
     */
    public static KeyRuns take(org.apache.hadoop.mapreduce.TaskAttemptID reduce) {
        return HELD.remove(reduce.toString());
    }

    /** Drops a reduce's held outputs that no reducer took. */
    static void forget(KeyRunIterator<?, ?> runs) {
        HELD.values().remove(runs);
    }

    /** A reduce's held map outputs, read key run by key run in bulk. */
    public interface KeyRuns {
        /** Starts the next key run: false when every record was read. */
        boolean nextRun() throws IOException;

        /** The current run's key bytes (valid until the next run starts), {@link #keyLength()} of them. */
        byte[] key();

        int keyLength();

        /**
         * Hands every record of the current run to {@code reader}, segment by segment, in chunks of
         * records in a row with the same key and the same length prefixes (each record's prefixes
         * checked as {@link RawKeyValueIterator#next()} checks them), and reports progress once.
         *
         * @return the records read
         */
        long readRun(RunReader reader) throws IOException, InterruptedException;
    }

    /** What a reducer does with a chunk of a key run. */
    @FunctionalInterface
    public interface RunReader {
        /**
         * {@code count} records in a row, each with a value of {@code valueLength} bytes: the i-th at
         * {@code data[valueOffset + i * stride]}.
         */
        void values(byte[] data, int valueOffset, int valueLength, int stride, int count) throws IOException, InterruptedException;
    }

    /** Holds the map outputs that fit in its memory, hands the others to Hadoop's manager. */
    static final class KeyRunMergeManager<K, V> implements MergeManager<K, V> {
        private static final Logger LOG = LoggerFactory.getLogger(KeyRunMergeManager.class);

        private final ShuffleConsumerPlugin.Context context;
        private final JobConf conf;
        private final MergeManagerImpl<K, V> hadoops;
        private final long holdLimit;
        private final List<HeldOutput<K, V>> held = new ArrayList<>();
        private long reserved;
        private boolean overflowed;

        KeyRunMergeManager(ShuffleConsumerPlugin.Context context, Shuffle<K, V> shuffle) {
            this.context = context;
            conf = context.getJobConf();
            // What Hadoop's manager would hold without merging (below its merge threshold) and reduce
            // from memory (its reduce input buffer); Hadoop's manager gets the rest of the memory.
            long total = conf.getLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, Runtime.getRuntime().maxMemory());
            float shuffleShare = conf.getFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT,
                MRJobConfig.DEFAULT_SHUFFLE_INPUT_BUFFER_PERCENT);
            float merge = conf.getFloat(MRJobConfig.SHUFFLE_MERGE_PERCENT, MRJobConfig.DEFAULT_SHUFFLE_MERGE_PERCENT);
            float reduce = conf.getFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0f);
            holdLimit = (long) (total * shuffleShare * Math.min(merge, reduce));
            JobConf rest = new JobConf(conf);
            rest.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, Math.max(total - holdLimit, total / 8));
            hadoops = new MergeManagerImpl<>(context.getReduceId(), rest, context.getLocalFS(), context.getLocalDirAllocator(),
                context.getReporter(), context.getCodec(), context.getCombinerClass(), context.getCombineCollector(),
                context.getSpilledRecordsCounter(), context.getReduceCombineInputCounter(), context.getMergedMapOutputsCounter(),
                shuffle, context.getMergePhase(), context.getMapOutputFile());
        }

        @Override
        public void waitForResource() throws InterruptedException {
            hadoops.waitForResource();
        }

        @Override
        public MapOutput<K, V> reserve(TaskAttemptID mapId, long size, int fetcher) throws IOException {
            synchronized (this) {
                if (!overflowed && size <= Integer.MAX_VALUE && reserved + SpareArrays.capacity((int) size) <= holdLimit) {
                    reserved += SpareArrays.capacity((int) size);
                    return new HeldOutput<>(this, mapId, (int) size);
                }
                if (!overflowed) {
                    overflowed = true;
                    LOG.info("map outputs outgrow the {} bytes held: Hadoop's merge manager takes the rest", holdLimit);
                }
            }
            return hadoops.reserve(mapId, size, fetcher);
        }

        synchronized void commit(HeldOutput<K, V> out) {
            held.add(out);
        }

        synchronized void abort(HeldOutput<K, V> out) {
            reserved -= out.memory.length;
            SpareArrays.give(out.memory);
        }

        @Override
        @SuppressWarnings("unchecked")
        public RawKeyValueIterator close() throws Throwable {
            RawKeyValueIterator fromHadoop = hadoops.close();
            List<HeldOutput<K, V>> outputs;
            synchronized (this) {
                outputs = new ArrayList<>(held);
                held.clear();
            }
            RawComparator<K> comparator = (RawComparator<K>) conf.getOutputKeyComparator();
            if (!overflowed) {
                fromHadoop.close();
                LOG.info("reducing {} map outputs held in memory, key run by key run", outputs.size());
                KeyRunIterator<K, V> runs = new KeyRunIterator<>(outputs, comparator, context.getMergedMapOutputsCounter(), context.getReporter());
                HELD.put(context.getReduceId().toString(), runs);
                return runs;
            }
            if (outputs.isEmpty()) {
                return fromHadoop;
            }
            // Hadoop's merge of the held outputs and of what Hadoop's manager made of the others
            List<Merger.Segment<K, V>> segments = new ArrayList<>();
            for (HeldOutput<K, V> o : outputs) {
                segments.add(new Merger.Segment<>(new InMemoryReader<>(null, o.getMapId(), o.memory, 0, o.length, conf), true,
                    o.isPrimaryMapOutput() ? context.getMergedMapOutputsCounter() : null));
            }
            segments.add(new Merger.Segment<>(new IteratorReader<K, V>(fromHadoop), true));
            FileSystem fs = context.getLocalFS();
            return Merger.merge(conf, fs, (Class<K>) conf.getMapOutputKeyClass(), (Class<V>) conf.getMapOutputValueClass(), segments,
                segments.size(), new Path(context.getReduceId().toString()), comparator, context.getReporter(),
                context.getSpilledRecordsCounter(), null, null);
        }
    }

    /** A map output held in memory: its IFile records, checksum verified and decompressed as Hadoop's in-memory outputs are. */
    static final class HeldOutput<K, V> extends MapOutput<K, V> {
        private final KeyRunMergeManager<K, V> manager;
        /** The output's bytes, the first {@link #length} of it (a spare array may be longer). */
        final byte[] memory;
        final int length;

        HeldOutput(KeyRunMergeManager<K, V> manager, TaskAttemptID mapId, int size) {
            super(mapId, size, true);
            this.manager = manager;
            memory = SpareArrays.take(size);
            length = size;
        }

        @Override
        public void shuffle(MapHost host, InputStream input, long compressedLength, long decompressedLength,
            ShuffleClientMetrics metrics, Reporter reporter) throws IOException {
            InputStream in = new IFileInputStream(input, compressedLength, manager.conf);
            CompressionCodec codec = manager.context.getCodec();
            Decompressor decompressor = codec == null ? null : CodecPool.getDecompressor(codec);
            try {
                if (codec != null) {
                    decompressor.reset();
                    in = codec.createInputStream(in, decompressor);
                }
                IOUtils.readFully(in, memory, 0, length);
                metrics.inputBytes(length);
                reporter.progress();
                if (in.read() >= 0) {
                    throw new IOException("unexpected extra bytes in the map output of " + getMapId());
                }
            } finally {
                if (decompressor != null) {
                    CodecPool.returnDecompressor(decompressor);
                }
            }
        }

        @Override
        public void commit() {
            manager.commit(this);
        }

        @Override
        public void abort() {
            manager.abort(this);
        }

        @Override
        public String getDescription() {
            return "MEMORY (held for the key-run merge)";
        }
    }

    /** A merge result read as one more segment of a merge. */
    static final class IteratorReader<K, V> extends IFile.Reader<K, V> {
        private final RawKeyValueIterator records;

        IteratorReader(RawKeyValueIterator records) throws IOException {
            super(null, null, 0, null, null);
            this.records = records;
        }

        @Override
        public boolean nextRawKey(DataInputBuffer key) throws IOException {
            if (!records.next()) {
                return false;
            }
            DataInputBuffer k = records.getKey();
            key.reset(k.getData(), k.getPosition(), k.getLength() - k.getPosition());
            return true;
        }

        @Override
        public void nextRawValue(DataInputBuffer value) throws IOException {
            DataInputBuffer v = records.getValue();
            value.reset(v.getData(), v.getPosition(), v.getLength() - v.getPosition());
        }

        @Override
        public long getPosition() {
            return 0;
        }

        @Override
        public void close() throws IOException {
            records.close();
        }
    }
}
