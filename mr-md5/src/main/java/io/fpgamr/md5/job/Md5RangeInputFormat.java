package io.fpgamr.md5.job;

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
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Input without stored data, after TeraGen's RangeInputFormat: the domain {@code [0, 2^bits)} is cut
 * into records of {@code ppk} consecutive values (key = first value, value = count; the last record
 * may be short) and the records into splits of {@code records.per.split} (the last split may be short).
 */
public class Md5RangeInputFormat extends InputFormat<LongWritable, LongWritable> {

    /** Records {@code [firstRecord, firstRecord + records)}. */
    public static class RangeSplit extends InputSplit implements Writable {
        long firstRecord;
        long records;

        public RangeSplit() {
        }

        RangeSplit(long firstRecord, long records) {
            this.firstRecord = firstRecord;
            this.records = records;
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
        }

        @Override
        public void readFields(DataInput in) throws IOException {
            firstRecord = in.readLong();
            records = in.readLong();
        }

        @Override
        public String toString() {
            return "records " + firstRecord + "+" + records;
        }
    }

    /** Total number of records for a domain size and values per record. */
    public static long recordCount(long domainSize, int ppk) {
        return (domainSize + ppk - 1) / ppk;
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
            splits.add(new RangeSplit(first, Math.min(recordsPerSplit, total - first)));
        }
        return splits;
    }

    @Override
    public List<InputSplit> getSplits(JobContext context) {
        Configuration conf = context.getConfiguration();
        Domain domain = JobKeys.domain(conf);
        return splits(domain.size(), JobKeys.ppk(conf), recordsPerSplit(conf));
    }

    @Override
    public RecordReader<LongWritable, LongWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
        return new RangeReader();
    }

    /** Yields (first value, value count) per record of the split. */
    static class RangeReader extends RecordReader<LongWritable, LongWritable> {
        private long domainSize;
        private int ppk;
        private long next;
        private long end;
        private long first;
        private final LongWritable key = new LongWritable();
        private final LongWritable value = new LongWritable();

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) {
            Configuration conf = context.getConfiguration();
            RangeSplit range = (RangeSplit) split;
            domainSize = JobKeys.domain(conf).size();
            ppk = JobKeys.ppk(conf);
            first = range.firstRecord;
            next = range.firstRecord;
            end = range.firstRecord + range.records;
        }

        @Override
        public boolean nextKeyValue() {
            if (next >= end) {
                return false;
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
            return end == first ? 1f : (next - first) / (float) (end - first);
        }

        @Override
        public void close() {
        }
    }
}
