package io.fpgamr.md5.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;

class Md5RangeInputFormatTest {

    /** Reads every record of every split and checks the values cover [0, 2^bits) once, in order. */
    private static void checkCoverage(int bits, int ppk, long recordsPerSplit) throws Exception {
        Configuration conf = new Configuration(false);
        conf.setInt(JobKeys.BITS, bits);
        conf.setInt(JobKeys.PPK, ppk);
        conf.setLong(JobKeys.RECORDS_PER_SPLIT, recordsPerSplit);
        Md5RangeInputFormat format = new Md5RangeInputFormat();
        List<InputSplit> splits = Md5RangeInputFormat.splits(1L << bits, ppk, recordsPerSplit);
        long totalRecords = Md5RangeInputFormat.recordCount(1L << bits, ppk);
        assertEquals((totalRecords + recordsPerSplit - 1) / recordsPerSplit, splits.size());
        long expectedNext = 0;
        long records = 0;
        for (InputSplit split : splits) {
            try (Md5RangeInputFormat.RangeReader reader = (Md5RangeInputFormat.RangeReader) format.createRecordReader(split, null)) {
                reader.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID()));
                while (reader.nextKeyValue()) {
                    LongWritable start = reader.getCurrentKey();
                    long count = reader.getCurrentValue().get();
                    assertEquals(expectedNext, start.get(), "gap or overlap at bits=" + bits);
                    assertTrue(count >= 1 && count <= ppk);
                    expectedNext += count;
                    records++;
                }
                assertEquals(1.0f, reader.getProgress());
            }
        }
        assertEquals(1L << bits, expectedNext, "values covered");
        assertEquals(totalRecords, records);
    }

    @Test
    void splitsCoverTheDomainExactlyOnce() throws Exception {
        for (int bits : new int[] {1, 2, 3, 8, 17, 18, 19, 20, 23, 28}) {
            for (int ppk : new int[] {1, JobKeys.BATCH}) {
                if (ppk == 1 && bits > 20) {
                    continue;
                }
                long records = Md5RangeInputFormat.recordCount(1L << bits, ppk);
                for (long rps : new long[] {1, 2, 3, 7, records - 1, records, records + 5}) {
                    if (rps >= 1 && records / rps <= 300_000) {
                        checkCoverage(bits, ppk, rps);
                    }
                }
            }
        }
    }

    @Test
    void recordCountsAtTheEdgesOfTheDomain() {
        assertEquals(1024, Md5RangeInputFormat.recordCount(1L << 28, JobKeys.BATCH));
        assertEquals(1, Md5RangeInputFormat.recordCount(2, JobKeys.BATCH));
        assertEquals(1L << 22, Md5RangeInputFormat.recordCount(1L << 40, JobKeys.BATCH));
        assertEquals(1L << 20, Md5RangeInputFormat.recordCount(1L << 20, 1));
    }

    @Test
    void defaultRecordsPerSplitFillsEveryMapSlot() {
        Configuration conf = new Configuration(false);
        conf.setInt(JobKeys.BITS, 28);
        conf.setInt(JobKeys.MAPS, 6);
        // 1024 records over 6 slots: 171 per split, 6 splits, the last one short.
        assertEquals(171, Md5RangeInputFormat.recordsPerSplit(conf));
        assertEquals(6, Md5RangeInputFormat.splits(1L << 28, JobKeys.BATCH, 171).size());
        conf.setLong(JobKeys.RECORDS_PER_SPLIT, 10);
        assertEquals(10, Md5RangeInputFormat.recordsPerSplit(conf));
    }
}
