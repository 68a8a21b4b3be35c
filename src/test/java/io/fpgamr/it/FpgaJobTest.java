package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.accel.fpga.FpgaEngine;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job on the FPGA, end to end through bin/fpgamr: every value hashed by the simulated
 * accelerator (the Verilated HDL, libfpgamr-vsim-p4.so from the jar) through the driver and the
 * JNA engine, on the local runner and on the embedded cluster. The device gets a lock file of its
 * own, so no other process's simulated device interferes.
 */
class FpgaJobTest {
    private static final int BITS = 20;
    private static final long VALUES = 1L << BITS;

    @TempDir
    Path tmp;

    private final SplittableRandom random = new SplittableRandom(20261122L);

    private String device() {
        return "vsim:pipelines=4,lock=" + tmp.resolve("fpga.lock");
    }

    /** Maps per hardware kind over all nodes: {cpu, fpga}. */
    private static int[] maps(JsonNode summary) {
        int[] n = new int[2];
        for (JsonNode node : summary.get("maps_by_node")) {
            n[0] += node.get("cpu").asInt();
            n[1] += node.get("fpga").asInt();
        }
        return n;
    }

    /** Asserts that every map ran on the FPGA and the device did every batch. */
    private static void allOnTheFpga(JsonNode s, int bits, boolean zeroCopy, String err) {
        long values = 1L << bits;
        assertEquals(values, s.get("values_hashed").asLong(), err);
        int[] maps = maps(s);
        assertEquals(0, maps[0], "cpu maps: " + s.get("maps_by_node"));
        assertTrue(maps[1] >= 1, "fpga maps: " + s.get("maps_by_node"));
        JsonNode f = s.get("fpga");
        assertTrue(f != null, "no fpga figures in " + s);
        long batches = Math.max(1, values >> 18);
        assertEquals(batches, f.get("batches").asLong(), f.toString());
        assertTrue(f.get("device_cycles").asLong() > 0 && f.get("modelled_device_s").asDouble() > 0, f.toString());
        assertEquals(zeroCopy ? batches : 0, f.get("zero_copy_batches").asLong(), f.toString());
        assertTrue(err.contains("fpga: " + batches + " batches, "), err);
        // a simulated device says so in every figure derived from it
        assertTrue(f.get("simulated").asBoolean(), f.toString());
        for (JsonNode node : s.get("maps_by_node")) {
            assertEquals(node.get("fpga").asInt() > 0, node.get("simulated").asBoolean(), s.get("maps_by_node").toString());
        }
        assertTrue(s.get("energy").get("simulated").asBoolean(), s.get("energy").toString());
        assertTrue(err.contains("SIMULATED FPGA"), err);
        assertTrue(err.lines().anyMatch(l -> l.matches("  maps on .*: 0 cpu, [1-9][0-9]* fpga \\(simulated\\)")), err);
    }

    @Test
    void localRunnerSearchAndBenchOnTheSimulatedDevice() throws Exception {
        long a = random.nextLong(VALUES);
        long b = random.nextLong(VALUES);
        Path json = tmp.resolve("search.json");
        Fpgamr.Result search = Fpgamr.run(tmp, "search", Fpgamr.md5Hex(a, BITS), Fpgamr.md5Hex(b, BITS), "--bits", "" + BITS,
            "--cluster", "local", "--accel", "fpga", "--device", device(), "--output", tmp.resolve("s").toString(),
            "--summary-json", json.toString());
        assertEquals(0, search.code(), search.err());
        List<String> expected = Stream.of(Fpgamr.potLine(a, BITS), Fpgamr.potLine(b, BITS)).sorted().distinct().toList();
        assertEquals(expected, search.outLines());
        assertEquals(expected, Fpgamr.outputLines(tmp.resolve("s")));
        assertTrue(search.err().contains("values hashed " + VALUES + " of " + VALUES), search.err());
        allOnTheFpga(Fpgamr.summary(json), BITS, false, search.err());

        // bench: the hash path, digests written by the device into the map's DMA buffer
        int bits = 18;
        long c = random.nextLong(1L << bits);
        json = tmp.resolve("bench.json");
        Fpgamr.Result bench = Fpgamr.run(tmp, "bench", Fpgamr.md5Hex(c, bits), "--bits", "" + bits, "--cluster", "local", "--repeat", "1",
            "--accel", "fpga", "--device", device(), "--output", tmp.resolve("b").toString(), "--summary-json", json.toString());
        assertEquals(0, bench.code(), bench.err());
        assertEquals(List.of(Fpgamr.potLine(c, bits)), bench.outLines());
        allOnTheFpga(Fpgamr.summary(json), bits, true, bench.err());
    }

    @Test
    void embeddedClusterSearchHasEveryMapOnTheFpga() throws Exception {
        long a = random.nextLong(VALUES);
        Path json = tmp.resolve("summary.json");
        Fpgamr.Result r = Fpgamr.run(tmp, "search", Fpgamr.md5Hex(a, BITS), "096822475dd517c1089f4b58c7f346ef", "--bits", "" + BITS,
            "--accel", "fpga", "--device", device(), "--output", tmp.resolve("out").toString(), "--summary-json", json.toString());
        assertEquals(0, r.code(), r.err());
        List<String> expected = Stream.of(Fpgamr.potLine(a, BITS), "096822475dd517c1089f4b58c7f346ef:$HEX[00000123]")
            .sorted().distinct().toList();
        assertEquals(expected, r.outLines());
        assertEquals(expected, Fpgamr.outputLines(tmp.resolve("out")));
        JsonNode s = Fpgamr.summary(json);
        assertEquals("embedded", s.get("cluster").asText());
        allOnTheFpga(s, BITS, false, r.err());
    }

    @Test
    void aBusyDeviceFailsFpgaInOneLineAndSendsAutoToTheCpu() throws Exception {
        long a = random.nextLong(1L << 16);
        try (FpgaEngine owner = FpgaEngine.open(device())) {
            Fpgamr.Result fpga = Fpgamr.run(tmp, "search", Fpgamr.md5Hex(a, 16), "--bits", "16", "--cluster", "local",
                "--accel", "fpga", "--device", device());
            assertEquals(2, fpga.code(), fpga.err());
            List<String> lines = fpga.err().lines().toList();
            assertEquals(1, lines.size(), fpga.err());
            assertTrue(lines.get(0).startsWith("fpgamr: --accel fpga: FPGA device 'vsim:pipelines=4,lock=")
                && lines.get(0).contains("device busy"), lines.get(0));

            Path json = tmp.resolve("auto.json");
            Fpgamr.Result auto = Fpgamr.run(tmp, "search", Fpgamr.md5Hex(a, 16), "--bits", "16", "--cluster", "local",
                "--accel", "auto", "--device", device(), "--output", tmp.resolve("auto").toString(), "--summary-json", json.toString());
            assertEquals(0, auto.code(), auto.err());
            assertEquals(List.of(Fpgamr.potLine(a, 16)), auto.outLines());
            JsonNode s = Fpgamr.summary(json);
            assertEquals(0, maps(s)[1], s.get("maps_by_node").toString());
            assertTrue(maps(s)[0] >= 1);
            assertEquals(null, s.get("fpga"));
        }
        Fpgamr.Result none = Fpgamr.run(tmp, "search", Fpgamr.md5Hex(a, 16), "--bits", "16", "--cluster", "local", "--accel", "fpga");
        assertEquals(2, none.code(), none.err());
        assertEquals(List.of("fpgamr: --accel fpga: no FPGA device given (--device SPEC)"), none.err().lines().toList());
    }
}
