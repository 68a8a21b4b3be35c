package io.fpgamr.md5.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.md5.job.BenchMapper;
import io.fpgamr.md5.job.BenchReducer;
import io.fpgamr.md5.job.HashedValue;
import io.fpgamr.md5.job.Md5Counters;
import io.fpgamr.md5.shuffle.BenchJobHarness.Shuffled;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench reduce's bulk read of the key-run shuffle's held outputs: in real jobs on Hadoop's
 * local runner against the per-record path on the same map outputs, and the key-run iterator's
 * bulk view on IFile segments built here, record for record against its own per-record walk.
 */
class BulkReduceTest {
    private static final int BITS = 16;
    /** 2^14 values per record, one record per split: 4 maps. */
    private static final int PPK = 1 << 14;
    private static final int MAPS = 4;

    @TempDir
    static Path tmp;

    /** The bench reducer, counting the keys that went through the per-record path's reduce call. */
    public static class CountingBenchReducer extends BenchReducer {
        static final AtomicLong PER_RECORD_KEYS = new AtomicLong();

        @Override
        protected void reduce(ByteWritable key, Iterable<HashedValue> values, Context context) throws IOException, InterruptedException {
            PER_RECORD_KEYS.incrementAndGet();
            super.reduce(key, values, context);
        }
    }

    /** The second value of key byte 7 replaced by the first: every record and byte count stays exact. */
    public static class SwappingMapper extends BenchJobHarness.PairByPairMapper {
        @Override
        protected long valueAt(long v) {
            return v == 7 + 256 ? 7 : v;
        }
    }

    private static Shuffled bench(String name, Class<? extends org.apache.hadoop.mapreduce.Mapper> mapper, boolean bulk) throws Exception {
        CountingBenchReducer.PER_RECORD_KEYS.set(0);
        return new BenchJobHarness(tmp).run(name, BITS, PPK, 1, mapper, CountingBenchReducer.class,
            Map.of(BenchReducer.BULK, String.valueOf(bulk)));
    }

    @Test
    void bulkAndPerRecordReducesGiveTheSameCountersAndOutput() throws Exception {
        Shuffled perRecord = bench("per-record", BenchMapper.class, false);
        assertEquals(256, CountingBenchReducer.PER_RECORD_KEYS.get(), "every key through Hadoop's reduce context");
        Shuffled bulk = bench("bulk", BenchMapper.class, true);
        assertEquals(0, CountingBenchReducer.PER_RECORD_KEYS.get(), "every key read in bulk");

        List<String> preimage = List.of("096822475dd517c1089f4b58c7f346ef:$HEX[00000123]");
        List<String> found = bulk.linesByReducer().values().stream().flatMap(List::stream).toList();
        assertEquals(preimage, found);
        assertEquals(perRecord.linesByReducer(), bulk.linesByReducer());
        for (Shuffled s : List.of(perRecord, bulk)) {
            assertEquals(1L << BITS, s.count(TaskCounter.REDUCE_INPUT_RECORDS));
            assertEquals(256, s.count(TaskCounter.REDUCE_INPUT_GROUPS));
            assertEquals((long) MAPS * BenchJobHarness.REDUCERS, s.count(TaskCounter.MERGED_MAP_OUTPUTS));
            assertEquals(1, s.count(TaskCounter.REDUCE_OUTPUT_RECORDS));
            assertEquals(256, s.count(Md5Counters.KEYS_CHECKED));
            assertEquals(0, s.count(Md5Counters.KEYS_WRONG));
            assertEquals(1, s.count(Md5Counters.PREIMAGES_FOUND));
            assertEquals(1L << BITS, s.count(TaskCounter.SPILLED_RECORDS), "held in memory: spilled once, by the maps");
        }
    }

    @Test
    void aValueTwiceAndAnotherMissingIsAWrongKeyOnTheBulkPath() throws Exception {
        Shuffled s = bench("swapped", SwappingMapper.class, true);
        assertEquals(0, CountingBenchReducer.PER_RECORD_KEYS.get(), "read in bulk");
        assertEquals(1L << BITS, s.count(TaskCounter.REDUCE_INPUT_RECORDS));
        assertEquals(256, s.count(Md5Counters.KEYS_CHECKED));
        assertEquals(1, s.count(Md5Counters.KEYS_WRONG));
    }

    // The iterator on segments built here: a record is a one-byte key and a value of `length` bytes
    // whose first byte names it.

