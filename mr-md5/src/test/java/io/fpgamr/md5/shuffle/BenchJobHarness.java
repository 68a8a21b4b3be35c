package io.fpgamr.md5.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.accel.JavaMd5;
import io.fpgamr.md5.job.BenchMapper;
import io.fpgamr.md5.job.Domain;
import io.fpgamr.md5.job.HashedValue;
import io.fpgamr.md5.job.JobKeys;
import io.fpgamr.md5.job.Md5Counters;
import io.fpgamr.md5.job.Md5RangeInputFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.partition.HashPartitioner;

/**
 * The bench job's map and shuffle in real jobs on Hadoop's local runner (the bench mapper or a
 * pair-by-pair one, a reducer that reports what each key group held), with the bench job's
 * shuffle settings; and the checks of an exact shuffle.
 */
class BenchJobHarness {
    static final int REDUCERS = 5;

    private final Path tmp;

    BenchJobHarness(Path tmp) {
        this.tmp = tmp;
    }

    /** What the reducers saw, and the job's counters. */
    record Shuffled(Map<Integer, List<String>> linesByReducer, Counters counters) {
        long count(Enum<?> c) {
            return counters.findCounter(c).getValue();
        }
    }

    /**
     * Per key group: "key count bad", where bad counts the pairs whose message does not end in the
     * key byte or whose digest is not the message's MD5 (checked with the JDK's MD5).
     */
    public static class GroupReducer extends Reducer<ByteWritable, HashedValue, NullWritable, Text> {
        private MessageDigest md5;

        @Override
        protected void setup(Context context) throws IOException {
            try {
                md5 = MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
                throw new IOException(e);
            }
        }

        @Override
        protected void reduce(ByteWritable key, Iterable<HashedValue> values, Context context) throws IOException, InterruptedException {
            long n = 0;
            long bad = 0;
            for (HashedValue hv : values) {
                n++;
                byte[] b = hv.bytes();
                int w = hv.width();
                md5.update(b, 0, w);
                if (b[w - 1] != key.get() || !Arrays.equals(md5.digest(), Arrays.copyOfRange(b, w, w + 16))) {
                    bad++;
                }
            }
            context.write(NullWritable.get(), new Text(key.get() + " " + n + " " + bad));
        }
    }

    /** The bench map written pair by pair through the context (the collector's per-record path). */
    public static class PairByPairMapper extends Mapper<LongWritable, LongWritable, ByteWritable, HashedValue> {
        /** The value written under value {@code v}'s key byte: {@code v}. */
        protected long valueAt(long v) {
            return v;
        }


        @Override
        protected void map(LongWritable start, LongWritable count, Context context) throws IOException, InterruptedException {
            int width = new Domain(context.getConfiguration().getInt(JobKeys.BITS, 28)).width();
            HashedValue value = new HashedValue();
            value.setWidth(width);
            ByteWritable key = new ByteWritable();
            int[] state = new int[4];
            for (long v = start.get(); v < start.get() + count.get(); v++) {
                long written = valueAt(v);
                JavaMd5.hashValue(written, width, state);
                HashedValue.encode(written, width, JavaMd5.digestBytes(state), 0, value.bytes(), 0);
                key.set((byte) v);
                context.write(key, value);
            }
        }
    }

    Shuffled run(String name, int bits, int ppk, long recordsPerSplit, Class<? extends Mapper> mapper, Map<String, String> extra)
        throws Exception {
        return run(name, bits, ppk, recordsPerSplit, mapper, GroupReducer.class, extra);
    }

