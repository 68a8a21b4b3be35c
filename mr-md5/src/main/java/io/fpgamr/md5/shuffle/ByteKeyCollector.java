package io.fpgamr.md5.shuffle;

import io.fpgamr.md5.job.HashedValue;
import io.fpgamr.md5.job.Md5Counters;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputCollector;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapred.Merger;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A map-output collector for one-byte keys and fixed-length values: the bench job's pairs. Set
 * through {@code mapreduce.job.map.output.collector.class} (Hadoop's NativeTask collector is the
 * precedent), it replaces the comparison sort of Hadoop's {@code MapOutputBuffer} by a counting
 * sort: a record goes, already framed as an IFile record, into one of 256 buckets (one per key
 * byte); a spill writes the buckets partition by partition in the job's key order, page by page,
 * with no per-record work. With the memory for it (one spill per map, the default the bench job
 * asks for) the buckets go straight into the map's output file; otherwise spills are merged with
 * Hadoop's own {@link Merger}. Output and index are Hadoop's IFile and {@link SpillRecord} formats,
 * so the standard shuffle (the local runner's and the NodeManager's ShuffleHandler) serves them
 * unchanged, and the map-side counters (output records and bytes, materialized bytes, spilled
 * records) are counted as {@code MapOutputBuffer} counts them.
 *
 * <p>Besides {@link #collect}, {@link #collectHashedRange} takes a whole engine batch (one pair
 * per value, written from the engine's digest buffer with no per-record objects).
 *
 * <p>{@link #init} refuses, and MapTask moves on to the next collector of the list, when the job
 * is not of this shape: keys that do not serialize to one byte, values of another length, a
 * combiner, encrypted intermediate data, or a partitioner that needs the value.
 */
public class ByteKeyCollector<K, V> implements MapOutputCollector<K, V> {
    private static final Logger LOG = LoggerFactory.getLogger(ByteKeyCollector.class);

    /** Serialized length of every value, in bytes. */
    public static final String VALUE_BYTES = "fpgamr.collector.value.bytes";
    /** Memory for the buckets, MiB: when full, the buckets are spilled (and the spills merged at the end). */
    public static final String BUFFER_MB = "fpgamr.collector.buffer.mb";

    static final int KEYS = 256;
    private static final int PAGE_BYTES = 32 << 10;
    private static final int WRITE_BUFFER = 1 << 20;
    /** Values of a batch written key by key at a time: their digests, 256 KiB, stay in a core's cache. */
    private static final int TILE = 1 << 14;
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** The IFile checksum at the end of each segment (IFileOutputStream's CRC32). */
    private static final int CHECKSUM_BYTES = 4;
    /** As MapTask's: what the shuffle needs to read the output, whatever the task's umask. */
    private static final FsPermission SHUFFLE_OUTPUT_PERM = new FsPermission((short) 0640);
    private static final Map<String, ByteKeyCollector<?, ?>> OPEN = new ConcurrentHashMap<>();

    private JobConf job;
    private MapTask task;
    private Reporter reporter;
    private Counters.Counter spillUs;
    private MapOutputFile files;
    private FileSystem rfs;
    private int partitions;
    private Class<K> keyClass;
    private Class<V> valueClass;
    private CompressionCodec codec;
    private RawComparator<K> comparator;
    private Serializer<K> keySerializer;
    private Serializer<V> valueSerializer;
    private final DataOutputBuffer serialized = new DataOutputBuffer();
    private Progress sortPhase;

    private Counters.Counter outputRecords;
    private Counters.Counter outputBytes;
    private Counters.Counter materializedBytes;
    private Counters.Counter spilledRecords;

    /** An IFile record's two length prefixes, then the key byte, then the value. */
    private byte[] header;
    /** The header's bytes at the top of a big-endian long. */
    private long prefix;
    private int valueBytes;
    private int recordBytes;
    private int pageLimit;

    /** Partition of each key byte, and each partition's key bytes in the job's sort order. */
    private int[] partitionOf;
    private int[][] keysOf;

    /** Buckets: the pages of each key byte's records, the last one filled to {@code fill}. */
    private final List<byte[]> pages = new ArrayList<>();
    private int maxPages;
    private final int[][] pagesOf = new int[KEYS][];
    private final int[] pageCount = new int[KEYS];
    private final int[] fill = new int[KEYS];
    private final byte[][] current = new byte[KEYS][];
    private int pagesUsed;
    private long recordsHeld;

    private final List<SpillRecord> spills = new ArrayList<>();
    private String attempt;

    @Override
    @SuppressWarnings("unchecked")
    public void init(Context context) throws IOException, ClassNotFoundException {
        job = context.getJobConf();
        task = context.getMapTask();
        reporter = context.getReporter();
        files = task.getMapOutputFile();
        rfs = ((LocalFileSystem) FileSystem.getLocal(job)).getRaw();
        partitions = job.getNumReduceTasks();
        sortPhase = task.getSortPhase();
        keyClass = (Class<K>) job.getMapOutputKeyClass();
        valueClass = (Class<V>) job.getMapOutputValueClass();
        comparator = job.getOutputKeyComparator();
        valueBytes = job.getInt(VALUE_BYTES, -1);
        if (valueBytes < 0) {
            throw new IOException(VALUE_BYTES + " is not set");
        }
        if (job.getCombinerClass() != null || job.get(MRJobConfig.COMBINE_CLASS_ATTR) != null) {
            throw new IOException("a combiner is set: this collector does not run one");
        }
        if (CryptoUtils.isEncryptedSpillEnabled(job)) {
            throw new IOException("encrypted intermediate data: this collector writes plain IFiles");
        }
        codec = job.getCompressMapOutput()
            ? ReflectionUtils.newInstance(job.getMapOutputCompressorClass(DefaultCodec.class), job) : null;
        SerializationFactory serialization = new SerializationFactory(job);
        keySerializer = serialization.getSerializer(keyClass);
        keySerializer.open(serialized);
        valueSerializer = serialization.getSerializer(valueClass);
        valueSerializer.open(serialized);

        DataOutputBuffer h = new DataOutputBuffer();
        WritableUtils.writeVInt(h, 1);
        WritableUtils.writeVInt(h, valueBytes);
        header = Arrays.copyOf(h.getData(), h.getLength());
        for (int i = 0; i < header.length && i < Long.BYTES; i++) {
            prefix |= (header[i] & 0xffL) << (8 * (Long.BYTES - 1 - i));
        }
        recordBytes = recordBytes(valueBytes);
        pageLimit = PAGE_BYTES / recordBytes * recordBytes;
        KeyPartitions plan = new KeyPartitions(job, task.getTaskID().getJobID(), partitions, keyClass);
        partitionOf = plan.partitionOf;
        keysOf = plan.keysOf;
        maxPages = (int) Math.max(1, bufferBytes() / PAGE_BYTES);

        outputRecords = reporter.getCounter(TaskCounter.MAP_OUTPUT_RECORDS);
        outputBytes = reporter.getCounter(TaskCounter.MAP_OUTPUT_BYTES);
        materializedBytes = reporter.getCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
        spilledRecords = reporter.getCounter(TaskCounter.SPILLED_RECORDS);
        spillUs = reporter.getCounter(Md5Counters.MAP_SPILL_US);
        attempt = task.getTaskID().toString();
        OPEN.put(attempt, this);
        reporter.getCounter(Md5Counters.COLLECTOR_MAPS).increment(1);
        LOG.info("one-byte-key collector: {} partitions, {}-byte records, up to {} MiB of buckets", partitions, recordBytes,
            (long) maxPages * PAGE_BYTES >> 20);
    }

    /** The configured buffer, bounded by this map's share of the JVM's budget (the local runner's maps share one JVM). */
    private long bufferBytes() {
        long configured = (long) job.getInt(BUFFER_MB, job.getInt(MRJobConfig.IO_SORT_MB, MRJobConfig.DEFAULT_IO_SORT_MB)) << 20;
        int together = MRConfig.LOCAL_FRAMEWORK_NAME.equals(job.get(MRConfig.FRAMEWORK_NAME))
            ? job.getInt("mapreduce.local.map.tasks.maximum", 1) : 1;
        return Math.min(configured, BenchShuffle.budgetShare(together));
    }

    /** Bytes one record takes in the buckets and in the IFile: its two length prefixes, the key byte, the value. */
    static int recordBytes(int valueBytes) {
        return WritableUtils.getVIntSize(1) + WritableUtils.getVIntSize(valueBytes) + 1 + valueBytes;
    }

    /** The buffer, in MiB, that holds {@code records} records (one spill): their bytes and a partly filled page per key byte. */
    static int bufferMbFor(long records, int valueBytes) {
        long bytes = records * recordBytes(valueBytes) + (long) KEYS * PAGE_BYTES;
        return (int) Math.min(Integer.MAX_VALUE, (bytes + (1 << 20) - 1) >> 20);
    }

    /** The collector of a running map attempt, when the job uses this one, else null. */
    public static ByteKeyCollector<?, ?> of(org.apache.hadoop.mapreduce.TaskAttemptID attempt) {
        return OPEN.get(attempt.toString());
    }

    /**
     * Records this collector holds before it spills, at least: the pages it may use, less one per key
     * byte (each bucket's last page may be partly filled when the pages run out).
     */
    public long holdsRecords() {
        return Math.max(0L, maxPages - KEYS) * (pageLimit / recordBytes);
    }

    /** The serialized length of the values this collector takes. */
    int valueBytes() {
        return valueBytes;
    }

    @Override
    public synchronized void collect(K key, V value, int partition) throws IOException {
        serialized.reset();
        keySerializer.serialize(key);
        int keyLength = serialized.getLength();
        valueSerializer.serialize(value);
        int valueLength = serialized.getLength() - keyLength;
        if (keyLength != 1 || valueLength != valueBytes) {
            throw new IOException("record of a " + keyLength + "-byte key and a " + valueLength + "-byte value: this collector takes "
                + "1-byte keys and " + valueBytes + "-byte values");
        }
        byte[] d = serialized.getData();
        int b = d[0] & 0xff;
        if (partition != partitionOf[b]) {
            throw new IOException("key byte " + b + " went to partition " + partition + ", not " + partitionOf[b]
                + ": the partitioner depends on the value");
        }
        int off = reserve(b);
        byte[] page = current[b];
        System.arraycopy(header, 0, page, off, header.length);
        System.arraycopy(d, 0, page, off + header.length, 1 + valueBytes);
        outputRecords.increment(1);
    }

    /**
     * One pair per value of {@code [start, start + count)}: key = the value's least significant
     * byte, value = {@link HashedValue#encode message ‖ digest}, the digests at {@code 16 * i} of
     * {@code digests} (a batch of an engine's digests). Counted as {@code count} map output records.
     */
    public synchronized void collectHashedRange(long start, int count, int width, byte[] digests) throws IOException {
        if (width + 16 != valueBytes) {
            throw new IOException("values of " + (width + 16) + " bytes, this collector takes " + valueBytes);
        }
        // Tile by tile, and in a tile key by key: each bucket takes a sequential run of records
        // (values 256 apart) while the tile's digests stay in the core's cache; key by key over the
        // whole batch instead reads its 4 MiB of digests 256 times at a 4 KiB stride. But a tile
        // leaves a partly filled page in every key's bucket: with fewer than two pages a key, the
        // pages would run out on partly filled ones and spill a few records at a time, so a small
        // buffer takes the batch whole, each key's run filling its pages.
        int tile = maxPages >= 2 * KEYS ? TILE : count;
        for (int t = 0; t < count; t += tile) {
            int end = Math.min(count, t + tile);
            for (int k = 0; k < Math.min(KEYS, end - t); k++) {
                int b = (int) ((start + t + k) & 0xff);
                for (int i = t + k; i < end; ) {
                    int n = Math.min(room(b), (end - i + KEYS - 1) / KEYS);
                    byte[] page = current[b];
                    int off = fill[b];
                    for (int r = 0; r < n; r++, i += KEYS, off += recordBytes) {
                        writeHashed(page, off, b, start + i, width, digests, i);
                    }
                    fill[b] = off;
                    recordsHeld += n;
                }
            }
        }
        outputRecords.increment(count);
        reporter.progress();
    }

    /** One record at {@code page[off]}: the header, key byte {@code b}, then value {@code v}'s message ‖ digest. */
    private void writeHashed(byte[] page, int off, int b, long v, int width, byte[] digests, int index) {
        int h = header.length;
        if (h + 1 + width > Long.BYTES) {
            System.arraycopy(header, 0, page, off, h);
            page[off + h] = (byte) b;
            HashedValue.encode(v, width, digests, index, page, off + h + 1);
            return;
        }
        // header, key and message in one store; its bytes past them are the digest's, stored after it
        long message = v & ((1L << (8 * width)) - 1);
        LONG_BE.set(page, off, prefix | (long) b << (8 * (Long.BYTES - h - 1)) | message << (8 * (Long.BYTES - h - 1 - width)));
        int digestAt = off + h + 1 + width;
        LONG_BE.set(page, digestAt, (long) LONG_BE.get(digests, 16 * index));
        LONG_BE.set(page, digestAt + 8, (long) LONG_BE.get(digests, 16 * index + 8));
    }

    /** Room for one record in key byte {@code b}'s bucket: its offset in {@code current[b]}. */
    private int reserve(int b) throws IOException {
        room(b);
        int off = fill[b];
        fill[b] = off + recordBytes;
        recordsHeld++;
        return off;
    }

    /**
     * Records that fit in what is left of key byte {@code b}'s current page, at least one: a full or
     * missing page is replaced by a new one, after a spill when every page is in use.
     */
    private int room(int b) throws IOException {
        if (current[b] == null || fill[b] == pageLimit) {
            if (pagesUsed == maxPages) {
                spill();
            }
            newPage(b);
        }
        return (pageLimit - fill[b]) / recordBytes;
    }

    /** This map's pages to the spares, once its output is written or it is closed. */
    private void givePagesBack() {
        for (byte[] page : pages) {
            SpareArrays.give(page);
        }
        pages.clear();
    }

    private void newPage(int b) {
        int id = pagesUsed++;
        if (id == pages.size()) {
            pages.add(SpareArrays.take(PAGE_BYTES));
        }
        if (pagesOf[b] == null || pageCount[b] == pagesOf[b].length) {
            pagesOf[b] = Arrays.copyOf(pagesOf[b] == null ? new int[0] : pagesOf[b], Math.max(8, 2 * pageCount[b]));
        }
        pagesOf[b][pageCount[b]++] = id;
        current[b] = pages.get(id);
        fill[b] = 0;
    }

    /** Writes the buckets into a spill file and empties them. */
    private void spill() throws IOException {
        long t0 = System.nanoTime();
        Path file = files.getSpillFileForWrite(spills.size(), heldBytes());
        LOG.info("spill {}: {} records", spills.size(), recordsHeld);
        spills.add(writeBuckets(file));
        release();
        spillUs.increment((System.nanoTime() - t0) / 1000);
    }

    private long heldBytes() {
        return recordsHeld * recordBytes + (long) partitions * 64;
    }

    private void release() {
        Arrays.fill(pageCount, 0);
        Arrays.fill(fill, 0);
        Arrays.fill(current, null);
        pagesUsed = 0;
        recordsHeld = 0;
    }

    /** The buckets as one IFile segment per partition, each in key order; returns their index. */
    private SpillRecord writeBuckets(Path file) throws IOException {
        SpillRecord index = new SpillRecord(partitions);
        try (FSDataOutputStream out = rfs.create(file, true, WRITE_BUFFER)) {
            for (int p = 0; p < partitions; p++) {
                long segmentStart = out.getPos();
                IFile.Writer<K, V> writer = new IFile.Writer<>(job, out, keyClass, valueClass, codec, spilledRecords);
                DataOutputStream records = writer.getOutputStream();
                long written = 0;
                for (int b : keysOf[p]) {
                    for (int j = 0; j < pageCount[b]; j++) {
                        int length = j == pageCount[b] - 1 ? fill[b] : pageLimit;
                        records.write(pages.get(pagesOf[b][j]), 0, length);
                        for (int r = length / recordBytes; r > 0; r--) {
                            writer.updateCountersForExternalAppend(recordBytes);
                            written++;
                        }
                    }
                }
                writer.close();
                outputBytes.increment(keyValueBytes(writer, written));
                index.putIndex(new IndexRecord(segmentStart, writer.getRawLength(), writer.getCompressedLength()), p);
                reporter.progress();
            }
        }
        return index;
    }

    /**
     * The key and value bytes of a segment's {@code records} records, from what was written: the
     * bytes that reached the stream (an IFile counts them, its checksum included) less the framing,
     * as MapOutputBuffer counts the serialized bytes; with a codec, the bytes handed to it.
     */
    private long keyValueBytes(IFile.Writer<K, V> writer, long records) {
        long framing = records * header.length + 2L * WritableUtils.getVIntSize(IFile.EOF_MARKER);
        return (codec == null ? writer.getCompressedLength() - CHECKSUM_BYTES : writer.getRawLength()) - framing;
    }

    @Override
    public synchronized void flush() throws IOException, InterruptedException, ClassNotFoundException {
        long t0 = System.nanoTime();
        long spilled0 = spillUs.getValue();
        Path output;
        if (spills.isEmpty()) {
            // everything held: the buckets are the map's output, written once
            output = files.getOutputFileForWrite(heldBytes());
            SpillRecord index = writeBuckets(output);
            index.writeToFile(files.getOutputIndexFileForWrite((long) partitions * MapTask.MAP_OUTPUT_INDEX_RECORD_LENGTH), job);
        } else {
            if (recordsHeld > 0) {
                spill();
            }
            output = mergeSpills();
        }
        release();
        givePagesBack();
        materializedBytes.increment(rfs.getFileStatus(output).getLen());
        if (!SHUFFLE_OUTPUT_PERM.equals(SHUFFLE_OUTPUT_PERM.applyUMask(FsPermission.getUMask(job)))) {
            rfs.setPermission(output, SHUFFLE_OUTPUT_PERM);
            rfs.setPermission(files.getOutputIndexFile(), SHUFFLE_OUTPUT_PERM);
        }
        sortPhase.complete();
        // the spills in here are part of writing the output after the map function
        long spilledHere = spillUs.getValue() - spilled0;
        spillUs.increment(-spilledHere);
        reporter.getCounter(Md5Counters.MAP_SORT_US).increment((System.nanoTime() - t0) / 1000);
    }

    /** Merges the spills partition by partition with Hadoop's Merger into the map's output, as MapOutputBuffer does. */
    private Path mergeSpills() throws IOException {
        long size = (long) partitions * 64;
        Path[] spillFiles = new Path[spills.size()];
        for (int i = 0; i < spillFiles.length; i++) {
            spillFiles[i] = files.getSpillFile(i);
            size += rfs.getFileStatus(spillFiles[i]).getLen();
        }
        Path output = files.getOutputFileForWrite(size);
        Path indexFile = files.getOutputIndexFileForWrite((long) partitions * MapTask.MAP_OUTPUT_INDEX_RECORD_LENGTH);
        SpillRecord index = new SpillRecord(partitions);
        int factor = job.getInt(MRJobConfig.IO_SORT_FACTOR, MRJobConfig.DEFAULT_IO_SORT_FACTOR);
        sortPhase.addPhases(partitions);
        try (FSDataOutputStream out = rfs.create(output, true, WRITE_BUFFER)) {
            for (int p = 0; p < partitions; p++) {
                List<Merger.Segment<K, V>> segments = new ArrayList<>();
                for (int i = 0; i < spillFiles.length; i++) {
                    IndexRecord r = spills.get(i).getIndex(p);
                    segments.add(new Merger.Segment<>(job, rfs, spillFiles[i], r.startOffset, r.partLength, codec, true));
                }
                RawKeyValueIterator merged = Merger.merge(job, rfs, keyClass, valueClass, codec, segments, factor,
                    new Path(attempt), comparator, reporter, segments.size() > factor, null, spilledRecords, sortPhase.phase(),
                    TaskType.MAP);
                long segmentStart = out.getPos();
                IFile.Writer<K, V> writer = new IFile.Writer<>(job, out, keyClass, valueClass, codec, spilledRecords);
                Merger.writeFile(merged, writer, reporter, job);
                writer.close();
                index.putIndex(new IndexRecord(segmentStart, writer.getRawLength(), writer.getCompressedLength()), p);
                sortPhase.startNextPhase();
            }
        }
        index.writeToFile(indexFile, job);
        for (Path f : spillFiles) {
            rfs.delete(f, true);
        }
        return output;
    }

    @Override
    public void close() {
        OPEN.remove(attempt);
        givePagesBack();
    }
}
