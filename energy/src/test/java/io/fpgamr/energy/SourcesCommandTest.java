package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.source.NisServer;
import io.fpgamr.energy.source.SysfsTree;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourcesCommandTest {
    @TempDir
    Path tmp;

    @Test
    void listsEverySourceTheNodeHasAndReadsThem() throws Exception {
        SysfsTree tree = new SysfsTree(tmp);
        tree.raplZone("intel-rapl:0", "package-0", 1_000_000, 262_143_328_850L);
        Path ina = tree.device("hwmon", "hwmon0", "platform/i2c-1/1-0040/hwmon/hwmon0");
        SysfsTree.write(ina.resolve("name"), "ina226");
        SysfsTree.write(ina.resolve("power1_input"), "4875000");
        Path ipmi = tmp.resolve("ipmitool.sh");
        try (InputStream in = getClass().getResourceAsStream("/transcripts/ipmitool-dcmi-power-reading.txt")) {
            Files.writeString(ipmi, "#!/bin/sh\ncat <<'END'\n" + new String(in.readAllBytes(), StandardCharsets.US_ASCII) + "END\n");
        }
        List<String> ups;
        try (InputStream in = getClass().getResourceAsStream("/transcripts/apcupsd-status.txt")) {
            ups = new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines().toList();
        }
        try (NisServer nis = new NisServer(ups)) {
            Cli c = Cli.run("sources", "--powercap-root", tree.classDir("powercap").toString(), "--hwmon-root", tree.classDir("hwmon").toString(),
                "--apcupsd", "127.0.0.1:" + nis.port(), "--ipmi-command", "sh " + ipmi, "--declare-watts", "250");
            assertEquals(0, c.code, c.err);
            List<String> lines = c.out.lines().toList();
            assertEquals("  apcupsd (node total): UPS load through apcupsd's NIS at 127.0.0.1:" + nis.port() + " (LOADPCT x NOMPOWER)", lines.get(1));
            assertEquals("  ipmi: IPMI DCMI power reading from `sh " + ipmi + "`", lines.get(2));
            assertEquals("  hwmon: hwmon power sensors in " + tree.classDir("hwmon") + ": ina226/power1", lines.get(3));
            assertEquals("  rapl: Intel RAPL energy counters in " + tree.classDir("powercap") + ": package-0", lines.get(4));
            assertEquals("  declared [declared, not measured]: declared by the user: 250.0 W (not measured)", lines.get(5));
            assertEquals("  no scope: no live trace configured (--scope-csv FILE --supply-volts V --shunt-ohms R)", lines.get(6));
            assertTrue(lines.contains("  read apcupsd backups: 147.050 W"), c.out);
            assertTrue(lines.contains("  read ipmi dcmi: 187.000 W"), c.out);
            assertTrue(lines.contains("  read hwmon ina226/power1: 4.875 W"), c.out);
            // the package counter did not move in the second: 0 W
            assertTrue(lines.contains("  read rapl package-0: 0.000 W"), c.out);
            assertTrue(lines.contains("  read declared declared: 250.000 W (declared)"), c.out);

            Cli primary = Cli.run("sources", "--powercap-root", tree.classDir("powercap").toString(), "--hwmon-root", tmp.resolve("x").toString(),
                "--apcupsd", "127.0.0.1:" + nis.port(), "--primary", "rapl", "--sources", "rapl,apcupsd");
            assertEquals("  rapl (node total): Intel RAPL energy counters in " + tree.classDir("powercap") + ": package-0", primary.out.lines().toList().get(1));
        }
    }

    @Test
    void aNodeWithoutSourceSaysNoPowerSource() {
        Cli c = Cli.run("sources", "--powercap-root", tmp.resolve("a").toString(), "--hwmon-root", tmp.resolve("b").toString(),
            "--dev-root", tmp.resolve("dev").toString(), "--apcupsd", "127.0.0.1:1", "--timeout-ms", "300");
        assertEquals(0, c.code, c.err);
        List<String> lines = c.out.lines().toList();
        assertEquals("no power source: job reports will give times only", lines.get(1));
        assertTrue(lines.get(2).startsWith("  no scope: "), c.out);
        assertTrue(lines.get(3).startsWith("  no apcupsd: no apcupsd NIS answering at 127.0.0.1:1: "), c.out);
        assertEquals("  no ipmi: no BMC device (" + tmp.resolve("dev/ipmi0") + ")", lines.get(4));
        assertEquals("  no hwmon: no hwmon directory " + tmp.resolve("b"), lines.get(5));
        assertEquals("  no rapl: no powercap directory " + tmp.resolve("a"), lines.get(6));
        assertEquals("  no declared: no wattage declared (--declare-watts W)", lines.get(7));
    }

    @Test
    void usageErrorsAreOneLineAndExitTwo() {
        Cli none = Cli.run();
        assertEquals(2, none.code);
        Cli unknown = Cli.run("watts");
        assertEquals(2, unknown.code);
        assertEquals("fpgamr energy: unknown command 'watts' (expected sources, scope, report, exporter or check-dashboard)\n", unknown.err);
        Cli kind = Cli.run("sources", "--sources", "ups");
        assertEquals(2, kind.code);
        assertEquals("fpgamr energy sources: --sources must be one of scope, apcupsd, ipmi, hwmon, rapl, declared, got 'ups'\n", kind.err);
        Cli value = Cli.run("sources", "--declare-watts");
        assertEquals("fpgamr energy sources: --declare-watts needs a value\n", value.err);
        Cli port = Cli.run("exporter", "--port", "70000");
        assertEquals(2, port.code);
        assertEquals("fpgamr energy exporter: --port must be between 0 and 65535, got '70000'\n", port.err);
        Cli scope = Cli.run("sources", "--scope-csv", "x.csv");
        assertEquals("fpgamr energy sources: --scope-csv needs --supply-volts and --shunt-ohms\n", scope.err);
        assertEquals(0, Cli.run("--help").code);
    }
}
