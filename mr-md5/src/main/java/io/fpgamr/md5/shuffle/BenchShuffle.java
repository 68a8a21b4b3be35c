package io.fpgamr.md5.shuffle;

import io.fpgamr.md5.job.Defaults;
import io.fpgamr.md5.job.Domain;
import io.fpgamr.md5.job.JobKeys;
import io.fpgamr.md5.job.Md5RangeInputFormat;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * Every job setting of the bench mode's shuffle path, in one place: the map-output collector fitted
 * to its pairs and its memory, intermediate compression, and the reduce side's buffers. A setting
 * the user gave (with {@code -D}, in a site file) is kept ({@link Defaults}).
 */
public final class BenchShuffle {
    /** The maps' and reduces' intermediate-data memory in one JVM at most (the local runner's), under the 2 GiB goal per JVM. */
    static final long JVM_BUDGET = 1L << 30;

    private BenchShuffle() {
    }

    /** Sets the bench job's shuffle path in {@code conf}, which already has the job's {@link JobKeys} and reducers. */
    public static void configure(Configuration conf) {
        Domain domain = JobKeys.domain(conf);
        int valueBytes = domain.width() + 16;
        int recordBytes = ByteKeyCollector.recordBytes(valueBytes);
        int reducers = Math.max(1, conf.getInt(MRJobConfig.NUM_REDUCES, 1));
        boolean local = MRConfig.LOCAL_FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME));

        // Map side: the one-byte-key collector, Hadoop's own second in the list (MapTask falls back
        // to it when ours refuses the job), with room for a whole split's pairs: one spill per map.
        // A collector the user chose (-D, a site file) is kept: Hadoop's own MapOutputBuffer runs
        // the same job on Hadoop's path, with the same exact counts.
        Defaults.set(conf, MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR,
            ByteKeyCollector.class.getName() + "," + MapTask.MapOutputBuffer.class.getName());
        conf.setInt(ByteKeyCollector.VALUE_BYTES, valueBytes);
        // A streamed map's output is what it claims: room for twice an even share (faster maps take
        // more; a map that outgrows it spills and merges).
        long values = Md5RangeInputFormat.streams(conf) ? Math.min(domain.size(), 2 * domain.size() / Math.max(1, conf.getInt(JobKeys.MAPS, 1)))
            : Math.min(domain.size(), Md5RangeInputFormat.recordsPerSplit(conf) * JobKeys.ppk(conf));
        Defaults.set(conf, ByteKeyCollector.BUFFER_MB, ByteKeyCollector.bufferMbFor(values, valueBytes));

        // No intermediate compression: 16 of a pair's 23 bytes are a digest, which does not
        // compress; on one machine and on loopback the codec's CPU costs more than the bytes it saves.
        Defaults.set(conf, MRJobConfig.MAP_OUTPUT_COMPRESS, "false");

        // Reduce side: keep the fetched map outputs in memory and reduce straight from them, key run
        // by key run (KeyRunShuffle; Hadoop's default writes them all to disk first and merges them
        // back), Hadoop's merge of all segments in one pass when they do not fit. The local
        // runner's reduces share this JVM: each gets its part of the budget.
        Defaults.set(conf, MRConfig.SHUFFLE_CONSUMER_PLUGIN, KeyRunShuffle.class.getName());
        Defaults.set(conf, MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, "1.0");
        Defaults.set(conf, MRJobConfig.SHUFFLE_MERGE_PERCENT, "0.9");
        Defaults.set(conf, MRJobConfig.IO_SORT_FACTOR, "100");
        if (local) {
            int together = Math.min(reducers, conf.getInt("mapreduce.local.reduce.tasks.maximum", 1));
            Defaults.set(conf, MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, budgetShare(together));
        }
    }

    /** A task's share of this JVM's intermediate-data budget when {@code together} tasks run in it at once. */
    static long budgetShare(int together) {
        return Math.min(Runtime.getRuntime().maxMemory() / 2, JVM_BUDGET) / Math.max(1, together);
    }
}
