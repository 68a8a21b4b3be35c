package io.fpgamr.md5.shuffle;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.ShuffleConsumerPlugin;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.reduce.InMemoryReader;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.MergeManager;
import org.apache.hadoop.mapreduce.task.reduce.MergeManagerImpl;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.util.Progress;
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
                if (!overflowed && reserved + size <= holdLimit && size <= Integer.MAX_VALUE) {
                    reserved += size;
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
                segments.add(new Merger.Segment<>(new InMemoryReader<>(null, o.getMapId(), o.memory, 0, o.memory.length, conf), true,
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
        final byte[] memory;

        HeldOutput(KeyRunMergeManager<K, V> manager, TaskAttemptID mapId, int size) {
            super(mapId, size, true);
            this.manager = manager;
            memory = new byte[size];
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
                IOUtils.readFully(in, memory, 0, memory.length);
                metrics.inputBytes(memory.length);
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

    /**
     * The records of sorted in-memory IFile segments (length prefixes, key, value; an end marker), key
     * by key: the smallest key at the segments' heads, then that key's run from each segment in turn.
     */
    static final class KeyRunIterator<K, V> implements RawKeyValueIterator, KeyRuns {
        private static final int PROGRESS_EVERY = 1 << 16;

        private final byte[][] data;
        private final boolean[] primary;
        private final RawComparator<K> comparator;
        private final Counters.Counter mergedMapOutputs;
        private final Reporter reporter;
        /** Per segment, its head record: its start, key offset and length, value offset and length, end of the record (-1: segment done). */
        private final int[] head;
        private final int[] keyOff;
        private final int[] keyLen;
        private final int[] valueOff;
        private final int[] valueLen;
        private final int[] next;
        private final DataInputBuffer key = new DataInputBuffer();
        private final DataInputBuffer value = new DataInputBuffer();
        private final Progress progress = new Progress();
        private final long totalBytes;
        private long bytesDone;
        private long records;
        private byte[] runKey = new byte[0];
        private int runKeyLen;
        private int segment;
        /** The record next() returned last, not yet read: the reduce context reads one on its creation. */
        private boolean pending;

        KeyRunIterator(List<HeldOutput<K, V>> outputs, RawComparator<K> comparator, Counters.Counter mergedMapOutputs, Reporter reporter)
            throws IOException {
            this(outputs.stream().map(o -> o.memory).toArray(byte[][]::new), primaries(outputs), comparator, mergedMapOutputs, reporter);
        }

        private static boolean[] primaries(List<? extends MapOutput<?, ?>> outputs) {
            boolean[] p = new boolean[outputs.size()];
            for (int s = 0; s < p.length; s++) {
                p[s] = outputs.get(s).isPrimaryMapOutput();
            }
            return p;
        }

        /** Over IFile segments' bytes; a primary map output's segment counts as merged when it has been read. */
        KeyRunIterator(byte[][] segments, boolean[] primary, RawComparator<K> comparator, Counters.Counter mergedMapOutputs,
            Reporter reporter) throws IOException {
            int n = segments.length;
            this.comparator = comparator;
            this.mergedMapOutputs = mergedMapOutputs;
            this.reporter = reporter;
            head = new int[n];
            data = segments.clone();
            this.primary = primary.clone();
            keyOff = new int[n];
            keyLen = new int[n];
            valueOff = new int[n];
            valueLen = new int[n];
            next = new int[n];
            long total = 0;
            for (int s = 0; s < n; s++) {
                total += data[s].length;
                parseHead(s, 0);
            }
            totalBytes = Math.max(1, total);
            segment = n;
        }

        /** Reads the record at {@code pos} of segment {@code s} as its head, or marks the segment done at its end marker. */
        private void parseHead(int s, int pos) throws IOException {
            byte[] d = data[s];
            if (pos >= d.length) {
                throw new IOException("map output segment " + s + " ends without IFile's end marker");
            }
            int kl = WritableComparator.readVInt(d, pos);
            int ks = WritableUtils.decodeVIntSize(d[pos]);
            int vl = WritableComparator.readVInt(d, pos + ks);
            int vs = WritableUtils.decodeVIntSize(d[pos + ks]);
            if (kl == IFile.EOF_MARKER && vl == IFile.EOF_MARKER) {
                next[s] = -1;
                data[s] = null;
                if (primary[s] && mergedMapOutputs != null) {
                    mergedMapOutputs.increment(1);
                }
                return;
            }
            if (kl < 0 || vl < 0 || pos + ks + vs + kl + vl > d.length) {
                throw new IOException("corrupt record at " + pos + " of map output segment " + s);
            }
            head[s] = pos;
            keyOff[s] = pos + ks + vs;
            keyLen[s] = kl;
            valueOff[s] = keyOff[s] + kl;
            valueLen[s] = vl;
            next[s] = valueOff[s] + vl;
        }

        private boolean headIsRunKey(int s) {
            return next[s] >= 0 && comparator.compare(data[s], keyOff[s], keyLen[s], runKey, 0, runKeyLen) == 0;
        }

        @Override
        public boolean next() throws IOException {
            while (segment < data.length && !headIsRunKey(segment)) {
                segment++;
            }
            if (segment == data.length && !startNextRun()) {
                pending = false;
                return false;
            }
            pending = true;
            int s = segment;
            key.reset(data[s], keyOff[s], keyLen[s]);
            value.reset(data[s], valueOff[s], valueLen[s]);
            bytesDone += valueOff[s] + valueLen[s] - keyOff[s];
            if (++records % PROGRESS_EVERY == 0) {
                progress.set(Math.min(1f, (float) bytesDone / totalBytes));
            }
            // the record stays readable through key and value (they hold its array) until the next call
            parseHead(s, next[s]);
            return true;
        }

        @Override
        public boolean nextRun() {
            return pending || startNextRun();
        }

        @Override
        public byte[] key() {
            return runKey;
        }

        @Override
        public int keyLength() {
            return runKeyLen;
        }

        @Override
        public long readRun(RunReader reader) throws IOException, InterruptedException {
            long n = 0;
            if (pending) {
                pending = false;
                reader.values(value.getData(), value.getPosition(), value.getLength() - value.getPosition(), 0, 1);
                n++;
            }
            for (int s = segment; s < data.length; s++) {
                while (headIsRunKey(s)) {
                    // The head was checked by parseHead; the records after it whose prefixes and key
                    // are the same bytes have the same lengths and key, and end inside the segment.
                    byte[] d = data[s];
                    int first = head[s];
                    int stride = next[s] - first;
                    int same = keyOff[s] + keyLen[s] - first;
                    int end = next[s];
                    int count = 1;
                    while (end + stride <= d.length && Arrays.equals(d, first, first + same, d, end, end + same)) {
                        end += stride;
                        count++;
                    }
                    reader.values(d, valueOff[s], valueLen[s], stride, count);
                    n += count;
                    bytesDone += (long) count * (keyLen[s] + valueLen[s]);
                    parseHead(s, end);
                }
            }
            segment = data.length;
            records += n;
            progress.set(Math.min(1f, (float) bytesDone / totalBytes));
            // what ReduceTask's wrapper of this iterator does on each record
            if (reporter instanceof Task.TaskReporter task) {
                task.setProgress(progress.getProgress());
            } else if (reporter != null) {
                reporter.progress();
            }
            return n;
        }

        /** The smallest key among the segments' heads becomes the run key; false when every segment is done. */
        private boolean startNextRun() {
            int min = -1;
            for (int s = 0; s < data.length; s++) {
                if (next[s] >= 0 && (min < 0 || comparator.compare(data[s], keyOff[s], keyLen[s], data[min], keyOff[min], keyLen[min]) < 0)) {
                    min = s;
                }
            }
            if (min < 0) {
                progress.set(1f);
                return false;
            }
            if (runKey.length < keyLen[min]) {
                runKey = new byte[keyLen[min]];
            }
            System.arraycopy(data[min], keyOff[min], runKey, 0, keyLen[min]);
            runKeyLen = keyLen[min];
            segment = min;
            return true;
        }

        @Override
        public DataInputBuffer getKey() {
            return key;
        }

        @Override
        public DataInputBuffer getValue() {
            return value;
        }

        @Override
        public Progress getProgress() {
            return progress;
        }

        @Override
        public void close() {
            HELD.values().remove(this);
            for (int s = 0; s < data.length; s++) {
                data[s] = null;
            }
        }
    }
}
