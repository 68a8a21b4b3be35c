package io.fpgamr.md5.job;

import io.fpgamr.md5.balance.ClaimLog;
import io.fpgamr.md5.balance.WorkPlan;
import io.fpgamr.md5.balance.WorkStream;
import io.fpgamr.md5.shuffle.ByteKeyCollector;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;

/**
 * Input without stored data, after TeraGen's RangeInputFormat: the domain {@code [0, 2^bits)} is cut
 * into records of {@code ppk} consecutive values (key = first value, value = count; the last record
 * may be short). How records reach the maps:
 * <ul>
 *   <li>streamed (the default, {@link WorkPlan}): each map's split is one reserved work unit (a
 *       batch of 2^18 values), and its reader then hands the map the units it claims from the
 *       job's pool while it runs ({@link WorkStream}), so each node hashes the share its speed
 *       earns;
 *   <li>static ({@code fpgamr.balance=static}, or {@code records.per.split} given): splits of
 *       {@code records.per.split} records (the last split may be short), as plain Hadoop would.
 * </ul>
 */
public class Md5RangeInputFormat extends InputFormat<LongWritable, LongWritable> {

    /** Records {@code [firstRecord, firstRecord + records)}; a streamed split's map claims more as it runs. */
    public static class RangeSplit extends InputSplit implements Writable {
        long firstRecord;
        long records;
        boolean streams;

        public RangeSplit() {
        }

        RangeSplit(long firstRecord, long records, boolean streams) {
            this.firstRecord = firstRecord;
            this.records = records;
            this.streams = streams;
        }

        public long firstRecord() {
            return firstRecord;
        }

        public long records() {
            return records;
        }

        @Override
        public long getLength() {
            return records;
        }

        @Override
        public String[] getLocations() {
            return new String[0];
        }

        @Override
        public void write(DataOutput out) throws IOException {
            out.writeLong(firstRecord);
            out.writeLong(records);
            out.writeBoolean(streams);
        }

        @Override
        public void readFields(DataInput in) throws IOException {
            firstRecord = in.readLong();
            records = in.readLong();
            streams = in.readBoolean();
        }

        @Override
        public String toString() {
            return "records " + firstRecord + "+" + records + (streams ? " and claimed units" : "");
        }
    }

    /** Total number of records for a domain size and values per record. */
    public static long recordCount(long domainSize, int ppk) {
        return (domainSize + ppk - 1) / ppk;
    }

    /** Whether the job streams its work (claims) or has static splits of {@link JobKeys#RECORDS_PER_SPLIT}. */
    public static boolean streams(Configuration conf) {
        return WorkPlan.streams(conf) && conf.getLong(JobKeys.RECORDS_PER_SPLIT, 0) <= 0;
    }

    /** Records per split: the configured value, else enough splits for every map slot ({@link JobKeys#MAPS}). */
    public static long recordsPerSplit(Configuration conf) {
        long records = recordCount(JobKeys.domain(conf).size(), JobKeys.ppk(conf));
        long configured = conf.getLong(JobKeys.RECORDS_PER_SPLIT, 0);
        if (configured > 0) {
            return configured;
        }
        int maps = Math.max(1, conf.getInt(JobKeys.MAPS, 2));
        return Math.max(1, (records + maps - 1) / maps);
    }

    /** The splits of a domain: cover every record exactly once, in order. */
    public static List<InputSplit> splits(long domainSize, int ppk, long recordsPerSplit) {
        long total = recordCount(domainSize, ppk);
        List<InputSplit> splits = new ArrayList<>();
        for (long first = 0; first < total; first += recordsPerSplit) {
            splits.add(new RangeSplit(first, Math.min(recordsPerSplit, total - first), false));
        }
        return splits;
    }

    /** A streamed job's splits: each map's reserved unit (the plan's first units), as records. */
    public static List<InputSplit> streamedSplits(WorkPlan plan, int ppk) {
        List<InputSplit> splits = new ArrayList<>();
        for (long u = 0; u < plan.reserved(); u++) {
            long[] r = records(plan, ppk, u, 1);
            splits.add(new RangeSplit(r[0], r[1] - r[0], true));
        }
        return splits;
    }

