package io.fpgamr.md5.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * A streamed job's maps, read as the framework reads them (each split through its own reader,
     * in turns): every record of the domain exactly once, whatever the values per record and the
     * domain's size against a unit, each map first its reserved unit.
     */
    @Test
    void streamedMapsReadEveryRecordOnce(@TempDir Path jobDir) throws Exception {
        for (int bits : new int[] {3, 17, 18, 20, 22}) {
            for (int ppk : new int[] {1, JobKeys.BATCH}) {
                Configuration conf = new Configuration(false);
                conf.setInt(JobKeys.BITS, bits);
                conf.setInt(JobKeys.PPK, ppk);
                conf.setInt(JobKeys.MAPS, 3);
                conf.set(MRJobConfig.MAPREDUCE_JOB_DIR, jobDir.resolve("job-" + bits + "-" + ppk).toUri().toString());
                Md5RangeInputFormat format = new Md5RangeInputFormat();
                List<InputSplit> splits = format.getSplits(new JobContextImpl(conf, new JobID("t", 1)));
                long units = Math.max(1, (1L << bits) / JobKeys.BATCH);
                assertEquals(Math.min(3, units), splits.size(), "a split per map, never more than units");
                List<RecordReader<LongWritable, LongWritable>> readers = new ArrayList<>();
                for (int i = 0; i < splits.size(); i++) {
                    RecordReader<LongWritable, LongWritable> r = format.createRecordReader(splits.get(i), null);
                    r.initialize(splits.get(i), new TaskAttemptContextImpl(conf, new TaskAttemptID("t", 1, TaskType.MAP, i, 0)));
                    readers.add(r);
                }
                long[] seen = new long[(int) Math.min(1L << bits, 1 << 22)];
                boolean any = true;
                for (int turn = 0; any; turn++) {
                    any = false;
                    for (int i = 0; i < readers.size(); i++) {
                        RecordReader<LongWritable, LongWritable> r = readers.get(i);
                        // a few records per turn, the maps in turn
                        for (int k = 0; k < 7 && r.nextKeyValue(); k++) {
                            any = true;
                            long start = r.getCurrentKey().get();
                            long count = r.getCurrentValue().get();
                            if (turn == 0 && k == 0) {
                                assertEquals(i * Math.min(1L << bits, JobKeys.BATCH), start, "map " + i + " begins with its reserved unit");
                            }
                            for (long v = start; v < start + count; v++) {
                                seen[(int) v]++;
                            }
                        }
                    }
                }
                for (int v = 0; v < seen.length; v++) {
                    assertEquals(1, seen[v], "value " + v + " at bits=" + bits + ", ppk=" + ppk);
                }
            }
        }
    }
}
