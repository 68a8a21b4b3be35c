package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job end to end through bin/fpgamr, on the embedded cluster and the local runner, both modes. */
class JobEndToEndTest {
    private static final int BITS = 20;
    private static final long VALUES = 1L << BITS;

    @TempDir
    Path tmp;

    private final SplittableRandom random = new SplittableRandom(20261121L);

    private long planted() {
        return random.nextLong(VALUES);
    }

    @Test
    void searchOnEmbeddedClusterWithHashListHitAndMiss() throws Exception {
        long a = planted();
        long b = planted();
        // A digest of a value outside the domain: nothing in [0, 2^20) hashes to it.
        String miss = Fpgamr.md5Hex(VALUES + 12345, BITS);
        Path list = tmp.resolve("hashes.txt");
        Files.writeString(list, "# hashcat-style list\n" + Fpgamr.md5Hex(b, BITS) + "\n" + miss.toUpperCase() + "\n");
        Path out = tmp.resolve("out");
        Path json = tmp.resolve("summary.json");

        Fpgamr.Result r = Fpgamr.run(tmp, "search", Fpgamr.md5Hex(a, BITS), "--hash-list", list.toString(), "--bits", "" + BITS,
            "--output", out.toString(), "--summary-json", json.toString());

        assertEquals(0, r.code(), r.err());
        List<String> expected = Stream.of(Fpgamr.potLine(a, BITS), Fpgamr.potLine(b, BITS)).sorted().distinct().toList();
        assertEquals(expected, r.outLines());
        assertEquals(expected, Fpgamr.outputLines(out));
        assertTrue(r.err().contains("values hashed " + VALUES + " of " + VALUES), r.err());
        JsonNode s = Fpgamr.summary(json);
        assertEquals(VALUES, s.get("values_hashed").asLong());
        assertEquals("embedded", s.get("cluster").asText());
        assertTrue(maps(s) >= 1);
        // the fuller maps (MapShape): the CPU node's one map on all its cores, the FPGA node's map per device, each on it
        List<String> shape = new ArrayList<>();
        s.get("maps_by_node").forEach(n -> shape.add(n.get("type").asText() + " " + n.get("cpu").asInt() + " cpu " + n.get("fpga").asInt() + " fpga"));
        assertEquals(List.of("x86 1 cpu 0 fpga", "fpga 0 cpu 2 fpga"), shape, s.get("maps_by_node").toString());
        assertTrue(s.get("stages").get("total_s").asDouble() > 0);
    }

