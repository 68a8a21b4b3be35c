package io.fpgamr.md5.shuffle;

import static io.fpgamr.md5.shuffle.BenchJobHarness.assertExactCounters;
import static io.fpgamr.md5.shuffle.BenchJobHarness.assertExactShuffle;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.md5.job.BenchMapper;
import io.fpgamr.md5.shuffle.BenchJobHarness.Shuffled;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key-run shuffle in real jobs on Hadoop's local runner: the reduces see exactly what Hadoop's
 * own shuffle gives them, whether every map output is held in memory, some outgrow it (Hadoop's
 * manager takes those, to disk here) or none can be held.
 */
class KeyRunShuffleTest {
    private static final int BITS = 20;
    /** 2^16 values per record, one record per split: 16 maps. */
    private static final int PPK = 1 << 16;
    private static final int MAPS = 16;

    /** One folder for the class: each run has its own name in it, and Hadoop's shuffle's run is kept for every test. */
    @TempDir
    static Path tmp;

    /** The same job through Hadoop's own shuffle, which two tests compare with: run once, by the first to ask. */
    private static Shuffled hadoops;

    private static Shuffled run(String name, Map<String, String> extra) throws Exception {
        return new BenchJobHarness(tmp).run(name, BITS, PPK, 1, BenchMapper.class, extra);
    }

    private static Shuffled hadoops() throws Exception {
        if (hadoops == null) {
            hadoops = run("hadoop", Map.of(MRConfig.SHUFFLE_CONSUMER_PLUGIN, Shuffle.class.getName()));
        }
        return hadoops;
    }

    private static void assertSameReduceInput(Shuffled expected, Shuffled actual) {
        assertEquals(expected.linesByReducer(), actual.linesByReducer());
        for (TaskCounter c : List.of(TaskCounter.REDUCE_SHUFFLE_BYTES, TaskCounter.REDUCE_INPUT_RECORDS, TaskCounter.REDUCE_INPUT_GROUPS,
            TaskCounter.MERGED_MAP_OUTPUTS, TaskCounter.SHUFFLED_MAPS)) {
            assertEquals(expected.count(c), actual.count(c), c.name());
        }
    }

    @Test
    void heldInMemoryKeyRunByKeyRunAsHadoopsMergeGivesIt() throws Exception {
        Shuffled hadoops = hadoops();
        Shuffled keyRuns = run("keyruns", Map.of());
        assertExactShuffle(keyRuns, BITS);
        assertExactCounters(keyRuns, BITS, MAPS);
        assertSameReduceInput(hadoops, keyRuns);
        assertEquals((long) MAPS * BenchJobHarness.REDUCERS, keyRuns.count(TaskCounter.MERGED_MAP_OUTPUTS));
        // held in memory: nothing spilled on the reduce side, as with Hadoop's merge reducing from memory
        assertEquals(1L << BITS, keyRuns.count(TaskCounter.SPILLED_RECORDS));
        assertEquals(1L << BITS, hadoops.count(TaskCounter.SPILLED_RECORDS));
    }

    @Test
    void outputsThatOutgrowTheHeldMemoryGoToHadoopsManagerAndBothAreMerged() throws Exception {
        // per reduce about 4.8 MB from 16 maps; 4 MB in all: about half is held, the rest goes to
        // Hadoop's manager, whose share is too small to hold a map output: to disk
        Shuffled mixed = run("mixed", Map.of(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, String.valueOf(4L << 20)));
        assertExactShuffle(mixed, BITS);
        assertExactCounters(mixed, BITS, MAPS);
        assertTrue(mixed.count(TaskCounter.SPILLED_RECORDS) > 1L << BITS, "some map outputs went to disk on the reduce side");
        assertSameReduceInput(hadoops(), mixed);
    }

    @Test
    void noMemoryToHoldLeavesEverythingToHadoopsManager() throws Exception {
        Shuffled none = run("none", Map.of(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, "0"));
        assertExactShuffle(none, BITS);
        assertExactCounters(none, BITS, MAPS);
        // Hadoop's default: the fetched outputs are merged to disk before the reduce reads them
        assertEquals(2L << BITS, none.count(TaskCounter.SPILLED_RECORDS));
    }
}
