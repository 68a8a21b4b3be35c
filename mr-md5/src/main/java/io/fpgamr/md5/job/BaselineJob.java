package io.fpgamr.md5.job;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import io.fpgamr.md5.shuffle.TimedMapOutputBuffer;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The same search written the way a Hadoop user would write it, the experiment report's baseline
 * (issue 16, item 4): one record per value (the range input at 1 PpK), {@link MessageDigest} in the
 * mapper, {@link Text} keys and values (key = the value's last byte in hex, value = message and
 * digest in hex), Hadoop's own collector and shuffle, and a reducer that compares hex strings. Only
 * its accounting is fpgamr's: the values hashed counter, the task spans, and where a map's time goes
 * (the same counters as the bench job's maps; Hadoop's collector with its flush timed,
 * {@link TimedMapOutputBuffer}), so that its runs are checked and timed like the bench job's.
 */
public final class BaselineJob {
    private BaselineJob() {
    }

    /** Sets the baseline's map, reduce and types on a job whose input, output and settings {@link Md5Job} made. */
    static void configure(Job job, int reducers) {
        job.setMapperClass(DigestMapper.class);
        job.setMapOutputKeyClass(Text.class);
        job.setMapOutputValueClass(Text.class);
        job.setReducerClass(MatchReducer.class);
        job.setNumReduceTasks(reducers);
        Defaults.set(job.getConfiguration(), MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, TimedMapOutputBuffer.class.getName());
    }

    /** Hashes each value of each record with {@link MessageDigest} and emits (last byte, message:digest), in hex. */
    public static class DigestMapper extends Mapper<LongWritable, LongWritable, Text, Text> {
        private MessageDigest md5;
        private Domain domain;
        private long setupMs;
        /** Its marks ({@link MapMarks}): the digest ready, the first record's start (0 before it), the last record's end. */
        private long engineOpenMs;
        private long hashStartMs;
        private long hashEndMs;
        private long hashed;
        /**
         * Where its time goes, wall nanoseconds, as the bench job's maps count it: hashing (the
         * value's bytes and {@code MessageDigest}), writing (hex, {@code Text}, {@code context.write}),
         * and between {@code map()} calls (reading records). It hashes and emits value by value, so
         * there is no batch to time: two clock reads per value (about 40 ns of its microseconds a value).
         */
        private long lastEnd;
        private long engineNs;
        private long writeNs;
        private long readNs;
        private final Text key = new Text();
        private final Text value = new Text();

        @Override
        protected void setup(Context context) {
            setupMs = System.currentTimeMillis();
            domain = JobKeys.domain(context.getConfiguration());
            try {
                md5 = MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
            engineOpenMs = System.currentTimeMillis();
            lastEnd = System.nanoTime();
        }

        @Override
        protected void map(LongWritable start, LongWritable count, Context context) throws IOException, InterruptedException {
            long t = System.nanoTime();
            readNs += t - lastEnd;
            if (hashStartMs == 0) {
                hashStartMs = System.currentTimeMillis();
            }
            for (long v = start.get(); v < start.get() + count.get(); v++) {
                byte[] message = new byte[domain.width()];
                for (int i = 0; i < message.length; i++) {
                    message[i] = (byte) (v >>> (8 * (message.length - 1 - i)));
                }
                byte[] digest = md5.digest(message);
                long hashedAt = System.nanoTime();
                engineNs += hashedAt - t;
                key.set(String.format(Locale.ROOT, "%02x", v & 0xff));
                value.set(HexFormat.of().formatHex(message) + ":" + HexFormat.of().formatHex(digest));
                context.write(key, value);
                context.getCounter(Md5Counters.VALUES_HASHED).increment(1);
                hashed++;
                t = System.nanoTime();
                writeNs += t - hashedAt;
            }
            lastEnd = t;
            hashEndMs = System.currentTimeMillis();
        }

        @Override
        protected void cleanup(Context context) throws IOException {
            context.getCounter(Md5Counters.MAP_ENGINE_US).increment(engineNs / 1000);
            context.getCounter(Md5Counters.MAP_READ_US).increment(readNs / 1000);
            context.getCounter(Md5Counters.MAP_WRITE_US).increment(writeNs / 1000);
            context.getCounter(Md5Counters.MAP_TASKS).increment(1);
            TaskSpans.writeMap(context, "cpu", false, setupMs, hashed, MapPlatform.of("java"),
                MapMarks.of(engineOpenMs, hashStartMs, hashEndMs));
        }
    }

    /** Keeps the pairs whose digest is a target, written as the bench job writes its preimages. */
    public static class MatchReducer extends Reducer<Text, Text, NullWritable, Text> {
        private final Set<String> targets = new HashSet<>();
        private Domain domain;
        private long readyMs;

        @Override
        protected void setup(Context context) {
            readyMs = System.currentTimeMillis();
            domain = JobKeys.domain(context.getConfiguration());
            for (String t : context.getConfiguration().getStrings(JobKeys.TARGETS, new String[0])) {
                targets.add(t.toLowerCase(Locale.ROOT));
            }
        }

        @Override
        protected void reduce(Text key, Iterable<Text> values, Context context) throws IOException, InterruptedException {
            for (Text v : values) {
                String[] messageAndDigest = v.toString().split(":");
                if (targets.contains(messageAndDigest[1])) {
                    long value = Long.parseLong(messageAndDigest[0], 16);
                    context.write(NullWritable.get(), new Text(domain.potfileLine(value, HexFormat.of().parseHex(messageAndDigest[1]))));
                    context.getCounter(Md5Counters.PREIMAGES_FOUND).increment(1);
                }
            }
        }

        @Override
        protected void cleanup(Context context) throws IOException {
            TaskSpans.writeReduce(context, readyMs);
        }
    }
}
