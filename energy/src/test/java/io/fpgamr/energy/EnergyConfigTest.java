package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fpgamr.energy.config.Values;
import io.fpgamr.energy.source.SourceConfig;
import io.fpgamr.energy.source.SourceKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnergyConfigTest {
    @TempDir
    Path tmp;

    static List<String> kinds(SourceConfig s) {
        return s.kinds().stream().map(SourceKind::name).toList();
    }

    @Test
    void theLauncherTakesTheSameOptionsAsTheCommands() {
        EnergyConfig c = EnergyConfig.fromOptions(EnergyConfig.words(
            "--declare-watts 42 --sources declared,ipmi --ipmi-command 'sudo ipmitool dcmi power reading' "
                + "--node-type arm-fpga --node n7 --period-ms 500 --spool /tmp/s --exporters a:9464,b:9464"));
        Values s = c.sources().settings();
        assertEquals(42.0, s.number("sources.declared.watts"));
        assertEquals(List.of("ipmi", "declared"), kinds(c.sources()));
        assertEquals(List.of("sudo", "ipmitool", "dcmi", "power", "reading"), s.list("sources.ipmi.command"));
        assertEquals("arm-fpga", c.nodeType());
        assertEquals("n7", c.node());
        assertEquals(500, c.periodMs());
        assertEquals(Path.of("/tmp/s"), c.spool());
        assertEquals(List.of("a:9464", "b:9464"), c.exporters());
        assertEquals(false, c.singleMachine());
        EnergyConfig d = EnergyConfig.fromOptions(List.of());
        assertEquals(EnergyConfig.DEFAULT_PERIOD_MS, d.periodMs());
        assertEquals(List.of("scope", "apcupsd", "ipmi", "hwmon", "rapl", "declared"), kinds(d.sources()));
        assertEquals(Path.of("/sys/class/powercap"), d.sources().settings().path("sources.rapl.root"));
        assertEquals(2000, d.sources().timeoutMs());
    }

    @Test
    void badOptionsAreOneLine() {
        assertEquals("--declare-watts must be a positive number, got '0'",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--declare-watts", "0"))).getMessage());
        assertEquals("--sources must be one of scope, apcupsd, ipmi, hwmon, rapl, declared, got 'ups'",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--sources", "ups"))).getMessage());
        assertEquals("--exporters must be HOST:PORT, got 'a'",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--exporters", "a"))).getMessage());
        assertEquals("unknown option --port (see fpgamr energy --help)",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--port", "1"))).getMessage());
        assertEquals("--declare-watts needs a value",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--declare-watts"))).getMessage());
        assertEquals("--scope-csv needs --supply-volts and --shunt-ohms",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--scope-csv", "x.csv"))).getMessage());
        // no partial matching of long options: a typo is an error, not another setting
        assertEquals("unknown option --declare (see fpgamr energy --help)",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("--declare", "5"))).getMessage());
        assertEquals("unexpected argument 'x'",
            assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromOptions(List.of("x"))).getMessage());
    }

    /** The README's complete example: every source kind, the node, the exporter and the launcher. */
    static final String EVERY_KIND = String.join("\n",
        "node: fpga1",
        "node_type: arm-fpga",
        "period_ms: 500",
        "spool: /var/lib/fpgamr/spool",
        "primary: hwmon",
        "timeout_ms: 3000",
        "exporter:",
        "  bind: 127.0.0.1",
        "  port: 9464",
        "  retain_hours: 48",
        "  resourcemanager: http://rm1:8088",
        "exporters: [x86-1:9464, fpga1:9464]",
        "sources:",
        "  scope:",
        "    csv: /var/log/scope/mcvevk.csv",
        "    supply_volts: 9.28",
        "    shunt_ohms: 1",
        "  apcupsd:",
        "    address: 127.0.0.1:3551",
        "    nominal_watts: 865",
        "  ipmi:",
        "    command: [sudo, ipmitool, dcmi, power, reading]",
        "    dev_root: /dev",
        "  hwmon:",
        "    root: /sys/class/hwmon",
        "    channels: [ina226@hwmon0/power1, ina226@hwmon2/power1]",
        "  rapl:",
        "  declared:",
        "    watts: 6.5",
        "");

    @Test
    void oneFileDescribesTheNodeItsSourcesAndTheExporter() throws IOException {
        Path f = tmp.resolve("energy.yml");
        Files.writeString(f, EVERY_KIND);
        EnergyConfig c = EnergyConfig.fromFlags(List.of("--config", f.toString()), EnergyConfig.EXPORTER);
        assertEquals("fpga1", c.node());
        assertEquals("arm-fpga", c.nodeType());
        assertEquals(500, c.periodMs());
        assertEquals(Path.of("/var/lib/fpgamr/spool"), c.spool());
        assertEquals(java.net.URI.create("http://rm1:8088"), c.resourceManager());
        assertEquals("127.0.0.1", c.bind());
        assertEquals(9464, c.port());
        assertEquals(48L * 3600 * 1000, c.retentionMs());
        assertEquals(List.of("x86-1:9464", "fpga1:9464"), c.exporters());
        SourceConfig s = c.sources();
        assertEquals(List.of("scope", "apcupsd", "ipmi", "hwmon", "rapl", "declared"), kinds(s));
        assertEquals("hwmon", s.primary());
        assertEquals(3000, s.timeoutMs());
        Values v = s.settings();
        assertEquals(Path.of("/var/log/scope/mcvevk.csv"), v.path("sources.scope.csv"));
        assertEquals(9.28, v.number("sources.scope.supply_volts"));
        assertEquals(1.0, v.number("sources.scope.shunt_ohms"));
        assertEquals("127.0.0.1:3551", v.text("sources.apcupsd.address"));
        assertEquals(865.0, v.number("sources.apcupsd.nominal_watts"));
        assertEquals(List.of("sudo", "ipmitool", "dcmi", "power", "reading"), v.list("sources.ipmi.command"));
        assertEquals(List.of("ina226@hwmon0/power1", "ina226@hwmon2/power1"), v.list("sources.hwmon.channels"));
        assertEquals(Path.of("/sys/class/powercap"), v.path("sources.rapl.root"));
        assertEquals(6.5, v.number("sources.declared.watts"));

        // a flag overrides the file; the file's other settings stay
        EnergyConfig o = EnergyConfig.fromFlags(List.of("--config", f.toString(), "--declare-watts", "7", "--port", "0"), EnergyConfig.EXPORTER);
        assertEquals(7.0, o.sources().settings().number("sources.declared.watts"));
        assertEquals(0, o.port());
        assertEquals("fpga1", o.node());
        // the launcher reads the same file (the exporter's part is not its business, and no error)
        assertEquals(List.of("x86-1:9464", "fpga1:9464"), EnergyConfig.fromOptions(List.of("--config", f.toString())).exporters());
    }

    /** The README's examples: one for each source kind, each a valid configuration looking for the kinds it lists. */
    @Test
    void everyExampleOfTheReadmeIsAValidConfiguration() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("energy.basedir", ".")).resolve("README.md"));
        Matcher m = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL).matcher(readme);
        List<List<String>> listed = new ArrayList<>();
        while (m.find()) {
            Path f = tmp.resolve("example-" + listed.size() + ".yml");
            Files.writeString(f, m.group(1));
            listed.add(kinds(EnergyConfig.fromFlags(List.of("--config", f.toString()), EnergyConfig.EXPORTER).sources()));
        }
        assertEquals(List.of(List.of("scope"), List.of("apcupsd", "rapl"), List.of("ipmi"), List.of("hwmon"), List.of("rapl"),
            List.of("declared"), List.of("hwmon", "declared")), listed);
    }

    /** The message for a file holding {@code yaml}. */
    String problem(String yaml) throws IOException {
        Path f = tmp.resolve("bad.yml");
        Files.writeString(f, yaml);
        return assertThrows(IllegalArgumentException.class, () -> EnergyConfig.fromFlags(List.of("--config", f.toString()), EnergyConfig.EXPORTER))
            .getMessage().replace(f.toString(), "bad.yml");
    }

    @Test
    void eachBadFieldOfTheFileIsOneLineNamingFileFieldAndProblem() throws IOException {
        assertEquals("bad.yml: sources.declared.watts must be a positive number, got '0'", problem("sources:\n  declared: {watts: 0}\n"));
        assertEquals("bad.yml: sources.ups is not a setting (under sources: scope, apcupsd, ipmi, hwmon, rapl, declared)",
            problem("sources:\n  ups: {address: a}\n"));
        assertEquals("bad.yml: sources.hwmon.rooot is not a setting (under sources.hwmon: root, channels)",
            problem("sources:\n  hwmon: {rooot: /sys}\n"));
        assertEquals("bad.yml: nodes is not a setting (settings sources, primary, timeout_ms, node, node_type, period_ms, spool, exporters, exporter)",
            problem("nodes: 3\n"));
        assertEquals("bad.yml: exporter.port must be between 0 and 65535, got '70000'", problem("exporter: {port: 70000}\n"));
        assertEquals("bad.yml: period_ms must be an integer, got 'fast'", problem("period_ms: fast\n"));
        assertEquals("bad.yml: exporter.resourcemanager must be http://HOST:PORT, got 'rm1:8088'",
            problem("exporter: {resourcemanager: 'rm1:8088'}\n"));
        assertEquals("bad.yml: exporters must be HOST:PORT, got 'x86-1'", problem("exporters: [x86-1]\n"));
        assertEquals("bad.yml: sources.scope.csv needs sources.scope.supply_volts and sources.scope.shunt_ohms",
            problem("sources:\n  scope: {csv: /x.csv}\n"));
        assertEquals("bad.yml: sources.apcupsd.address must be HOST or HOST:PORT, got 'a:b:c'", problem("sources:\n  apcupsd: {address: 'a:b:c'}\n"));
        assertEquals("bad.yml: primary must be one of scope, apcupsd, ipmi, hwmon, rapl, declared, got 'ups'", problem("primary: ups\n"));
        assertEquals("bad.yml: must be a mapping of settings (see energy/README.md)", problem("- node\n"));
        assertEquals("bad.yml: node must be a plain value or a list of them", problem("node: [{a: 1}]\n"));
        assertEquals("bad.yml: not YAML (line 2): mapping values are not allowed here", problem("node: a\n  b: c: d\n"));
        assertEquals(tmp.resolve("absent.yml") + ": no such file", assertThrows(IllegalArgumentException.class,
            () -> EnergyConfig.fromOptions(List.of("--config", tmp.resolve("absent.yml").toString()))).getMessage());
        // an empty file is no setting at all
        Files.writeString(tmp.resolve("empty.yml"), "# nothing yet\n");
        assertEquals(6, EnergyConfig.fromOptions(List.of("--config", tmp.resolve("empty.yml").toString())).sources().kinds().size());
    }
}