    Shuffled run(String name, int bits, int ppk, long recordsPerSplit, Class<? extends Mapper> mapper, Class<? extends Reducer> reducer,
        Map<String, String> extra) throws Exception {
        Configuration conf = new Configuration();
        conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", tmp.resolve("hadoop-" + name).toString());
        conf.setInt("mapreduce.local.map.tasks.maximum", 2);
        conf.setInt("mapreduce.local.reduce.tasks.maximum", 2);
        // waitForCompletion looks whether the job ended every 5 s by default: a 2-second job waited
        // 2.5 s more on average, most of this harness's time in a class of short jobs
        conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 50);
        conf.setInt(JobKeys.BITS, bits);
        conf.setInt(JobKeys.PPK, ppk);
        conf.setLong(JobKeys.RECORDS_PER_SPLIT, recordsPerSplit);
        conf.setStrings(JobKeys.TARGETS, "096822475dd517c1089f4b58c7f346ef");
        conf.set(JobKeys.ENGINE, "cpu");
        Job job = Job.getInstance(conf, name);
        job.setInputFormatClass(Md5RangeInputFormat.class);
        job.setMapperClass(mapper);
        job.setMapOutputKeyClass(ByteWritable.class);
        job.setMapOutputValueClass(HashedValue.class);
        job.setReducerClass(reducer);
        job.setNumReduceTasks(REDUCERS);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(Text.class);
        job.setOutputFormatClass(TextOutputFormat.class);
        // the test's settings first, as a user's -D: BenchShuffle keeps them
        extra.forEach(job.getConfiguration()::set);
        BenchShuffle.configure(job.getConfiguration());
        Path out = tmp.resolve(name);
        FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(out.toUri()));
        assertTrue(job.waitForCompletion(false), name + " failed");
        awaitLocalRunnerCleanUp(tmp.resolve("hadoop-" + name), job.getJobID().toString());
        Map<Integer, List<String>> lines = new TreeMap<>();
        for (int r = 0; r < REDUCERS; r++) {
            lines.put(r, Files.readAllLines(out.resolve(String.format("part-r-%05d", r))));
        }
        return new Shuffled(lines, job.getCounters());
    }

    /**
     * Waits until the local runner's thread has deleted the job's local copy of its job.xml (and its
     * checksum): waitForCompletion returns once the runner marks the job done, before that clean-up,
     * which then raced the deletion of the test's temporary directory (a run under load failed there).
     */
    private static void awaitLocalRunnerCleanUp(Path hadoopTmp, String jobId) throws IOException, InterruptedException {
        Path runner = hadoopTmp.resolve("mapred/local/localRunner");
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (Files.exists(runner)) {
            try (var files = Files.walk(runner)) {
                if (files.noneMatch(f -> f.getFileName().toString().equals(jobId + ".xml"))) {
                    return;
                }
            } catch (java.io.UncheckedIOException e) {
                // a folder deleted while walked: look again
            }
            assertTrue(System.nanoTime() < deadline, "the local runner kept " + jobId + ".xml for 60 s after the job ended");
            Thread.sleep(20);
        }
    }

    Shuffled run(String name, int bits, int ppk, long recordsPerSplit) throws Exception {
        return run(name, bits, ppk, recordsPerSplit, BenchMapper.class, Map.of());
    }

    /** Each reducer gets exactly its key bytes, in the key's sort order, each with all of its 2^bits/256 pairs, all intact. */
    static void assertExactShuffle(Shuffled s, int bits) {
        HashPartitioner<ByteWritable, HashedValue> partitioner = new HashPartitioner<>();
        long perKey = (1L << bits) / 256;
        for (int r = 0; r < REDUCERS; r++) {
            List<String> expected = new ArrayList<>();
            for (int b = Byte.MIN_VALUE; b <= Byte.MAX_VALUE; b++) {
                if (partitioner.getPartition(new ByteWritable((byte) b), null, REDUCERS) == r) {
                    expected.add(b + " " + perKey + " 0");
                }
            }
            assertEquals(expected, s.linesByReducer().get(r), "reducer " + r);
        }
    }

    static void assertExactCounters(Shuffled s, int bits, int maps) {
        long n = 1L << bits;
        assertEquals(n, s.count(Md5Counters.VALUES_HASHED));
        assertEquals(n, s.count(TaskCounter.MAP_OUTPUT_RECORDS));
        assertEquals(n * 21, s.count(TaskCounter.MAP_OUTPUT_BYTES), "1 + 4 + 16 bytes per pair");
        // IFile: two one-byte length prefixes per record; per segment a 2-byte end marker and a 4-byte checksum
        long materialized = n * 23 + (long) maps * REDUCERS * 6;
        assertEquals(materialized, s.count(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES));
        assertEquals(materialized, s.count(TaskCounter.REDUCE_SHUFFLE_BYTES));
        assertEquals(n, s.count(TaskCounter.REDUCE_INPUT_RECORDS));
        assertEquals(256, s.count(TaskCounter.REDUCE_INPUT_GROUPS));
    }

}
