package io.fpgamr.accel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node's speed profile: its file, its node attributes and back, an operator's figure winning, bad files refused. */
class SpeedProfileTest {
    @TempDir
    Path dir;

    private static SpeedProfile sample() {
        return new SpeedProfile(Map.of("arch", "amd64"), List.of(
            new SpeedProfile.Speed("cpu", "search", 2.1e8, SpeedProfile.Source.MEASURED, "cpu:avx2", false),
            new SpeedProfile.Speed("cpu", "bench", 4.5e6, SpeedProfile.Source.MEASURED, "cpu:avx2", false),
            new SpeedProfile.Speed("fpga", "search", 2.5e5, SpeedProfile.Source.MEASURED, "fpga:vsim:p4", true)));
    }

    @Test
    void theFileReadsBackTheSameSpeeds() throws IOException {
        Path f = dir.resolve("speed-profile.properties");
        sample().write(f);
        assertTrue(Files.readString(f).contains("cpu.search=2.1000e08\n"), Files.readString(f));
        SpeedProfile back = SpeedProfile.read(f);
        assertEquals(2.1e8, back.speed("cpu", "search").orElseThrow().valuesPerS());
        assertEquals(SpeedProfile.Source.MEASURED, back.speed("fpga", "search").orElseThrow().source());
        assertTrue(back.speed("fpga", "search").orElseThrow().simulated());
        assertEquals("cpu:avx2", back.speed("cpu", "bench").orElseThrow().engine());
        assertEquals("amd64", back.node().get("arch"));
        assertFalse(back.speed("fpga", "bench").isPresent());
    }

    @Test
    void theAttributesAreWhatYarnAcceptsAndReadBack() {
        Map<String, String> a = sample().toAttributes();
        assertEquals("2.1000e08", a.get("fpgamr-cpu-search"));
        assertEquals("measured", a.get("fpgamr-cpu-search-source"));
        assertEquals("cpu_avx2", a.get("fpgamr-cpu-engine"), "no ':' in a YARN attribute value");
        assertEquals("true", a.get("fpgamr-fpga-simulated"));
        assertEquals("amd64", a.get("fpgamr-node-arch"));
        for (Map.Entry<String, String> e : a.entrySet()) {
            // YARN's NodeLabelUtil: names [0-9a-zA-Z][0-9a-zA-Z-_]*, values [0-9a-zA-Z][0-9a-zA-Z-_.]*
            assertTrue(e.getKey().matches("[0-9a-zA-Z][0-9a-zA-Z_-]*"), e.getKey());
            assertTrue(e.getValue().matches("[0-9a-zA-Z][0-9a-zA-Z_.-]*"), e.getValue());
        }
        SpeedProfile back = SpeedProfile.fromAttributes(a, Map.of());
        assertEquals(2.1e8, back.speed("cpu", "search").orElseThrow().valuesPerS());
        assertTrue(back.speed("fpga", "search").orElseThrow().simulated());
    }

    @Test
    void anOperatorsFigureWinsAndSaysSo() {
        SpeedProfile p = SpeedProfile.fromAttributes(sample().toAttributes(), Map.of("fpgamr-fpga-search", "6.8e8"));
        SpeedProfile.Speed s = p.speed("fpga", "search").orElseThrow();
        assertEquals(6.8e8, s.valuesPerS());
        assertEquals(SpeedProfile.Source.OPERATOR, s.source());
        assertEquals(SpeedProfile.Source.MEASURED, p.speed("cpu", "search").orElseThrow().source(), "the others stay the node's");
    }

    @Test
    void aBadFigureIsOneLineNamingTheKey() throws IOException {
        Path f = dir.resolve("bad.properties");
        Files.writeString(f, "cpu.search=fast\n");
        IOException e = assertThrows(IOException.class, () -> SpeedProfile.read(f));
        assertEquals(f + ": cpu.search must be a number of values per second, got 'fast'", e.getMessage());
        Files.writeString(f, "cpu.search=-3\n");
        assertTrue(assertThrows(IOException.class, () -> SpeedProfile.read(f)).getMessage().contains("positive"));
        Files.writeString(f, "cpu.search=1e8\ncpu.search.source=guessed\n");
        assertTrue(assertThrows(IOException.class, () -> SpeedProfile.read(f)).getMessage()
            .endsWith("source must be measured, modelled or operator, got 'guessed'"));
    }

    @Test
    void anEmulatedProfileSaysSoThroughItsAttributes() {
        SpeedProfile p = new SpeedProfile(Map.of("arch", "arm", "emulated", "true"), List.of(
            new SpeedProfile.Speed("cpu", "search", 1.2e7, SpeedProfile.Source.MEASURED, "cpu:neon", false)));
        assertTrue(p.emulated());
        assertEquals("true", p.toAttributes().get("fpgamr-node-emulated"));
        SpeedProfile back = SpeedProfile.fromAttributes(p.toAttributes(), Map.of());
        assertTrue(back.emulated());
        assertEquals("arm", back.node().get("arch"));
        assertFalse(sample().emulated());
    }
}