    @Test
    void benchOnEmbeddedClusterShufflesEverythingAndFindsThePlantedValue() throws Exception {
        long a = planted();
        Path out = tmp.resolve("out");
        Path json = tmp.resolve("summary.json");

        Fpgamr.Result r = Fpgamr.run(tmp, "bench", Fpgamr.md5Hex(a, BITS), "--bits", "" + BITS, "--reducers", "4", "--repeat", "1",
            "--output", out.toString(), "--summary-json", json.toString());

        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(Fpgamr.potLine(a, BITS)), r.outLines());
        assertEquals(List.of(Fpgamr.potLine(a, BITS)), Fpgamr.outputLines(out));
        // the one reducer that found the preimage wrote a part file; the three others wrote nothing, so
        // had nothing to commit (LazyOutputFormat)
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(1, files.filter(p -> p.getFileName().toString().startsWith("part-r-")).count());
        }
        // every reducer's span is in its attempt's own file, outside the committed output (beside it, the
        // local file system's .crc of the copy)
        try (Stream<Path> attempts = Files.list(out.resolve("_attempts"))) {
            assertEquals(4, attempts.filter(p -> p.getFileName().toString().startsWith("attempt_") && p.getFileName().toString().contains("_r_")
                    && Files.isRegularFile(p))
                .map(p -> p.getFileName().toString().replaceFirst("_\\d+$", "")).distinct().count());
        }
        JsonNode s = Fpgamr.summary(json);
        assertEquals(VALUES, s.get("values_hashed").asLong());
        JsonNode st = s.get("stages");
        for (String k : List.of("map_s", "shuffle_s", "reduce_s", "total_s")) {
            assertTrue(st.get(k).asDouble() >= 0, k);
        }
        assertTrue(st.get("total_s").asDouble() >= st.get("map_s").asDouble());
        assertTimeline(s, List.of("submitted", "application_submitted", "am_started", "job_launched", "map_container_launched", "map_started",
            "map_setup_done", "engine_opened", "hashing_started", "hashing_ended", "map_ended", "map_committed", "reduce_container_launched",
            "reduce_started", "shuffle_done", "reduce_ended", "reduce_committed", "job_finished", "done"), "read", maps(s), 4);
        assertTrue(r.err().contains("  timeline (measured wall clock, seconds since submission; job history read"), r.err());
    }

    /**
     * A job's ApplicationMaster is ended once the launcher has read the job, not after Hadoop's 5 s
     * wait (the embedded cluster's FinishedAm): on a one-node cluster, whose queue's share for AMs
     * holds one AM, the next run's AM need not wait for it. The NodeManager's own log says what became
     * of each AM container: killed while it ran, and the first run's application FINISHED and succeeded
     * on that (the second run's cluster stops right after it). Left to its wait, the first run's AM
     * container would have exited by itself while the second run ran.
     */
    @Test
    void aFinishedJobsApplicationMasterIsEndedOnceTheLauncherHasReadTheJob() throws Exception {
        long a = planted();
        Fpgamr.Result r = Fpgamr.run(tmp, "search", Fpgamr.md5Hex(a, BITS), "--bits", "" + BITS, "--nodes", "1", "--fpga-devices", "0",
            "--repeat", "2", "--output", tmp.resolve("am").toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(Fpgamr.potLine(a, BITS)), r.outLines());
        List<String> apps = new ArrayList<>();
        Matcher m = Pattern.compile("submitted job_(\\d+_\\d+)").matcher(r.err());
        while (m.find()) {
            apps.add(m.group(1));
        }
        assertEquals(2, apps.size(), r.err());
        String log = Files.readString(tmp.resolve("fpgamr.log"));
        for (String app : apps) {
            String am = "Container container_" + app + "_01_000001 transitioned from RUNNING to ";
            assertTrue(log.contains(am + "KILLING"), am + "KILLING");
            assertFalse(log.contains(am + "EXITED_WITH_SUCCESS"), am + "EXITED_WITH_SUCCESS");
        }
        String first = "application_" + apps.get(0);
        assertTrue(log.contains(first + " State change from FINISHING to FINISHED on event = ATTEMPT_FINISHED"), first);
        assertTrue(log.contains("OPERATION=Application Finished - Succeeded\tTARGET=RMAppManager\tRESULT=SUCCESS\tAPPID=" + first), first);
    }

    /** The maps of a summary's job, over its nodes. */
    private static int maps(JsonNode s) {
        int maps = 0;
        for (JsonNode node : s.get("maps_by_node")) {
            maps += node.get("cpu").asInt() + node.get("fpga").asInt();
        }
        return maps;
    }

    /**
     * The summary's timeline: its phases in order, each figure at or after the one before (first and
     * last), the map phases over every map and the reduce phases over every reducer, hashing inside the
     * map stage, and done at the stage table's total.
     */
    private static void assertTimeline(JsonNode s, List<String> phases, String history, int maps, int reducers) {
        JsonNode t = s.get("timeline");
        assertEquals(history, t.get("history").asText());
        assertEquals(phases, t.get("phases").findValuesAsText("phase"));
        double lastFirst = 0;
        double lastLast = 0;
        Map<String, JsonNode> byName = new HashMap<>();
        for (JsonNode p : t.get("phases")) {
            String name = p.get("phase").asText();
            byName.put(name, p);
            double first = p.get("first_s").asDouble();
            double last = p.get("last_s").asDouble();
            assertTrue(first >= lastFirst && last >= lastLast && last >= first, name + " out of order: " + t);
            lastFirst = first;
            lastLast = last;
            int expected = name.startsWith("map_") || name.startsWith("engine_") || name.startsWith("hashing_") ? maps
                : name.startsWith("reduce_") || name.equals("shuffle_done") ? reducers : 1;
            assertEquals(expected, p.get("count").asInt(), name);
            if (p.has("by_node")) {
                int onNodes = 0;
                for (JsonNode n : p.get("by_node")) {
                    onNodes += n.get("count").asInt();
                }
                assertEquals(expected, onNodes, name);
            }
        }
        assertEquals(0.0, byName.get("submitted").get("first_s").asDouble());
        double mapStart = byName.get("map_started").get("first_s").asDouble();
        double mapS = s.get("stages").get("map_s").asDouble();
        assertTrue(byName.get("hashing_started").get("first_s").asDouble() >= mapStart);
        assertTrue(byName.get("hashing_ended").get("last_s").asDouble() <= byName.get("map_ended").get("last_s").asDouble());
        assertEquals(mapS, byName.get("map_ended").get("last_s").asDouble() - mapStart, 0.0015);
        assertEquals(s.get("stages").get("total_s").asDouble(), byName.get("done").get("first_s").asDouble(), 0.0015);
    }

    @Test
    void localRunnerBothModesAndOneValuePerRecord() throws Exception {
        long a = planted();
        Fpgamr.Result search = Fpgamr.run(tmp, "search", Fpgamr.md5Hex(a, BITS), "--bits", "" + BITS, "--cluster", "local",
            "--ppk", "1", "--output", tmp.resolve("s").toString());
        assertEquals(0, search.code(), search.err());
        assertEquals(List.of(Fpgamr.potLine(a, BITS)), search.outLines());
        assertTrue(search.err().contains("values hashed " + VALUES + " of " + VALUES), search.err());

        Path json = tmp.resolve("summary.json");
        Fpgamr.Result bench = Fpgamr.run(tmp, "bench", Fpgamr.md5Hex(a, BITS), "--bits", "" + BITS, "--cluster", "local",
            "--repeat", "1", "--reducers", "2", "--output", tmp.resolve("b").toString(), "--summary-json", json.toString());
        assertEquals(0, bench.code(), bench.err());
        assertEquals(List.of(Fpgamr.potLine(a, BITS)), bench.outLines());
        // the local runner keeps no job history: the launcher's, the spans' and the maps' own phases
        JsonNode s = Fpgamr.summary(json);
        assertTimeline(s, List.of("submitted", "map_started", "map_setup_done", "engine_opened", "hashing_started", "hashing_ended", "map_ended",
            "reduce_started", "shuffle_done", "reduce_ended", "done"), "none: the local runner keeps no job history",
            maps(s), 2);
    }

    @Test
    void repeatedRunsEachHashEverythingAndGiveMeanAndDeviation() throws Exception {
        long a = planted();
        Path out = tmp.resolve("rep");
        Path json = tmp.resolve("rep.json");
        Fpgamr.Result r = Fpgamr.run(tmp, "bench", Fpgamr.md5Hex(a, BITS), "--bits", "" + BITS, "--cluster", "local",
            "--repeat", "3", "--output", out.toString(), "--summary-json", json.toString());
        assertEquals(0, r.code(), r.err());
        // the preimage once on stdout, and in every run's output
        assertEquals(List.of(Fpgamr.potLine(a, BITS)), r.outLines());
        for (int i = 1; i <= 3; i++) {
            assertEquals(List.of(Fpgamr.potLine(a, BITS)), Fpgamr.outputLines(out.resolve("run-" + i)));
            assertTrue(Files.isRegularFile(out.resolve("_energy/run-" + i + "/energy.json")), "run " + i + "'s energy report");
        }
        assertTrue(Files.readString(out.resolve("_energy/report.md")).contains("over 3 runs"));
        assertTrue(r.err().contains("fpgamr: 3 runs, each hashed " + VALUES + " values"), r.err());
        JsonNode s = Fpgamr.summary(json);
        assertEquals(3, s.get("repetitions").get("runs").asInt());
        assertEquals(3, s.get("runs").size());
        double sum = 0;
        for (JsonNode run : s.get("runs")) {
            assertEquals(VALUES, run.get("values_hashed").asLong());
            sum += run.get("stages").get("total_s").asDouble();
        }
        assertEquals(sum / 3, s.get("repetitions").get("mean").get("total_s").asDouble(), 1e-9);
        assertTrue(s.get("repetitions").get("sd").has("total_s"));
    }

    @Test
    void noPreimageIsOneLineAndExitZero() throws Exception {
        String miss = Fpgamr.md5Hex(VALUES + 1, BITS);
        Fpgamr.Result r = Fpgamr.run(tmp, "search", miss, "--bits", "" + BITS, "--cluster", "local", "--output", tmp.resolve("o").toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().lines().anyMatch(l -> l.equals("fpgamr: no preimage found for 1 target(s) among 2^20 values")), r.err());
    }

    @Test
    void theThesisTargetAtFullWidthOfItsExample() throws Exception {
        Fpgamr.Result r = Fpgamr.run(tmp, "search", "096822475dd517c1089f4b58c7f346ef", "--bits", "12", "--cluster", "local",
            "--output", tmp.resolve("t").toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("096822475dd517c1089f4b58c7f346ef:$HEX[00000123]"), r.outLines());
    }

    @Test
    void badInputThroughTheLauncherIsOneLineExitTwo() throws Exception {
        Fpgamr.Result r = Fpgamr.run(tmp, "search", "nothex", "--cluster", "local");
        assertEquals(2, r.code());
        assertEquals(List.of("fpgamr: target: 'nothex' is not an MD5 digest (32 hex digits)"), r.err().lines().toList());
    }
}
