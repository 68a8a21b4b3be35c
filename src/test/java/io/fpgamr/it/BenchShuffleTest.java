package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.md5.cluster.EmbeddedCluster;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench job's fast shuffle path end to end through bin/fpgamr (mr-md5's ByteKeyCollector,
 * batched engine calls, KeyRunShuffle): one pair per value at both ends of the shuffle, in both
 * input formats, on the embedded cluster and the local runner, and a map killed in the middle of
 * a spill. The cluster's jobs share one {@link StandingCluster} (the embedded cluster's default
 * shape, in a process of its own), started by the first of them: a cluster of its own per job was
 * most of this class's time, and the embedded launch itself is {@link JobEndToEndTest}'s.
 */
class BenchShuffleTest {
    @TempDir
    Path tmp;

    @TempDir
    static Path clusterDir;
    private static StandingCluster cluster;

    private final SplittableRandom random = new SplittableRandom(20261123L);

    /** bin/fpgamr's arguments for a job on the class's cluster, which the first call starts. */
    private static String[] onTheCluster(String subcommand, String... args) throws Exception {
        if (cluster == null) {
            cluster = StandingCluster.start(clusterDir, EmbeddedCluster.DEFAULT_FPGA_DEVICES, Map.of());
        }
        return cluster.job(subcommand, args);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Runs bench for a planted value and checks the preimage, the values hashed and an exact shuffle; returns the summary. */
    private JsonNode benchFindsThePlantedValue(int bits, String... options) throws Exception {
        return benchFindsThePlantedValue(bits, false, options);
    }

    /** As {@link #benchFindsThePlantedValue(int, String...)}, on the class's cluster with {@code onTheCluster}. */
    private JsonNode benchFindsThePlantedValue(int bits, boolean onTheCluster, String... options) throws Exception {
        long values = 1L << bits;
        long planted = random.nextLong(values);
        Path json = tmp.resolve("summary.json");
        String[] args = new String[options.length + 9];
        System.arraycopy(options, 0, args, 0, options.length);
        // on the cluster, the output is a path on its HDFS: the test's folder's name there, one per test
        System.arraycopy(new String[] {Fpgamr.md5Hex(planted, bits), "--bits", "" + bits, "--repeat", "1", "--output",
            tmp.resolve("out").toString(), "--summary-json", json.toString()}, 0, args, options.length, 9);
        Fpgamr.Result r = Fpgamr.run(tmp, onTheCluster ? onTheCluster("bench", args) : prepend("bench", args));
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(Fpgamr.potLine(planted, bits)), r.outLines());
        assertTrue(r.err().contains("values hashed " + values + " of " + values), r.err());
        JsonNode s = Fpgamr.summary(json);
        assertEquals(values, s.get("values_hashed").asLong());
        JsonNode shuffle = s.get("shuffle");
        assertEquals(values, shuffle.get("map_output_records").asLong(), "one pair per value leaves the maps");
        assertEquals(values, shuffle.get("reduce_input_records").asLong(), "every pair reaches a reducer");
        int width = Math.max(4, (bits + 7) / 8);
        assertEquals(values * (1 + width + 16), shuffle.get("map_output_bytes").asLong(), "key byte, message, digest");
        assertEquals(1 + width + 16, shuffle.get("bytes_per_record").asDouble());
        int maps = 0;
        for (JsonNode node : s.get("maps_by_node")) {
            maps += node.get("cpu").asInt() + node.get("fpga").asInt();
        }
        boolean hadoops = String.join(" ", options).contains("collector.class=" + HADOOPS_COLLECTOR);
        assertEquals(hadoops ? 0 : maps, shuffle.get("collector_maps").asInt(),
            hadoops ? "every map's output went through Hadoop's MapOutputBuffer" : "every map's output went through the one-byte-key collector");
        assertTrue(s.get("engine_cpu_s").asDouble() > 0);
        return s;
    }

    private static final String HADOOPS_COLLECTOR = "org.apache.hadoop.mapred.MapTask$MapOutputBuffer";

    @Test
    void theUsersCollectorWinsHadoopsOwnWithTheSameExactCounts() throws Exception {
        // the README's way back to Hadoop's own map side: a -D (or a site file) that BenchShuffle keeps
        JsonNode s = benchFindsThePlantedValue(18, "-D", "mapreduce.job.map.output.collector.class=" + HADOOPS_COLLECTOR,
            "--cluster", "local", "--maps", "2", "--reducers", "3");
        assertEquals(0, s.get("shuffle").get("failed_map_attempts").asInt());
    }

    @Test
    void oneValuePerRecordOnTheLocalRunner() throws Exception {
        JsonNode s = benchFindsThePlantedValue(20, "--cluster", "local", "--ppk", "1", "--reducers", "3");
        assertEquals(0, s.get("shuffle").get("failed_map_attempts").asInt());
    }

    private static String[] prepend(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    @Test
    void oneValuePerRecordOnTheEmbeddedCluster() throws Exception {
        benchFindsThePlantedValue(18, true, "--ppk", "1", "--maps", "3", "--reducers", "5");
    }

    @Test
    void oneValuePerRecordSearchOnTheEmbeddedCluster() throws Exception {
        int bits = 18;
        long planted = random.nextLong(1L << bits);
        Fpgamr.Result r = Fpgamr.run(tmp, onTheCluster("search", Fpgamr.md5Hex(planted, bits), "--bits", "" + bits, "--ppk", "1", "--maps",
            "3", "--output", tmp.resolve("s").toString()));
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(Fpgamr.potLine(planted, bits)), r.outLines());
        assertTrue(r.err().contains("values hashed " + (1L << bits) + " of " + (1L << bits)), r.err());
    }

    @Test
    void aMapKilledInTheMiddleOfASpillIsRedoneAndTheCountsStayExact() throws Exception {
        // A 1 MiB collector buffer makes every map spill many times and merge; the first attempt of
        // map 0 halts its JVM with spills on disk, before its merge (HaltingCollector, this test's
        // own class, chosen with -D and on the containers' class path: the standing cluster's).
        JsonNode s = benchFindsThePlantedValue(20, true, "-D", "mapreduce.job.map.output.collector.class=" + HaltingCollector.class.getName(),
            "-D", "fpgamr.collector.buffer.mb=1", "--maps", "4", "--reducers", "4");
        assertEquals(1, s.get("shuffle").get("failed_map_attempts").asInt(), "the killed attempt");
        // each pair written once in a spill and once by the merge (the killed attempt's are not counted); held in memory on the reduce side
        assertEquals(2L << 20, s.get("shuffle").get("spilled_records").asLong());
    }
}