    private static final RawComparator<ByteWritable> BYTES = WritableComparator.get(ByteWritable.class);

    private static void record(DataOutputBuffer out, int key, int name, int length) throws IOException {
        WritableUtils.writeVInt(out, 1);
        WritableUtils.writeVInt(out, length);
        out.writeByte(key);
        byte[] value = new byte[length];
        value[0] = (byte) name;
        out.write(value);
    }

    private static byte[] segment(int[][] records, boolean endMarker) throws IOException {
        DataOutputBuffer out = new DataOutputBuffer();
        for (int[] r : records) {
            record(out, r[0], r[1], r[2]);
        }
        if (endMarker) {
            WritableUtils.writeVInt(out, -1);
            WritableUtils.writeVInt(out, -1);
        }
        return Arrays.copyOf(out.getData(), out.getLength());
    }

    /** Segment 0: keys 1 1 1 2; segment 1: keys 1 2 2, a shorter value under 2, then 3 (a run crossing both segments). */
    private static byte[][] segments() throws IOException {
        return new byte[][] {
            segment(new int[][] {{1, 10, 20}, {1, 11, 20}, {1, 12, 20}, {2, 13, 20}}, true),
            segment(new int[][] {{1, 20, 20}, {2, 21, 20}, {2, 22, 20}, {2, 23, 19}, {3, 24, 20}}, true),
        };
    }

    /** "key:name/length" of each record, read record by record. */
    private static List<String> perRecord(KeyRunIterator<ByteWritable, ?> it) throws IOException {
        List<String> seen = new ArrayList<>();
        while (it.next()) {
            byte[] v = it.getValue().getData();
            seen.add(it.getKey().getData()[it.getKey().getPosition()] + ":" + v[it.getValue().getPosition()] + "/"
                + (it.getValue().getLength() - it.getValue().getPosition()));
        }
        return seen;
    }

    /** The same, read in bulk, and the chunks it came in ("count x length" per chunk). */
    private static List<String> bulk(KeyRunIterator<ByteWritable, ?> it, List<String> chunks) throws IOException, InterruptedException {
        List<String> seen = new ArrayList<>();
        while (it.nextRun()) {
            byte key = it.key()[0];
            long n = it.readRun((data, off, length, stride, count) -> {
                chunks.add(count + "x" + length);
                for (int i = 0; i < count; i++) {
                    seen.add(key + ":" + data[off + i * stride] + "/" + length);
                }
            });
            assertTrue(n > 0);
        }
        return seen;
    }

    private static KeyRunIterator<ByteWritable, ?> iterator(byte[][] segments) throws IOException {
        return new KeyRunIterator<>(segments, new boolean[segments.length], BYTES, null, Reporter.NULL);
    }

    @Test
    void theBulkViewGivesEveryRecordInTheOrderOfTheRecordByRecordWalk() throws Exception {
        List<String> expected = List.of("1:10/20", "1:11/20", "1:12/20", "1:20/20", "2:13/20", "2:21/20", "2:22/20", "2:23/19", "3:24/20");
        assertEquals(expected, perRecord(iterator(segments())));
        List<String> chunks = new ArrayList<>();
        assertEquals(expected, bulk(iterator(segments()), chunks));
        assertEquals(List.of("3x20", "1x20", "1x20", "2x20", "1x19", "1x20"), chunks);

        // as in a reduce: Hadoop's reduce context reads the first record when it is made
        KeyRunIterator<ByteWritable, ?> started = iterator(segments());
        assertTrue(started.next());
        chunks.clear();
        assertEquals(expected, bulk(started, chunks));
        assertEquals(List.of("1x20", "2x20", "1x20", "1x20", "2x20", "1x19", "1x20"), chunks);
    }

    @Test
    void aSegmentCutShortFailsWithOneIOExceptionNamingIt() throws Exception {
        byte[][] s = segments();
        s[1] = Arrays.copyOf(s[1], s[1].length - 2 - 23 - 10);
        KeyRunIterator<ByteWritable, ?> it = iterator(s);
        assertTrue(it.nextRun());
        IOException e = assertThrows(IOException.class, () -> {
            while (it.nextRun()) {
                it.readRun((data, off, length, stride, count) -> { });
            }
        });
        assertEquals("corrupt record at " + 3 * 23 + " of map output segment 1", e.getMessage());
    }
}
