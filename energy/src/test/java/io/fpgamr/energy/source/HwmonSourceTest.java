package io.fpgamr.energy.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HwmonSourceTest {
    @TempDir
    Path tmp;
    SysfsTree tree;
    Path boardIna;

    /**
     * An ARM board as the kernel shows it: two INA226 monitors on I2C (power in microwatts), the
     * SoC's thermal sensor (no power), and an ACPI power meter with the old layout under device/.
     */
    @BeforeEach
    void board() throws IOException {
        tree = new SysfsTree(tmp);
        boardIna = tree.device("hwmon", "hwmon0", "platform/soc/2100000.bus/21a4000.i2c/i2c-1/1-0040/hwmon/hwmon0");
        SysfsTree.write(boardIna.resolve("name"), "ina226");
        SysfsTree.write(boardIna.resolve("in1_input"), "16288");
        SysfsTree.write(boardIna.resolve("curr1_input"), "299");
        SysfsTree.write(boardIna.resolve("power1_input"), "4875000");
        SysfsTree.write(boardIna.resolve("update_interval"), "35");
        Path thermal = tree.device("hwmon", "hwmon1", "virtual/thermal/thermal_zone0/hwmon1");
        SysfsTree.write(thermal.resolve("name"), "cpu_thermal");
        SysfsTree.write(thermal.resolve("temp1_input"), "48312");
        Path fpgaIna = tree.device("hwmon", "hwmon2", "platform/soc/2100000.bus/21a8000.i2c/i2c-2/2-0041/hwmon/hwmon2");
        SysfsTree.write(fpgaIna.resolve("name"), "ina226");
        SysfsTree.write(fpgaIna.resolve("power1_input"), "1250000");
        Path meter = tree.device("hwmon", "hwmon3", "LNXSYSTM:00/device:00/ACPI000D:00/hwmon/hwmon3");
        SysfsTree.write(meter.resolve("device/name"), "power_meter");
        SysfsTree.write(meter.resolve("device/power1_average"), "95500000");
        SysfsTree.write(meter.resolve("device/power1_average_interval"), "1000");
    }

    @Test
    void readsEveryPowerChannelInWatts() throws IOException {
        HwmonSource s = HwmonSource.open(tree.classDir("hwmon"), List.of());
        assertEquals(List.of("ina226@hwmon0/power1", "ina226@hwmon2/power1", "power_meter/power1"), s.domains());
        assertEquals(List.of(new DomainPower("ina226@hwmon0/power1", 4.875), new DomainPower("ina226@hwmon2/power1", 1.25),
            new DomainPower("power_meter/power1", 95.5)), s.read(1_000));
        SysfsTree.write(boardIna.resolve("power1_input"), "6125000");
        assertEquals(6.125, s.read(2_000).get(0).watts());
    }

    @Test
    void keepsOnlyTheChosenChannels() throws IOException {
        HwmonSource s = HwmonSource.open(tree.classDir("hwmon"), List.of("ina226@hwmon0/power1"));
        assertEquals(List.of(new DomainPower("ina226@hwmon0/power1", 4.875)), s.read(1_000));
        IOException e = assertThrows(IOException.class, () -> HwmonSource.open(tree.classDir("hwmon"), List.of("ina3221/VDD_IN")));
        assertEquals("none of the hwmon channels [ina3221/VDD_IN] under " + tree.classDir("hwmon"), e.getMessage());
    }

    @Test
    void usesTheChannelLabelWhenTheDriverGivesOne() throws IOException {
        Path t = tmp.resolve("other");
        SysfsTree other = new SysfsTree(t);
        Path ina = other.device("hwmon", "hwmon0", "platform/i2c-0/0-0040/hwmon/hwmon0");
        SysfsTree.write(ina.resolve("name"), "ina238");
        SysfsTree.write(ina.resolve("power1_input"), "7000000");
        SysfsTree.write(ina.resolve("power1_label"), "VDD_IN");
        assertEquals(List.of(new DomainPower("ina238/VDD_IN", 7.0)), HwmonSource.open(other.classDir("hwmon"), List.of()).read(0));
    }

    @Test
    void noPowerSensorSaysSo() throws IOException {
        SysfsTree bare = new SysfsTree(tmp.resolve("bare"));
        Path thermal = bare.device("hwmon", "hwmon0", "virtual/thermal/thermal_zone0/hwmon0");
        SysfsTree.write(thermal.resolve("name"), "cpu_thermal");
        SysfsTree.write(thermal.resolve("temp1_input"), "48312");
        IOException e = assertThrows(IOException.class, () -> HwmonSource.open(bare.classDir("hwmon"), List.of()));
        assertEquals("no hwmon power sensor (power*_input) under " + bare.classDir("hwmon"), e.getMessage());
    }
}