    /** The records {@code [r[0], r[1])} of units {@code [first, first + count)}. */
    static long[] records(WorkPlan plan, int ppk, long first, long count) {
        long[] v = plan.values(first, count);
        return new long[] {v[0] / ppk, (v[1] + ppk - 1) / ppk};
    }

    @Override
    public List<InputSplit> getSplits(JobContext context) {
        Configuration conf = context.getConfiguration();
        if (streams(conf)) {
            return streamedSplits(WorkPlan.of(conf), JobKeys.ppk(conf));
        }
        Domain domain = JobKeys.domain(conf);
        return splits(domain.size(), JobKeys.ppk(conf), recordsPerSplit(conf));
    }

    @Override
    public RecordReader<LongWritable, LongWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
        return new RangeReader();
    }

    /**
     * Yields (first value, value count) per record of the split, then, for a streamed split, of each
     * range of units its {@link WorkStream} claims.
     */
    static class RangeReader extends RecordReader<LongWritable, LongWritable> {
        private long domainSize;
        private int ppk;
        private long next;
        private long end;
        private long first;
        private WorkPlan plan;
        private WorkStream stream;
        private boolean began;
        private TaskAttemptID taskAttempt;
        private final LongWritable key = new LongWritable();
        private final LongWritable value = new LongWritable();

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
            Configuration conf = context.getConfiguration();
            RangeSplit range = (RangeSplit) split;
            domainSize = JobKeys.domain(conf).size();
            ppk = JobKeys.ppk(conf);
            first = range.firstRecord;
            next = range.firstRecord;
            end = range.firstRecord + range.records;
            if (range.streams) {
                plan = WorkPlan.of(conf);
                TaskAttemptID id = context.getTaskAttemptID();
                taskAttempt = id;
                ClaimLog log = ClaimLog.open(conf, WorkPlan.logDir(conf), id.toString());
                stream = new WorkStream(log, plan, id.getTaskID().getId(), id.getId(), 0, System::currentTimeMillis);
                // without speculative maps a task's next attempt starts once its earlier ones have ended
                if (id.getId() > 0 && !conf.getBoolean(MRJobConfig.MAP_SPECULATIVE, true)) {
                    stream.earlierAttemptsEnded();
                }
            }
        }

        @Override
        public boolean nextKeyValue() throws IOException, InterruptedException {
            if (stream != null && !began) {
                // the map's engine is open now (its setup ran): its speed is given by its node and engine
                began = true;
                WorkPlan.Given g = plan.given(TaskSpans.host(), EngineMapper.runningEngineKind());
                stream.given(g == null ? 0 : g.valuesPerS());
                // a bench map's pairs wait in its collector: it claims what that holds (one pair per value)
                ByteKeyCollector<?, ?> collector = ByteKeyCollector.of(taskAttempt);
                if (collector != null) {
                    stream.holds(collector.holdsRecords());
                }
                stream.begin((end - next) * ppk);
            }
            while (next >= end) {
                if (stream == null) {
                    return false;
                }
                WorkStream.Range r = stream.next();
                if (r == null) {
                    stream = null;
                    return false;
                }
                long[] recs = records(plan, ppk, r.first(), r.count());
                next = recs[0];
                end = recs[1];
            }
            long start = next * ppk;
            key.set(start);
            value.set(Math.min(ppk, domainSize - start));
            next++;
            return true;
        }

        @Override
        public LongWritable getCurrentKey() {
            return key;
        }

        @Override
        public LongWritable getCurrentValue() {
            return value;
        }

        @Override
        public float getProgress() {
            if (stream != null) {
                return stream.progress();
            }
            return end == first || plan != null ? 1f : (next - first) / (float) (end - first);
        }

        @Override
        public void close() {
        }
    }
}
