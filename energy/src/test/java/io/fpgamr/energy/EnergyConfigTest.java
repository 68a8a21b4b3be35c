package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EnergyConfigTest {
    @Test
    void theLauncherTakesTheSameOptionsAsTheCommands() {
        EnergyConfig c = EnergyConfig.fromOptions(EnergyConfig.words(
            "--declare-watts 42 --sources declared,ipmi --ipmi-command 'sudo ipmitool dcmi power reading' "
                + "--node-type arm-fpga --node n7 --period-ms 500 --spool /tmp/s --exporters a:9464,b:9464"));
        assertEquals(42.0, c.sources().declaredWatts());
        assertEquals(Set.of("declared", "ipmi"), c.sources().only());
        assertEquals(List.of("sudo", "ipmitool", "dcmi", "power", "reading"), c.sources().ipmiCommand());
        assertEquals("arm-fpga", c.nodeType());
        assertEquals("n7", c.node());
        assertEquals(500, c.periodMs());
        assertEquals(Path.of("/tmp/s"), c.spool());
        assertEquals(List.of("a:9464", "b:9464"), c.exporters());
        assertEquals(false, c.singleMachine());
        assertEquals(EnergyConfig.DEFAULT_PERIOD_MS, EnergyConfig.fromOptions(List.of()).periodMs());
    }

    @Test
    void badOptionsAreOneLine() {
        assertEquals("--declare-watts must be a positive number, got '0'",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--declare-watts", "0"))).getMessage());
        assertEquals("unknown source kind 'ups' in --sources (expected scope, apcupsd, ipmi, hwmon, rapl, declared)",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--sources", "ups"))).getMessage());
        assertEquals("--exporters must list HOST:PORT,..., got 'a'",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--exporters", "a"))).getMessage());
        assertEquals("unknown option --port (see fpgamr energy --help)",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--port", "1"))).getMessage());
    }
}
