package io.fpgamr.md5.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.EnergyConfig;
import io.fpgamr.energy.exporter.NodeExporter;
import io.fpgamr.energy.source.Discovery;
import io.fpgamr.md5.cluster.EmbeddedCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fpgamr doctor}: the native program's device layers on the jar's simulated device, then
 * YARN (none configured on the test class path: n/a; an embedded cluster's FPGA and CPU
 * NodeManagers, then its ResourceManager gone) and a real energy exporter, alive or gone; and a
 * bare {@code fpgamr doctor} (no --device) on a DE10-Nano's sysfs layout given by --sysfs-root (a
 * fixture directory: the root compatible of the board's upstream device tree,
 * U-Boot's and Linux's socfpga_cyclone5_de10_nano.dts, and fpgamr.ko's driver attributes holding
 * the lines kernel/fpgamr-port.h writes, which kernel/test/port_state.c checks) in each broken
 * state, and on a machine without a device tree.
 * About 10 s, and the embedded cluster's start (about 40 s here).
 */
class DoctorTest {
    @TempDir
    Path tmp;

    private record Result(int code, List<String> out, String err) {
    }

    private Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 1];
        all[0] = "doctor";
        System.arraycopy(args, 0, all, 1, args.length);
        int code = Main.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8).lines().toList(), err.toString(StandardCharsets.UTF_8));
    }

    private Result run(Configuration yarn, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Doctor.run(args, yarn, new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8).lines().toList(), "");
    }

    private static String line(Result r, String layer) {
        return r.out().stream().filter(l -> l.split(": ")[1].equals(layer)).findFirst().orElseThrow(() -> new AssertionError(r.out()));
    }

    private String device() {
        return "vsim:pipelines=4,lock=" + tmp.resolve("vsim.lock");
    }

    private NodeExporter exporter() throws Exception {
        EnergyConfig cfg = EnergyConfig.fromFlags(List.of("--powercap-root", tmp.resolve("no-powercap").toString(), "--hwmon-root",
            tmp.resolve("no-hwmon").toString(), "--dev-root", tmp.resolve("dev").toString(), "--apcupsd", "127.0.0.1:1", "--timeout-ms", "200",
            "--node", "doctor", "--node-type", "x86", "--bind", "127.0.0.1", "--port", "0", "--spool", tmp.resolve("spool").toString()),
            EnergyConfig.EXPORTER);
        return NodeExporter.start(cfg, Discovery.discover(cfg.sources()));
    }

    private static void assertLayers(List<String> out) {
        assertEquals(List.of("module", "devicetree", "device", "regmap", "design", "interrupt", "dma", "yarn", "exporter"),
            out.stream().map(l -> l.split(": ")[1]).toList(), String.join("\n", out));
    }

    @Test
    void aHealthySimulatedDeviceIsOkOrNotApplicableOnEveryLayer() throws Exception {
        try (NodeExporter e = exporter()) {
            Result r = run("--device", device(), "--exporter", "127.0.0.1:" + e.port());
            assertEquals(0, r.code(), String.join("\n", r.out()) + r.err());
            assertLayers(r.out());
            assertEquals("n/a: module: a simulated device (vsim) has no kernel module", r.out().get(0));
            assertEquals("ok: regmap: 3.2, this driver's 3.2 (DESIGN_ID \"MD5A\")", r.out().get(3));
            assertTrue(r.out().get(6).matches("ok: dma: 262144 values hashed by the device through its DMA \\(\\d+ device cycles, .* ms here\\), "
                + "every digest equal to the CPU kernel's \\(\\w+\\)"), r.out().get(6));
            assertEquals("n/a: yarn: no YARN here: no ResourceManager configured (yarn.resourcemanager.hostname in the yarn-site.xml of "
                + "HADOOP_CONF_DIR)", r.out().get(7));
            assertEquals("ok: exporter: the energy exporter answers at http://127.0.0.1:" + e.port() + "/metrics (0 of 0 power sources up)",
                r.out().get(8));
            assertTrue(r.out().stream().allMatch(l -> l.startsWith("ok: ") || l.startsWith("n/a: ")), String.join("\n", r.out()));
        }
    }

    @Test
    void anExporterThatIsGoneFailsItsLayerOnly() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Result r = run("--device", device() + ",fault=irq_lost@1,timeout_ms=3000", "--values", "4096", "--exporter", "127.0.0.1:" + port);
        assertEquals(1, r.code(), String.join("\n", r.out()));
        assertLayers(r.out());
        assertTrue(r.out().get(5).startsWith("FAIL: interrupt: the device finished a 64-value search (STATUS.DONE) but no interrupt"),
            r.out().get(5));
        assertTrue(r.out().get(6).startsWith("ok: dma: 4096 values hashed"), r.out().get(6));
        assertTrue(r.out().get(6).endsWith("; its end polled, the interrupt failing"), r.out().get(6));
        assertTrue(r.out().get(8).startsWith("FAIL: exporter: the energy exporter does not answer at http://127.0.0.1:" + port
            + "/metrics ("), r.out().get(8));
        assertEquals(2, r.out().stream().filter(l -> l.startsWith("FAIL: ")).count());
    }

    @Test
    void yarnSaysWhetherThisNodesNodeManagerOffersTheFpga() throws Exception {
        Configuration conf;
        // the FPGA node is 127.0.10.2 (one simulated FPGA), the CPU node 127.0.10.1
        try (EmbeddedCluster c = EmbeddedCluster.start(new Configuration(), "", 2, 1)) {
            conf = new YarnConfiguration(c.config());
            Result fpga = run(conf, "--device", device(), "--values", "64", "--node", "127.0.10.2");
            assertEquals(0, fpga.code(), String.join("\n", fpga.out()));
            assertTrue(line(fpga, "yarn").matches("ok: yarn: the NodeManager 127\\.0\\.10\\.2:\\d+ offers yarn\\.io/fpga = 1 \\(0 in use\\)"),
                line(fpga, "yarn"));
            Result cpu = run(conf, "--device", device(), "--values", "64", "--node", "127.0.10.1");
            assertEquals(1, cpu.code());
            assertTrue(line(cpu, "yarn").matches("FAIL: yarn: the NodeManager 127\\.0\\.10\\.1:\\d+ offers no yarn\\.io/fpga: its FPGA plugin "
                + "is not configured, or finds no healthy device \\(its log; yarn-fpga-resource/README\\.md\\)"), line(cpu, "yarn"));
            Result other = run(conf, "--device", device(), "--values", "64", "--node", "127.0.10.9");
            assertEquals(1, other.code());
            assertTrue(line(other, "yarn").startsWith("FAIL: yarn: this node (127.0.10.9) is not among the 2 running NodeManagers of "
                + "the ResourceManager at "), line(other, "yarn"));
        }
        Result gone = run(conf, "--device", device(), "--values", "64", "--node", "127.0.10.2");
        assertEquals(1, gone.code());
        assertTrue(line(gone, "yarn").startsWith("FAIL: yarn: the ResourceManager at " + conf.get(YarnConfiguration.RM_ADDRESS)
            + " does not answer ("), line(gone, "yarn"));
        assertTrue(line(gone, "yarn").endsWith("): start it, or correct yarn.resourcemanager.hostname in HADOOP_CONF_DIR"), line(gone, "yarn"));
    }

    private static final String USER_MODE = "FPGA in user mode (FPGA manager stat 0x00000054, msel 0x0a)";
    private static final String UNPROGRAMMED = "FPGA not in user mode: in its configuration phase (FPGA manager stat 0x00000052, mode 2, "
        + "msel 0x0a): it is not programmed; load this design's .rbf before Linux boots (the boot script, hdl/README.md, On a DE10-Nano)";
    private static final String LW_OUT = "lightweight HPS-to-FPGA bridge out of reset (brgmodrst 0x00000000)";
    private static final String LW_RESET = "lightweight HPS-to-FPGA bridge in reset (brgmodrst 0x00000007): the accelerator's registers "
        + "cannot be read; release it after loading the .rbf (U-Boot's 'bridge enable', hdl/README.md, On a DE10-Nano)";
    private static final String PORT_ENABLED = "FPGA-to-SDRAM port enabled (fpgaportrst 0x000003ff, handoff 0x000003ff: 2 command, "
        + "4 read, 4 write data ports, up to 256 bits)";
    private static final String PORT_RESET = "FPGA-to-SDRAM port in reset (fpgaportrst 0x00000000, handoff 0x000003ff: 2 command, "
        + "4 read, 4 write data ports held): the fpga2sdram bridge is not enabled; DMA cannot complete";

    /** A DE10-Nano's sysfs under root: its device tree with the overlay's node, and fpgamr.ko loaded unless states is null. */
    private static Path board(Path root, String... states) throws Exception {
        Path base = Files.createDirectories(root.resolve("sys/firmware/devicetree/base"));
        Files.write(base.resolve("compatible"), "terasic,de10-nano\0altr,socfpga-cyclone5\0altr,socfpga\0".getBytes(StandardCharsets.US_ASCII));
        Path node = Files.createDirectories(base.resolve("soc/base-fpga-region/md5acc@ff200000"));
        Files.write(node.resolve("compatible"), "fpgamr,md5-accel-1.0\0".getBytes(StandardCharsets.US_ASCII));
        if (states.length > 0) {
            Path module = Files.createDirectories(root.resolve("sys/module/fpgamr"));
            Files.writeString(module.resolve("initstate"), "live\n");
            Files.writeString(module.resolve("version"), "1.0.0\n");
            Path driver = Files.createDirectories(root.resolve("sys/bus/platform/drivers/fpgamr-md5"));
            Files.writeString(driver.resolve("fpga_manager"), states[0] + "\n");
            Files.writeString(driver.resolve("lw_bridge"), states[1] + "\n");
            Files.writeString(driver.resolve("fpga2sdram"), states[2] + "\n");
        }
        return root;
    }

    /** The device's and board's lines of a bare doctor on root (YARN n/a, the exporter alive: their lines dropped). */
    private Result bare(Path root, NodeExporter e) {
        Result r = run("--sysfs-root", root.toString(), "--exporter", "127.0.0.1:" + e.port());
        assertTrue(r.out().get(r.out().size() - 2).startsWith("n/a: yarn: "), String.join("\n", r.out()));
        assertTrue(r.out().get(r.out().size() - 1).startsWith("ok: exporter: "), String.join("\n", r.out()));
        return new Result(r.code(), r.out().subList(0, r.out().size() - 2), r.err());
    }

    @Test
    void aBareDoctorOffACycloneVSocFindsNoAccelerator() throws Exception {
        try (NodeExporter e = exporter()) {
            Result r = bare(Files.createDirectories(tmp.resolve("x86/sys/class")).getParent().getParent(), e);
            assertEquals(0, r.code(), String.join("\n", r.out()));
            assertEquals(List.of("n/a: device: no FPGA accelerator on this node (no /sys/class/uio/uioN named fpgamr-md5, and not a Cyclone V "
                + "SoC: the device tree's root is not compatible with \"altr,socfpga-cyclone5\"); name one with --device SPEC"), r.out());
        }
    }

    @Test
    void aBareDoctorOnAde10NanoFailsEachBrokenLayerSayingWhatToDo() throws Exception {
        String sys = tmp.resolve("de10/sys").toString();
        String node = "ok: devicetree: node /soc/base-fpga-region/md5acc@ff200000, compatible \"fpgamr,md5-accel-1.0\"";
        String driver = sys + "/bus/platform/drivers/fpgamr-md5";
        try (NodeExporter e = exporter()) {
            Result noModule = bare(board(tmp.resolve("de10")), e);
            assertEquals(1, noModule.code());
            assertEquals(List.of("FAIL: module: fpgamr.ko is not loaded (no " + sys + "/module/fpgamr): load it with 'modprobe fpgamr' "
                + "(kernel/README.md, \"Load it on a node\")",
                "skip: fpga: not read: fpgamr.ko is not loaded, and the kernel has no entry in /sys/class/fpga_manager",
                "skip: bridge: not read: fpgamr.ko is not loaded, and the kernel has no lwhps2fpga in /sys/class/fpga_bridge",
                "skip: port: not read: fpgamr.ko, which reads the SDRAM controller, is not loaded", node,
                "skip: device: not checked: the module is not loaded"), noModule.out());

            Result unprogrammed = bare(board(tmp.resolve("de10"), UNPROGRAMMED, LW_RESET, PORT_RESET), e);
            assertEquals(1, unprogrammed.code());
            assertEquals(List.of("ok: module: fpgamr.ko loaded (version 1.0.0)", "FAIL: fpga: " + UNPROGRAMMED, "FAIL: bridge: " + LW_RESET,
                "FAIL: port: " + PORT_RESET + " (hdl/README.md, On a DE10-Nano)", node,
                "skip: device: not checked: fpgamr.ko does not bind the accelerator while the FPGA or its bridge is not ready"),
                unprogrammed.out());

            Result bridge = bare(board(tmp.resolve("de10"), USER_MODE, LW_RESET, PORT_ENABLED), e);
            assertEquals(1, bridge.code());
            assertEquals(List.of("ok: fpga: " + USER_MODE, "FAIL: bridge: " + LW_RESET, "ok: port: " + PORT_ENABLED),
                bridge.out().subList(1, 4));

            Result port = bare(board(tmp.resolve("de10"), USER_MODE, LW_OUT, PORT_RESET), e);
            assertEquals(1, port.code());
            assertEquals(List.of("ok: fpga: " + USER_MODE, "ok: bridge: " + LW_OUT, "FAIL: port: " + PORT_RESET
                + " (hdl/README.md, On a DE10-Nano)"), port.out().subList(1, 4));

            Result unbound = bare(board(tmp.resolve("de10"), USER_MODE, LW_OUT, PORT_ENABLED), e);
            assertEquals(1, unbound.code());
            assertEquals("FAIL: device: the accelerator's node is not bound to fpgamr.ko (no device in " + driver + "): its probe refused "
                + "it; 'dmesg | grep fpgamr' says why", unbound.out().get(5));
            assertEquals(1, unbound.out().stream().filter(l -> l.startsWith("FAIL: ")).count(), String.join("\n", unbound.out()));
        }
    }

    @Test
    void badArgumentsAreUsageErrors() {
        for (String[] args : List.of(new String[] {"--device", "pcie:0"}, new String[] {"--device", "vsim:pipelines=4,fault=melt@1"},
            new String[] {"--exporter", "nowhere"}, new String[] {"--values", "0"}, new String[] {"--bogus"}, new String[] {"--device"},
            new String[] {"--sysfs-root", tmp.resolve("nowhere").toString()})) {
            Result r = run(args);
            assertEquals(2, r.code(), String.join(" ", args));
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("fpgamr: doctor: "), r.err());
            assertFalse(r.err().contains("\tat "));
            assertEquals(List.of(), r.out());
        }
    }

    @Test
    void theFirstAcceleratorIsTheFirstPlatformDeviceNamedFpgamrMd5() throws Exception {
        Path sys = tmp.resolve("sys");
        for (String[] u : new String[][] {{"uio0", "serial", "ff100000.uart"}, {"uio1", "fpgamr-md5", "ff300000.md5acc"},
            {"uio2", "fpgamr-md5", "ff200000.md5acc"}}) {
            Path dev = Files.createDirectories(sys.resolve("devices/platform").resolve(u[2]));
            Path dir = Files.createDirectories(sys.resolve("class/uio").resolve(u[0]));
            Files.writeString(dir.resolve("name"), u[1] + "\n");
            Files.createSymbolicLink(dir.resolve("device"), dev);
        }
        assertEquals("/dev/uio2", Doctor.firstAccelerator(sys).orElseThrow());
        assertTrue(Doctor.firstAccelerator(tmp.resolve("empty")).isEmpty());
    }
}
