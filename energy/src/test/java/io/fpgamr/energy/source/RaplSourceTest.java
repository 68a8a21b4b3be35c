package io.fpgamr.energy.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RaplSourceTest {
    static final long MAX = 262_143_328_850L; // a real package's max_energy_range_uj

    @TempDir
    Path tmp;
    SysfsTree tree;
    Path pkg;
    Path dram;

    /** A one-socket machine as the kernel shows it: package-0 with core, uncore and dram, psys, and the MMIO twin. */
    @BeforeEach
    void machine() throws IOException {
        tree = new SysfsTree(tmp);
        // the control type itself: class/powercap/intel-rapl, without a name of a zone
        Path control = tree.device("powercap", "intel-rapl", "virtual/powercap/intel-rapl");
        SysfsTree.write(control.resolve("enabled"), "1");
        pkg = tree.raplZone("intel-rapl:0", "package-0", 1_000_000_000L, MAX);
        tree.raplZone("intel-rapl:0/intel-rapl:0:0", "core", 700_000_000L, MAX);
        tree.raplZone("intel-rapl:0/intel-rapl:0:1", "uncore", 10_000_000L, MAX);
        dram = tree.raplZone("intel-rapl:0/intel-rapl:0:2", "dram", 50_000_000L, 65_712_999_613L);
        tree.raplZone("intel-rapl:1", "psys", 2_000_000_000L, MAX);
        tree.raplZone("intel-rapl-mmio:0", "package-0", 1_000_000_000L, MAX);
    }

    @Test
    void readsPackageAndDramOnlyAndDividesTheIncreaseByTheTime() throws IOException {
        RaplSource s = RaplSource.open(tree.classDir("powercap"));
        assertEquals(List.of("package-0", "dram-0"), s.domains());
        assertEquals(PowerSource.Coverage.COMPONENTS, s.coverage());
        assertEquals(List.of(), s.read(1_000), "the first read primes the counters");

        SysfsTree.write(pkg.resolve("energy_uj"), "1045500000");   // +45.5 J
        SysfsTree.write(dram.resolve("energy_uj"), "53250000");    // +3.25 J
        List<DomainPower> r = s.read(2_000);
        assertEquals(List.of(new DomainPower("package-0", 45.5), new DomainPower("dram-0", 3.25)), r);

        SysfsTree.write(pkg.resolve("energy_uj"), "1068250000");   // +22.75 J in 0.5 s
        SysfsTree.write(dram.resolve("energy_uj"), "54250000");    // +1 J in 0.5 s
        assertEquals(List.of(new DomainPower("package-0", 45.5), new DomainPower("dram-0", 2.0)), s.read(2_500));
    }

    @Test
    void aCounterThatPassedMaxEnergyRangeWrapsOnce() throws IOException {
        SysfsTree.write(pkg.resolve("energy_uj"), Long.toString(MAX - 328_850));
        RaplSource s = RaplSource.open(tree.classDir("powercap"));
        s.read(10_000);
        // 328 850 uJ up to the wrap, then 12 328 850 uJ from zero: 12.6577 J in 0.5 s
        SysfsTree.write(pkg.resolve("energy_uj"), "12328850");
        SysfsTree.write(dram.resolve("energy_uj"), "50000000");
        List<DomainPower> r = s.read(10_500);
        assertEquals(25.3154, r.get(0).watts(), 1e-9);
        assertEquals(0.0, r.get(1).watts());
        assertEquals(12_657_700L, RaplSource.increase(MAX - 328_850, 12_328_850, MAX));
    }

    @Test
    void aMissingOrEmptyPowercapTreeSaysWhy() throws IOException {
        IOException none = assertThrows(IOException.class, () -> RaplSource.open(tmp.resolve("nowhere")));
        assertTrue(none.getMessage().startsWith("no powercap directory"), none.getMessage());
        Path empty = Files.createDirectories(tmp.resolve("empty/class/powercap"));
        IOException noZone = assertThrows(IOException.class, () -> RaplSource.open(empty));
        assertEquals("no intel-rapl package or dram zone under " + empty, noZone.getMessage());
    }

    @Test
    void anUnreadableCounterIsAFailedReadNamingTheFile() throws IOException {
        RaplSource s = RaplSource.open(tree.classDir("powercap"));
        s.read(1_000);
        SysfsTree.write(pkg.resolve("energy_uj"), "garbage");
        IOException e = assertThrows(IOException.class, () -> s.read(2_000));
        assertTrue(e.getMessage().endsWith("energy_uj: not an integer: 'garbage'"), e.getMessage());
    }
}
