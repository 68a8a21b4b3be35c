package io.fpgamr.md5.shuffle;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.IFile;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.util.Progress;

/**
 * The records of sorted in-memory IFile segments (length prefixes, key, value; an end marker), key
 * by key: the smallest key at the segments' heads, then that key's run from each segment in turn.
 */
final class KeyRunIterator<K, V> implements RawKeyValueIterator, KeyRunShuffle.KeyRuns {
    private static final int PROGRESS_EVERY = 1 << 16;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[][] data;
    /** Where each segment's bytes end in its array. */
    private final int[] limit;
    /** Whether the arrays go back to {@link SpareArrays} once read (held map outputs), or are the caller's. */
    private final boolean spare;
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

    KeyRunIterator(List<KeyRunShuffle.HeldOutput<K, V>> outputs, RawComparator<K> comparator, Counters.Counter mergedMapOutputs, Reporter reporter)
        throws IOException {
        this(outputs.stream().map(o -> o.memory).toArray(byte[][]::new), outputs.stream().mapToInt(o -> o.length).toArray(), true,
            primaries(outputs), comparator, mergedMapOutputs, reporter);
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
        this(segments, Arrays.stream(segments).mapToInt(d -> d.length).toArray(), false, primary, comparator, mergedMapOutputs, reporter);
    }

    private KeyRunIterator(byte[][] segments, int[] limit, boolean spare, boolean[] primary, RawComparator<K> comparator,
        Counters.Counter mergedMapOutputs, Reporter reporter) throws IOException {
        int n = segments.length;
        this.limit = limit.clone();
        this.spare = spare;
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
            total += limit[s];
            parseHead(s, 0);
        }
        totalBytes = Math.max(1, total);
        segment = n;
    }

    /** Reads the record at {@code pos} of segment {@code s} as its head, or marks the segment done at its end marker. */
    private void parseHead(int s, int pos) throws IOException {
        byte[] d = data[s];
        if (pos >= limit[s]) {
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
        if (kl < 0 || vl < 0 || pos + ks + vs + kl + vl > limit[s]) {
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
    public long readRun(KeyRunShuffle.RunReader reader) throws IOException, InterruptedException {
        long n = 0;
        if (pending) {
            pending = false;
            reader.values(value.getData(), value.getPosition(), value.getLength() - value.getPosition(), 0, 1);
            n++;
        }
        for (int s = segment; s < data.length; s++) {
            byte[] segmentData = data[s];
            while (headIsRunKey(s)) {
                // The head was checked by parseHead; the records after it whose prefixes and key
                // are the same bytes have the same lengths and key, and end inside the segment.
                byte[] d = data[s];
                int first = head[s];
                int stride = next[s] - first;
                int same = keyOff[s] + keyLen[s] - first;
                int end = next[s];
                int count = 1;
                if (same <= Long.BYTES && stride >= Long.BYTES) {
                    // prefixes and key in one load each (a record is at least a long): Arrays.equals on
                    // these three bytes was a sixth of the 2^28 bench's samples
                    long mask = same == Long.BYTES ? -1L : (1L << (8 * same)) - 1;
                    long prefix = (long) LONG_LE.get(d, first) & mask;
                    while (end + stride <= limit[s] && ((long) LONG_LE.get(d, end) & mask) == prefix) {
                        end += stride;
                        count++;
                    }
                } else {
                    while (end + stride <= limit[s] && Arrays.equals(d, first, first + same, d, end, end + same)) {
                        end += stride;
                        count++;
                    }
                }
                reader.values(d, valueOff[s], valueLen[s], stride, count);
                n += count;
                bytesDone += (long) count * (keyLen[s] + valueLen[s]);
                parseHead(s, end);
            }
            if (spare && segmentData != null && next[s] < 0) {
                // read to its end marker, and the reader keeps no reference past its call
                SpareArrays.give(segmentData);
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
        KeyRunShuffle.forget(this);
        for (int s = 0; s < data.length; s++) {
            data[s] = null;
        }
    }
}
