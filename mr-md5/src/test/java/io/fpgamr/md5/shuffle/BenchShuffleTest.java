package io.fpgamr.md5.shuffle;

import static io.fpgamr.md5.shuffle.BenchJobHarness.assertExactCounters;
import static io.fpgamr.md5.shuffle.BenchJobHarness.assertExactShuffle;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fpgamr.md5.job.BenchMapper;
import io.fpgamr.md5.job.JobKeys;
import io.fpgamr.md5.job.Md5Counters;
import io.fpgamr.md5.shuffle.BenchJobHarness.Shuffled;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.MapTask;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench job's shuffle settings: fpgamr's where the user chose none, the user's (a -D, a site file) where they did. */
class BenchShuffleTest {
    private static final String HADOOPS = MapTask.MapOutputBuffer.class.getName();

    @TempDir
    Path tmp;

    private static Configuration benchJob(Configuration conf) {
        conf.setInt(JobKeys.BITS, 20);
        conf.setInt(MRJobConfig.NUM_REDUCES, 2);
        return conf;
    }

    @Test
    void withoutAChoiceTheOneByteKeyCollectorThenHadoops() {
        Configuration conf = benchJob(new Configuration());
        BenchShuffle.configure(conf);
        assertEquals(ByteKeyCollector.class.getName() + "," + HADOOPS, conf.get(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR));
    }

    @Test
    void aCollectorGivenWithDashDIsKept() {
        Configuration conf = benchJob(new Configuration());
        conf.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, HADOOPS, "command line");
        BenchShuffle.configure(conf);
        assertEquals(HADOOPS, conf.get(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR));
    }

    @Test
    void aCollectorGivenInASiteFileIsKept() throws Exception {
        Path site = tmp.resolve("mapred-site.xml");
        Files.writeString(site, "<configuration><property><name>" + MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR + "</name><value>"
            + HADOOPS + "</value></property></configuration>");
        Configuration conf = new Configuration();
        conf.addResource(new org.apache.hadoop.fs.Path(site.toUri()));
        BenchShuffle.configure(benchJob(conf));
        assertEquals(HADOOPS, conf.get(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR));
    }

    @Test
    void theBenchJobOnHadoopsOwnCollectorHasTheSameExactCounts() throws Exception {
        BenchJobHarness harness = new BenchJobHarness(tmp);
        Shuffled ours = harness.run("ours", 18, JobKeys.BATCH / 4, 1);
        Shuffled hadoops = harness.run("hadoops", 18, JobKeys.BATCH / 4, 1, BenchMapper.class,
            Map.of(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, HADOOPS));
        assertEquals(4, ours.count(Md5Counters.COLLECTOR_MAPS));
        assertEquals(0, hadoops.count(Md5Counters.COLLECTOR_MAPS), "every map's output went through Hadoop's MapOutputBuffer");
        assertExactShuffle(hadoops, 18);
        assertExactCounters(hadoops, 18, 4);
        assertEquals(ours.linesByReducer(), hadoops.linesByReducer());
        assertEquals(ours.count(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES), hadoops.count(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES));
    }
}
