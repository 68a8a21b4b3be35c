package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fpgamr.energy.ProgressSpool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job is checked against its own accounting before its results count. A simulated FPGA that
 * silently drops the second half of its second batch ({@code fault=drop@2}: it completes, and its
 * own values-done counter says how many it did) makes the engines' count fall short of 2^bits; in
 * bench mode the dropped half of the DMA buffer still holds the previous batch's digests, so a
 * target's digest reaches the reduce paired with another value, and the host's re-check rejects it.
 * Either way the job fails: exit 1, one line naming what did not check out, nothing left in the
 * output, and the dashboards told it failed.
 */
class JobChecksTest {
    private static final int BITS = 20;
    private static final int BATCH = 1 << 18;

    @TempDir
    Path tmp;

    private Map<String, String> spoolEnv() {
        return Map.of(ProgressSpool.ENV, tmp.resolve("spool").toString());
    }

    /** The one progress file of the run: the launcher's. */
    private JsonNode progress() throws IOException {
        try (Stream<Path> files = Files.list(tmp.resolve("spool"))) {
            List<Path> all = files.filter(p -> p.getFileName().toString().endsWith(".progress")).toList();
            assertEquals(1, all.size(), all.toString());
            return new ObjectMapper().readTree(all.get(0).toFile());
        }
    }

    private Fpgamr.Result runOnADroppingDevice(String mode, long planted) throws Exception {
        String device = "vsim:pipelines=4,fault=drop@2,lock=" + tmp.resolve("fpga.lock");
        return Fpgamr.run(tmp, spoolEnv(), mode, Fpgamr.md5Hex(planted, BITS), "--bits", "" + BITS, "--cluster", "local", "--repeat", "1",
            "--accel", "fpga", "--device", device, "--output", tmp.resolve("out").toString(), "--summary-json",
            tmp.resolve("summary.json").toString());
    }

    private void assertFailedWithNothingLeft(Fpgamr.Result r, String problems) throws IOException {
        assertEquals(1, r.code(), r.err());
        assertEquals("", r.out(), "no preimage printed for a job that failed");
        List<String> lines = r.err().lines().toList();
        String last = lines.get(lines.size() - 1);
        assertTrue(last.matches("fpgamr: job job_local\\d+_0001 did not check out: \\Q" + problems + "\\E"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        assertFalse(Files.exists(tmp.resolve("out")), "the output of a failed job is removed");
        assertFalse(Files.exists(tmp.resolve("summary.json")), "no summary of a failed job");
        JsonNode p = progress();
        assertEquals("failed", p.get("state").asText(), p.toString());
        assertTrue(p.get("simulated").asBoolean(), p.toString());
    }

    @Test
    void aDroppedBatchFailsTheSearch() throws Exception {
        Fpgamr.Result r = runOnADroppingDevice("search", 5);
        assertFailedWithNothingLeft(r, "the engines hashed " + ((1L << BITS) - BATCH / 2) + " values, but the domain 2^20 holds 1048576");
    }

    @Test
    void aStaleDigestFailsTheHostsReCheckInBench() throws Exception {
        // in the second half of batch 1: batch 2's dropped half keeps its digest at the same place
        long planted = BATCH / 2 + 5;
        Fpgamr.Result r = runOnADroppingDevice("bench", planted);
        assertFailedWithNothingLeft(r, "the engines hashed " + ((1L << BITS) - BATCH / 2) + " values, but the domain 2^20 holds 1048576; "
            + "1 preimage(s) failed the host's re-check (their MD5 is not a target)");
    }

    @Test
    void aJobThatChecksOutTellsTheDashboardsSoWithItsCount() throws Exception {
        Fpgamr.Result r = Fpgamr.run(tmp, spoolEnv(), "bench", Fpgamr.md5Hex(77, BITS), "--bits", "" + BITS, "--cluster", "local",
            "--repeat", "1", "--output", tmp.resolve("out").toString(), "--summary-json", tmp.resolve("summary.json").toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(Fpgamr.potLine(77, BITS)), r.outLines());
        JsonNode s = Fpgamr.summary(tmp.resolve("summary.json"));
        assertEquals(1L << BITS, s.get("shuffle").get("map_output_records").asLong());
        assertEquals(1L << BITS, s.get("shuffle").get("reduce_input_records").asLong());
        assertEquals(1 + 4 + 16, s.get("shuffle").get("bytes_per_record").asDouble());
        assertEquals(0, s.get("preimages_rejected").asLong());
        assertTrue(r.err().contains("  shuffle: 1048576 map output records, 1048576 reduce input records, 21.0 bytes per record"), r.err());
        JsonNode p = progress();
        assertEquals("succeeded", p.get("state").asText(), p.toString());
        assertEquals(1L << BITS, p.get("values_hashed").asLong(), p.toString());
        assertEquals(s.get("job_id").asText(), p.get("job").asText());
    }

    /** A bench job of 2 maps on the local runner whose map 0 writes a wrong record of the given kind (MisplacingCollector). */
    private Fpgamr.Result benchWithAWrongRecord(String kind) throws Exception {
        return Fpgamr.run(tmp, Map.of("HADOOP_CLASSPATH", StandingCluster.testClasses()), "bench",
            "-D", "mapreduce.job.map.output.collector.class=" + MisplacingCollector.class.getName(), "-D", MisplacingCollector.KIND + "=" + kind,
            Fpgamr.md5Hex(77, BITS), "--bits", "" + BITS, "--cluster", "local", "--maps", "2", "--reducers", "2", "--repeat", "1",
            "--output", tmp.resolve("out").toString());
    }

    @Test
    void aValueTwiceAndAnotherMissingInOneKeyFailsTheBench() throws Exception {
        // every record and byte count is exact: only the reduces' check of each key's values sees it
        Fpgamr.Result r = benchWithAWrongRecord(MisplacingCollector.SWAP);
        assertEquals(1, r.code(), r.err());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.get(lines.size() - 1).matches("fpgamr: job job_local\\d+_0001 did not check out: \\Q"
            + "the reduces checked 256 of 256 key bytes, 1 of them not carrying exactly the domain's values (a value missing or there twice; "
            + "the reduce log names the key)\\E"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        assertFalse(Files.exists(tmp.resolve("out")), "the output of a failed job is removed");
        assertTrue(Files.readString(tmp.resolve("fpgamr.log")).contains("key byte " + MisplacingCollector.KEY
            + ": the right number of values (4096), but not the domain's: some missing, others there more than once"));
    }

    @Test
    void aShortRecordFailsTheBench() throws Exception {
        Fpgamr.Result r = benchWithAWrongRecord(MisplacingCollector.SHORT);
        assertEquals(1, r.code(), r.err());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.get(lines.size() - 1).matches("fpgamr: job job_local\\d+_0001 failed: .*"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
        assertFalse(Files.exists(tmp.resolve("out")), "the output of a failed job is removed");
        // the reduce that met it names it (the launcher's check of the bytes written is WorkCountsTest's)
        assertTrue(Files.readString(tmp.resolve("fpgamr.log")).contains("a bench value of 19 bytes, not 20 (message 4 + digest 16): "
            + "a map wrote a record of the wrong length"));
    }
}
