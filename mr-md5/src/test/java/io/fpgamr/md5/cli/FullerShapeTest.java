package io.fpgamr.md5.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fpgamr.md5.cluster.MapShape;
import io.fpgamr.md5.cluster.RunCluster;
import io.fpgamr.md5.job.Md5Job;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.GenericOptionsParser;
import org.junit.jupiter.api.Test;

/** Which runs take the embedded cluster's fewer, fuller maps, and which keep a map per slot. */
class FullerShapeTest {
    private static final String TARGET = "096822475dd517c1089f4b58c7f346ef";
    private static final RunCluster EMBEDDED = new RunCluster(new Configuration(), 6, new Path("/fpgamr/out"), null, true,
        new MapShape(3, 2), () -> { });

    private static RunConfig config(Md5Job.Mode mode, String... args) throws Exception {
        String[] all = new String[args.length + 1];
        all[0] = TARGET;
        System.arraycopy(args, 0, all, 1, args.length);
        return RunConfig.parse(mode, all, false);
    }

    @Test
    void aSearchWithNoShapeChosenRunsTheFullerMaps() throws Exception {
        Configuration conf = new Configuration();
        RunCluster shaped = Launcher.shaped(config(Md5Job.Mode.SEARCH), EMBEDDED, conf);
        assertEquals(3, shaped.mapSlots());
        assertEquals(2, conf.getInt(MRJobConfig.MAP_CPU_VCORES, 0));
        assertSame(EMBEDDED.daemons(), shaped.daemons());
    }

    @Test
    void theUsersMapsOrVcoresKeepAMapPerSlot() throws Exception {
        Configuration conf = new Configuration();
        assertSame(EMBEDDED, Launcher.shaped(config(Md5Job.Mode.SEARCH, "--maps", "6"), EMBEDDED, conf));
        assertSame(EMBEDDED, Launcher.shaped(config(Md5Job.Mode.SEARCH, "--records-per-split", "1024"), EMBEDDED, conf));
        assertEquals(1, conf.getInt(MRJobConfig.MAP_CPU_VCORES, 1));
        // -D as ToolRunner parses it
        Configuration given = new GenericOptionsParser(new Configuration(), new String[] {"-D", MRJobConfig.MAP_CPU_VCORES + "=1"})
            .getConfiguration();
        assertSame(EMBEDDED, Launcher.shaped(config(Md5Job.Mode.SEARCH), EMBEDDED, new Configuration(given)));
        assertEquals(1, given.getInt(MRJobConfig.MAP_CPU_VCORES, 0));
    }

    @Test
    void benchModeOtherEnginesAndOtherClustersAreUnchanged() throws Exception {
        Configuration conf = new Configuration();
        assertSame(EMBEDDED, Launcher.shaped(config(Md5Job.Mode.BENCH), EMBEDDED, conf));
        assertSame(EMBEDDED, Launcher.shaped(config(Md5Job.Mode.SEARCH, "--accel", "cpu"), EMBEDDED, conf));
        RunCluster local = new RunCluster(conf, 2, new Path("/tmp/out"), null, false, null, () -> { });
        assertSame(local, Launcher.shaped(config(Md5Job.Mode.SEARCH), local, conf));
        assertEquals(1, conf.getInt(MRJobConfig.MAP_CPU_VCORES, 1));
    }
}
