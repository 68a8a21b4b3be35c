package io.fpgamr.md5.shuffle;

import static io.fpgamr.md5.shuffle.BenchJobHarness.assertExactCounters;
import static io.fpgamr.md5.shuffle.BenchJobHarness.assertExactShuffle;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fpgamr.md5.job.BenchMapper;
import io.fpgamr.md5.job.JobKeys;
import io.fpgamr.md5.job.Md5Counters;
import io.fpgamr.md5.shuffle.BenchJobHarness.PairByPairMapper;
import io.fpgamr.md5.shuffle.BenchJobHarness.Shuffled;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-byte-key collector in real jobs on Hadoop's local runner, its output read back through
 * Hadoop's own shuffle: exact records per partition and key, the job's key order, every pair
 * intact, the map-side counters, one spill or many, and the same shuffle as Hadoop's own collector.
 */
class ByteKeyCollectorTest {
    @TempDir
    Path tmp;

    private BenchJobHarness harness() {
        return new BenchJobHarness(tmp);
    }

    /** An exact shuffle whose every map output the collector wrote, with this many records spilled in all. */
    private static void assertExactThroughTheCollector(Shuffled s, int bits, int maps, long spilled) {
        assertExactShuffle(s, bits);
        assertExactCounters(s, bits, maps);
        assertEquals(maps, s.count(Md5Counters.COLLECTOR_MAPS));
        assertEquals(spilled, s.count(TaskCounter.SPILLED_RECORDS));
    }

    @Test
    void batchesOfTheDeviceFormatOneSpillPerMap() throws Exception {
        // one spill per map, straight into its output, and nothing spilled again on the reduce side
        assertExactThroughTheCollector(harness().run("batches", 20, JobKeys.BATCH, 1), 20, 4, 1L << 20);
    }

    @Test
    void oneValuePerRecordIsBatchedAcrossMapCallsAndStillOnePairPerValue() throws Exception {
        Shuffled s = harness().run("ppk1", 16, 1, 1 << 14);
        assertExactThroughTheCollector(s, 16, 4, 1L << 16);
        assertEquals(1L << 16, s.count(TaskCounter.MAP_INPUT_RECORDS));
    }

    @Test
    void manySpillsMergedByHadoopsMerger() throws Exception {
        // 1 MiB of 32 KiB pages for 256 buckets: a spill every few dozen keys, merged at the end in
        // one pass; every record written once in a spill and once more by the merge
        Shuffled s = harness().run("spills", 20, JobKeys.BATCH, 2, BenchMapper.class,
            Map.of(ByteKeyCollector.BUFFER_MB, "1", MRJobConfig.IO_SORT_FACTOR, "1000"));
        assertExactThroughTheCollector(s, 20, 2, 2L << 20);
    }

    @Test
    void streamedMapsInWavesClaimWhatTheirCollectorsHoldAndSpillEachRecordOnce() throws Exception {
        // 8 streamed maps, 2 at a time on the local runner, each collector sized for twice an even
        // share (4 of the 16 units): the first maps claim no more than that and leave the rest to
        // the maps still to start, so no map spills and merges; every record is spilled once,
        // straight into its map's output (before, the first two maps claimed the whole pool and
        // spilled it again in the merge)
        Shuffled s = harness().run("waves", 22, JobKeys.BATCH, 0, BenchMapper.class, Map.of(JobKeys.MAPS, "8"));
        assertExactThroughTheCollector(s, 22, 8, 1L << 22);
    }

    @Test
    void pairByPairAndBatchGiveTheSameShuffleAsHadoopsOwnCollector() throws Exception {
        Shuffled batch = harness().run("batch", 18, JobKeys.BATCH / 4, 1);
        Shuffled pairs = harness().run("pairs", 18, JobKeys.BATCH / 4, 1, PairByPairMapper.class, Map.of());
        Shuffled hadoop = harness().run("hadoop", 18, JobKeys.BATCH / 4, 1, PairByPairMapper.class,
            Map.of(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, MapTask.MapOutputBuffer.class.getName()));
        assertEquals(4, batch.count(Md5Counters.COLLECTOR_MAPS));
        assertEquals(4, pairs.count(Md5Counters.COLLECTOR_MAPS));
        assertEquals(0, hadoop.count(Md5Counters.COLLECTOR_MAPS));
        assertExactShuffle(hadoop, 18);
        for (Shuffled s : List.of(batch, pairs)) {
            assertEquals(hadoop.linesByReducer(), s.linesByReducer());
            for (TaskCounter c : List.of(TaskCounter.MAP_OUTPUT_RECORDS, TaskCounter.MAP_OUTPUT_BYTES,
                TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES, TaskCounter.REDUCE_SHUFFLE_BYTES, TaskCounter.REDUCE_INPUT_RECORDS,
                TaskCounter.REDUCE_INPUT_GROUPS, TaskCounter.SPILLED_RECORDS)) {
                assertEquals(hadoop.count(c), s.count(c), c.name());
            }
        }
    }

    @Test
    void aJobOfAnotherShapeFallsBackToHadoopsCollector() throws Exception {
        // a combiner (here the identity reduce): the collector runs none, so it steps aside
        Shuffled s = harness().run("combiner", 16, JobKeys.BATCH, 1, BenchMapper.class,
            Map.of(MRJobConfig.COMBINE_CLASS_ATTR, Reducer.class.getName()));
        assertEquals(0, s.count(Md5Counters.COLLECTOR_MAPS));
        assertExactShuffle(s, 16);
        assertEquals(1L << 16, s.count(TaskCounter.COMBINE_INPUT_RECORDS));
    }
}
