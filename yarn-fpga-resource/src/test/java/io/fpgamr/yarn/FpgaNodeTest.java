package io.fpgamr.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.TargetSet;
import io.fpgamr.accel.design.DesignPackage;
import io.fpgamr.accel.design.FpgaContainer;
import io.fpgamr.accel.fpga.DeviceSpec;
import io.fpgamr.accel.fpga.FpgaDeviceException;
import io.fpgamr.accel.fpga.FpgaEngine;
import io.fpgamr.accel.fpga.RegisterMap;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.Device;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The device registry on real files: a vsim state directory, and a sysfs tree laid out as kernel/fpgamr.ko makes it. */
class FpgaNodeTest {
    @TempDir
    Path tmp;

    private Configuration conf(int vsim) {
        Configuration c = new Configuration(false);
        c.set(FpgaConf.STATE_DIR, tmp.resolve("state").toString());
        c.setInt(FpgaConf.VSIM_DEVICES, vsim);
        c.set(FpgaConf.SYSFS_ROOT, tmp.resolve("sys").toString());
        c.set(FpgaConf.DEV_ROOT, tmp.resolve("dev").toString());
        c.setLong(FpgaConf.RECOVERY_MS, 0);
        c.set(FpgaConf.VSIM_BOOT_MODEL, tmp.resolve("own/libfpgamr-vsim-p4.so").toString());
        return c;
    }

    /** The node's own model library (a file the NodeManager's installation would hold), for {@link FpgaConf#VSIM_BOOT_MODEL}. */
    private void ownModel() throws IOException {
        Files.writeString(Files.createDirectories(tmp.resolve("own")).resolve("libfpgamr-vsim-p4.so"), "the node's own model");
    }

    private DesignPackage vsimDesign(int pipelines, String content) throws IOException {
        Path lib = tmp.resolve("lib" + pipelines + "-" + content.hashCode()).resolve("libfpgamr-vsim-p" + pipelines + ".so");
        Files.createDirectories(lib.getParent());
        Files.writeString(lib, content);
        return DesignPackage.createVsim(tmp.resolve("design-p" + pipelines + "-" + content.hashCode() + ".zip"), pipelines, lib);
    }

    private static List<String> events(Accelerator a, String event) throws IOException {
        Path log = a.stateDir.resolve(Accelerator.LOG_FILE);
        return Files.readAllLines(log).stream().filter(l -> l.split("\t")[1].equals(event)).toList();
    }

    private static Map<String, String> env(String container, DesignPackage d) {
        return d == null ? Map.of("CONTAINER_ID", container)
            : Map.of("CONTAINER_ID", container, FpgaContainer.DESIGN_SHA256_ENV, d.sha256());
    }

    private static Set<Integer> ids(Set<Device> devices) {
        return devices.stream().map(Device::getId).collect(Collectors.toSet());
    }

    /** Allocates and prepares as the executor does; returns the device id. */
    private static int run(FpgaNode node, String container, DesignPackage d) throws IOException {
        Set<Device> free = node.yarnDevices().stream().filter(x -> node.byId(x.getId()).holder() == null).collect(Collectors.toSet());
        Set<Device> got = node.allocate(free, 1, env(container, d));
        assertEquals(1, got.size(), "a device for " + container);
        Accelerator a = node.byId(got.iterator().next().getId());
        node.prepare(a, d, container);
        return a.id;
    }

    @Test
    void aNodeWhoseContainersAreArmhfLoadsTheArmhfModelAndRefusesAnother() throws Exception {
        Configuration c = conf(2); // (the device the refused load was tried on is out for a while)
        c.set(FpgaConf.CONTAINER_PLATFORM, "linux-armhf");
        FpgaNode node = FpgaNode.discover(c);
        Path lib = Files.createDirectories(tmp.resolve("armhf")).resolve("libfpgamr-vsim-p4.so");
        Files.writeString(lib, "the armhf model");
        DesignPackage armhf = DesignPackage.createVsim(tmp.resolve("armhf.zip"), 4, lib, "linux-armhf");
        DesignPackage host = vsimDesign(4, "the host's model");
        IOException e = assertThrows(IOException.class, () -> run(node, "c1", host));
        assertTrue(e.getMessage().endsWith(host.describe() + " is a model for " + io.fpgamr.accel.NativeArtifacts.platform()
            + ", this node's containers are linux-armhf"), e.getMessage());
        node.release("c1", "not started");
        int got = run(node, "c2", armhf);
        assertEquals("the armhf model", Files.readString(node.byId(got).stateDir.resolve("model.so")));
    }

    @Test
    void aDesignIsLoadedOnlyWhenTheDeviceHoldsAnother() throws Exception {
        FpgaNode node = FpgaNode.discover(conf(2));
        DesignPackage p4 = vsimDesign(4, "model with four pipelines");
        DesignPackage p1 = vsimDesign(1, "model with one pipeline");

        int a = run(node, "c1", p4);
        assertEquals(0, a, "blank devices by id");
        Accelerator dev0 = node.byId(0);
        assertEquals(p4.sha256(), dev0.loaded().sha256());
        assertEquals("vsim:pipelines=4,lib=" + dev0.stateDir.resolve("model.so") + ",lock=" + dev0.stateDir.resolve("lock")
            + ",state=" + dev0.stateDir.resolve("state"), dev0.spec());
        assertEquals("idle\n", Files.readString(dev0.stateDir.resolve("state")), "a loaded model is idle");
        assertEquals("model with four pipelines", Files.readString(dev0.stateDir.resolve("model.so")));
        int b = run(node, "c2", p1);
        assertEquals(1, b, "vsim0 is held: the other one");
        node.release("c1", "exited");
        node.release("c2", "exited");

        assertEquals(0, run(node, "c3", p4), "the device already holding the design");
        assertEquals(1, run(node, "c4", p1), "the device already holding the design");
        node.release("c3", "exited");
        node.release("c4", "exited");
        assertEquals(1, run(node, "c5", p1));
        assertEquals(0, run(node, "c6", p1), "nothing holds it free: a switch");
        node.release("c5", "exited");
        node.release("c6", "exited");

        assertEquals(2, events(node.byId(0), "load").size(), "vsim0: p4, then p1");
        assertEquals(1, events(node.byId(1), "load").size(), "vsim1: p1 only");
        for (Accelerator d : node.devices()) {
            for (String line : events(d, "assign")) {
                String want = line.replaceAll(".*\twant=([^\t]*).*", "$1");
                String holds = line.replaceAll(".*\tholds=([^\t]*).*", "$1");
                assertEquals(want, holds, line);
            }
        }
        assertEquals("model with one pipeline", Files.readString(node.byId(0).stateDir.resolve("model.so")));

        FpgaNode again = FpgaNode.discover(conf(2));
        assertEquals(p1.sha256(), again.byId(0).loaded().sha256(), "what is loaded survives a restart");
    }

    @Test
    void aChangedModelIsADesignMismatchAndTheDeviceRecoversWithItsDesign() throws Exception {
        FpgaNode node = FpgaNode.discover(conf(2));
        DesignPackage p4 = vsimDesign(4, "the p4 model");
        run(node, "c1", p4);
        node.release("c1", "exited");
        Accelerator dev0 = node.byId(0);
        Path model = dev0.stateDir.resolve("model.so");
        Path other = tmp.resolve("other.so");
        Files.writeString(other, "some other design's model");
        Files.move(other, model, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        dev0.check(node.designs(), 60_000);
        assertFalse(dev0.healthy());
        assertTrue(dev0.problem().startsWith("design id mismatch"), dev0.problem());
        assertEquals(1, node.healthyCount());
        assertFalse(node.yarnDevices().stream().filter(d -> d.getId() == 0).findFirst().orElseThrow().isHealthy());
        assertEquals(1, run(node, "c2", p4), "an unhealthy device gets no container");
        node.release("c2", "exited");

        dev0.check(node.designs(), 0);
        assertFalse(dev0.healthy(), "not before its recovery time");
        node.byId(0).markUnhealthy(dev0.problem(), 0);
        dev0.check(node.designs(), 0);
        assertTrue(dev0.healthy(), "reloaded from the node's copy of the design");
        assertEquals("the p4 model", Files.readString(model));
        assertEquals(1, events(dev0, "unhealthy").size());
        assertEquals(1, events(dev0, "healthy").size());
    }

    @Test
    void aFaultReportTakesTheDeviceOutAndDeviceOptionsReachTheSpec() throws Exception {
        FpgaNode node = FpgaNode.discover(conf(1));
        DesignPackage p1 = vsimDesign(1, "p1");
        run(node, "c1", p1);
        Accelerator dev0 = node.byId(0);
        Files.writeString(dev0.stateDir.resolve(VsimAccelerator.OPTIONS), "timeout_ms=1\n");
        assertEquals("1", DeviceSpec.parse(dev0.spec()).option(DeviceSpec.Option.TIMEOUT_MS).orElseThrow(), dev0.spec());
        Files.writeString(dev0.stateDir.resolve(VsimAccelerator.OPTIONS), "timeout=1\n");
        IOException bad = assertThrows(IOException.class, dev0::spec);
        assertTrue(bad.getMessage().contains("unknown device option 'timeout'"), bad.getMessage());
        Files.delete(dev0.stateDir.resolve(VsimAccelerator.OPTIONS));
        node.fault("c1", "fpgamr_search_range: timed out");
        node.release("c1", "exited");
        assertFalse(dev0.healthy());
        assertEquals(0, node.healthyCount());
        assertTrue(node.allocate(node.yarnDevices(), 1, env("c2", p1)).isEmpty());
        assertEquals("container c1 reported: fpgamr_search_range: timed out", dev0.problem());
    }

    /**
     * The whole path of a device fault on this node, with the real simulated device: a task's
     * engine fails on an injected DMA error or hang, the task reports it as EngineMapper does,
     * the node reads the report when the container ends and takes the device out (not offered,
     * no container, nothing lent) until its recovery time, when it is reloaded, checked and works.
     */
    @Test
    void anInjectedDmaErrorOrHangTakesTheDeviceOutUntilItRecovers() throws Exception {
        Configuration c = conf(2);
        c.setLong(FpgaConf.RECOVERY_MS, 60_000);
        FpgaNode node = FpgaNode.discover(c);
        DesignPackage p1 = DesignPackage.createVsim(tmp.resolve("p1.zip"), 1, FpgaEngine.packagedModel(1));
        String target = "096822475dd517c1089f4b58c7f346ef"; // MD5 of 0x123 in 4 bytes
        Map<String, String> faults = Map.of("c1", "fault=dma_error@1", "c2", "timeout_ms=300,fault=hang@2");
        for (String cid : List.of("c1", "c2")) {
            Accelerator a = node.byId(run(node, cid, p1));
            Files.writeString(a.stateDir.resolve(VsimAccelerator.OPTIONS), faults.get(cid) + "\n");
            Map<String, String> env = Map.of(FpgaContainer.DEVICE_ENV, a.spec());
            Path workDir = Files.createDirectories(tmp.resolve("work-" + cid));
            try (Md5Engine e = Engines.open(EngineSpec.fpga(null).inContainer(env), 1)) {
                FpgaDeviceException x = assertThrows(FpgaDeviceException.class,
                    () -> e.searchRange(0, 1 << 19, 4, TargetSet.of(target)));
                FpgaContainer.reportFault(workDir, env, x);
            }
            assertTrue(node.faultReported(cid, workDir));
            node.release(cid, "exited");
        }
        assertTrue(node.byId(0).problem().contains("read response error") || node.byId(0).problem().contains("write response error"),
            node.byId(0).problem());
        assertTrue(node.byId(1).problem().contains("no interrupt within 300 ms"), node.byId(1).problem());
        assertEquals(0, node.healthyCount(), "neither is offered");
        assertTrue(node.yarnDevices().stream().noneMatch(Device::isHealthy));
        assertTrue(node.allocate(node.yarnDevices(), 1, env("c3", p1)).isEmpty(), "no container");
        assertNull(node.lend(node.yarnDevices(), "c4", p1.sha256()), "nothing lent");
        node.checkAll();
        assertEquals(0, node.healthyCount(), "not before the recovery time");

        for (Accelerator a : node.devices()) {
            Files.delete(a.stateDir.resolve(VsimAccelerator.OPTIONS));
            a.markUnhealthy(a.problem(), 0); // its recovery time has come
        }
        node.checkAll();
        assertEquals(2, node.healthyCount(), "reloaded with their design and checked");
        Accelerator back = node.byId(run(node, "c5", p1));
        try (Md5Engine e = Engines.open(EngineSpec.fpga(DeviceSpec.parse(back.spec())), 1)) {
            assertEquals(1, e.searchRange(0, 1 << 19, 4, TargetSet.of(target)).length);
        }
        for (Accelerator a : node.devices()) {
            assertEquals(1, events(a, "fault").size());
            assertEquals(1, events(a, "healthy").size());
        }
        assertFalse(node.faultReported("c5", Files.createDirectories(tmp.resolve("work-c5"))), "no report, no fault");
    }

    @Test
    void aContainerThatNamesNoDesignGetsTheNodesOwnModelNeverAPreviousJobs() throws Exception {
        FpgaNode without = FpgaNode.discover(conf(2));
        assertTrue(without.allocate(without.yarnDevices(), 1, env("c0", null)).isEmpty(),
            "a node with no model of its own gives a container that names no design no simulated device");
        assertEquals("vsim0: the container named no design (FPGAMR_DESIGN) and this node has no simulated design of its own "
            + "(fpgamr.fpga.vsim.boot-model) to give it instead of a job's",
            assertThrows(IOException.class, () -> without.prepare(without.byId(0), null, "c0")).getMessage());

        ownModel();
        FpgaNode node = FpgaNode.discover(conf(2));
        DesignPackage jobs = vsimDesign(4, "a job's model");
        assertEquals(0, run(node, "c1", jobs));
        assertEquals("a job's model", Files.readString(node.byId(0).stateDir.resolve("model.so")));
        node.release("c1", "exited");

        assertEquals(1, run(node, "c2", null), "the blank device before the one holding a job's model");
        assertEquals("the node's own model", Files.readString(node.byId(1).stateDir.resolve("model.so")));
        assertEquals(0, run(node, "c3", null), "vsim1 is held: the one a job's model is on");
        assertEquals("the node's own model", Files.readString(node.byId(0).stateDir.resolve("model.so")), "reset, not the job's");
        String boot = node.byId(0).loaded().sha256();
        assertEquals(boot, node.byId(1).loaded().sha256());
        List<String> loads = events(node.byId(0), "load");
        assertEquals(2, loads.size(), String.valueOf(loads));
        assertTrue(loads.get(1).contains("\tsha256=" + boot + "\t") && loads.get(1).contains("\tcontainer=c3\t")
            && loads.get(1).endsWith("\treplaces=" + jobs.sha256()), loads.get(1));
        assertTrue(events(node.byId(0), "assign").get(1).contains("\twant=-\tholds=" + boot + "\t"));
        node.release("c2", "exited");
        node.release("c3", "exited");

        assertEquals(Set.of(1), ids(node.allocate(node.yarnDevices(), 1, env("c4", null))), "both on the node's own model: the "
            + "least recently used");
        node.prepare(node.byId(1), null, "c4");
        assertEquals(1, events(node.byId(1), "load").size(), "on the node's own model already: no load");
        node.release("c4", "exited");

        node.waiting(1);
        assertNull(node.lend(node.yarnDevices(), "c5", jobs.sha256()), "a container that asked for FPGAs is waiting");
        node.waiting(-1);
        Accelerator lent = node.lend(node.yarnDevices(), "c5", null);
        assertEquals(boot, lent.loaded().sha256(), "lent, on the node's own model");
        assertTrue(node.isLent("c5"));
        assertNull(node.lend(Set.of(lent.yarnDevice()), "c6", null), "held already");
    }

    // ---- real accelerators: a sysfs tree as kernel/fpgamr.ko makes it

    private Path platformDevice(String name, String designId) throws IOException {
        Path dev = tmp.resolve("sys/devices/platform/soc").resolve(name);
        Files.createDirectories(dev);
        Files.writeString(dev.resolve("design_id"), designId + "\n");
        Files.writeString(dev.resolve("regmap_version"), String.format("0x%08x%n", RegisterMap.current().version()));
        Files.writeString(dev.resolve("coherent"), "0\n");
        Files.writeString(dev.resolve("buffers_in_use"), "0\n");
        Files.writeString(dev.resolve("bytes_in_use"), "0\n");
        return dev;
    }

    private void uio(int n, String name, Path platformDevice, int minor) throws IOException {
        Path u = tmp.resolve("sys/class/uio/uio" + n);
        Files.createDirectories(u);
        Files.writeString(u.resolve("name"), name + "\n");
        Files.writeString(u.resolve("dev"), "243:" + minor + "\n");
        Files.createSymbolicLink(u.resolve("device"), u.relativize(platformDevice));
        Files.createDirectories(tmp.resolve("dev"));
        Files.writeString(tmp.resolve("dev/uio" + n), "");
        Files.writeString(platformDevice.resolve("uio_dev"), "uio" + n + "\n");
        Files.writeString(platformDevice.resolve("dma_dev"), "fpgamr-dma" + n + "\n");
    }

    /** What sysfs shows of a kernel that can load designs at run time: an FPGA manager and configfs's device-tree overlays. */
    private void runtimeLoadKernel() throws IOException {
        Files.createDirectories(tmp.resolve("sys/class/fpga_manager/fpga0"));
        Files.createDirectories(tmp.resolve("sys/kernel/config/device-tree/overlays"));
    }

    @Test
    void realAcceleratorsAreFoundInSysfsAndCheckedByTheirDesignId() throws Exception {
        Path a = platformDevice("ff200000.md5acc", "0x4d443541");
        Path b = platformDevice("ff210000.md5acc", "0xdeadbeef");
        uio(0, "fpgamr-md5", a, 0);
        uio(1, "some-other-uio", platformDevice("ff300000.other", "0x4d443541"), 1);
        uio(2, "fpgamr-md5", b, 2);

        FpgaNode node = FpgaNode.discover(conf(1));
        assertEquals(3, node.devices().size(), "one simulated, two real");
        Accelerator hw0 = node.byId(1);
        Accelerator hw1 = node.byId(2);
        assertEquals("ff200000.md5acc", hw0.name);
        assertEquals("uio", hw0.kind());
        assertEquals("uio:" + tmp.resolve("dev/uio0"), hw0.spec());
        Device d = hw0.yarnDevice();
        assertEquals(tmp.resolve("dev/uio0").toString(), d.getDevPath());
        assertEquals(243, d.getMajorNumber());
        assertEquals(0, d.getMinorNumber());
        assertTrue(hw0.healthy());
        assertEquals("design id mismatch: ff210000.md5acc answers 0xdeadbeef, expected 0x4d443541", hw1.problem());
        assertEquals(2, node.healthyCount());

        Files.delete(tmp.resolve("sys/class/uio/uio0/device"));
        hw0.check(node.designs(), 60_000);
        assertTrue(hw0.problem().startsWith("no fpgamr-md5 UIO device for ff200000.md5acc"), hw0.problem());
    }

    /**
     * The health check on what the real module presents: the sysfs entries and identity registers
     * that kernel/'s ARM guest recorded from fpgamr.ko bound to the Verilated RTL
     * (test/boottest.sh fails when the guest's differ from this copy), laid out as sysfs has them;
     * then the same device answering an older register map is unhealthy.
     */
    @Test
    void theHealthCheckPassesOnWhatTheRealModulePresents() throws Exception {
        Map<String, String> rec = new LinkedHashMap<>();
        try (InputStream in = getClass().getResourceAsStream("armhf-guest-sysfs.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                int eq = line.indexOf('=');
                rec.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        RegisterMap map = RegisterMap.current();
        assertEquals(map.designId(), rec.get("reg/DESIGN_ID"), "the RTL's DESIGN_ID");
        assertEquals(String.format("0x%08x", map.version()), rec.get("reg/REGMAP_VERSION"), "the RTL's register map");
        assertEquals(rec.get("reg/REGMAP_VERSION"), rec.get("device/regmap_version"), "the module read it at probe");
        assertEquals(String.valueOf(map.userPageBytes()), String.valueOf(Long.decode(rec.get("uio/maps/map0/size"))),
            "UIO maps the user page only");

        Path dev = tmp.resolve("sys/devices/platform").resolve(rec.get("platform"));
        String uio = rec.get("device/uio_dev");
        Path u = tmp.resolve("sys/class/uio").resolve(uio);
        for (Map.Entry<String, String> e : rec.entrySet()) {
            Path f = e.getKey().startsWith("device/") ? dev.resolve(e.getKey().substring(7))
                : e.getKey().startsWith("uio/") ? u.resolve(e.getKey().substring(4)) : null;
            if (f != null) {
                Files.createDirectories(f.getParent());
                Files.writeString(f, e.getValue() + "\n");
            }
        }
        Files.createSymbolicLink(u.resolve("device"), u.relativize(dev));
        Files.createDirectories(tmp.resolve("dev"));
        Files.writeString(tmp.resolve("dev").resolve(uio), "");

        FpgaNode node = FpgaNode.discover(conf(0));
        Accelerator hw = node.byId(0);
        assertEquals(rec.get("platform"), hw.name);
        assertTrue(hw.healthy(), "the real module's device is healthy: " + hw.problem());
        String[] mm = rec.get("uio/dev").split(":");
        assertEquals(Integer.parseInt(mm[0]), hw.yarnDevice().getMajorNumber());
        assertEquals(Integer.parseInt(mm[1]), hw.yarnDevice().getMinorNumber());

        // the module's `state`: a device that did not stop a job leaves the offer, and comes back
        // when the module says idle again (probed again: the FPGA reprogrammed, or the module reloaded)
        String wedged = "wedged: the device did not stop its job within 5000 ms (JOBS_STARTED 0x00000007 of 0x00000007, STATUS 0x00000011)";
        Files.writeString(dev.resolve("state"), wedged + "\n");
        hw.check(node.designs(), 0);
        assertEquals(wedged, hw.problem());
        assertEquals(0, node.healthyCount(), "not offered");
        assertFalse(hw.yarnDevice().isHealthy());
        Files.writeString(dev.resolve("state"), "idle\n");
        hw.check(node.designs(), 0);
        assertTrue(hw.healthy(), "idle again: back in the offer");
        assertEquals(1, events(hw, "unhealthy").size());
        assertEquals(1, events(hw, "healthy").size());

        Files.writeString(dev.resolve("regmap_version"), "0x00020000\n");
        hw.check(node.designs(), 60_000);
        assertEquals("register map version 0x00020000 of " + rec.get("platform") + " is not " + map.major() + "." + map.minor() + " or a later " + map.major() + ".x",
            hw.problem());
    }

    /**
     * A hardware design goes through the real privileged loader ({@link LoaderFixture}): staged,
     * checked against the allowlist, loaded onto the device the plugin names, never over the boot
     * design; the same design is not loaded twice; one not on the allowlist is refused with the
     * device still on its design; a design whose DESIGN_ID does not come back leaves the device
     * unhealthy with the reason; and a device reprogrammed behind the NodeManager's back (here the
     * boot overlay applied again) is found before the next container gets it and loaded again.
     */
    @Test
    void aHardwareDesignIsLoadedThroughThePrivilegedLoaderAndCheckedBeforeEachUse() throws Exception {
        Path a = platformDevice("ff200000.md5acc", "0x4d443541");
        uio(0, "fpgamr-md5", a, 0);
        uio(1, "fpgamr-md5", platformDevice("ff210000.md5acc", "0x4d443541"), 1);
        runtimeLoadKernel();
        try (LoaderFixture loader = new LoaderFixture(tmp.resolve("node"), a.getParent())) {
            Configuration c = loader.configure(conf(0));
            c.setLong(FpgaConf.PROGRAM_TIMEOUT_MS, 2000);
            FpgaNode node = FpgaNode.discover(c);
            Path rbf = Files.writeString(tmp.resolve(LoaderFixture.BOOT_RBF), "rbf bits"); // named as the boot design
            Path dtbo = LoaderFixture.overlay(tmp.resolve("fpgamr-md5acc.dtbo"));
            DesignPackage hw = DesignPackage.createRbf(tmp.resolve("hw.zip"), "md5acc-de10-p4", 4, "0x4d443541", rbf, dtbo);
            loader.trust(rbf, dtbo);

            assertEquals(0, run(node, "c1", hw));
            Accelerator dev = node.byId(0);
            String rbfSha = DesignPackage.sha256(rbf);
            String applied = rbfSha + " " + DesignPackage.sha256(dtbo);
            assertEquals(applied, dev.loaded().firmware());
            assertEquals(applied, loader.client().holds("ff200000.md5acc"));
            assertEquals(List.of("fpgamr-loaded/" + rbfSha + ".rbf", "fpgamr-loaded/ff200000.md5acc.dtbo"), loader.loadedFiles());
            assertEquals("rbf bits", Files.readString(loader.firmware.resolve("fpgamr-loaded/" + rbfSha + ".rbf")));
            assertEquals("fpgamr-loaded/" + rbfSha + ".rbf", LoaderFixture.firmwareName(loader.firmware.resolve("fpgamr-loaded/ff200000.md5acc.dtbo")));
            assertEquals(LoaderFixture.BOOT_BITS, Files.readString(loader.firmware.resolve(LoaderFixture.BOOT_RBF)), "the boot design is never written");
            assertEquals("fpgamr-loaded/ff200000.md5acc.dtbo", Files.readString(loader.overlays.resolve("fpgamr-ff200000.md5acc/path")).strip());
            try (var s = Files.list(loader.staging)) {
                assertEquals(0, s.count(), "the staged files are gone");
            }
            node.release("c1", "exited");
            assertEquals(0, run(node, "c2", hw));
            node.release("c2", "exited");
            assertEquals(1, events(dev, "load").size(), "same design: no second load");

            Path otherRbf = Files.writeString(tmp.resolve("other.rbf"), "bits nobody trusted");
            DesignPackage other = DesignPackage.createRbf(tmp.resolve("other.zip"), "md5acc-de10-p8", 8, "0x4d443541", otherRbf, dtbo);
            assertEquals(1, node.allocate(Set.of(dev.yarnDevice()), 1, env("c3", other)).size());
            IOException refused = assertThrows(IOException.class, () -> node.prepare(dev, other, "c3"));
            String staged = "[0-9a-f]{12}-\\d+/" + otherRbf.getFileName();
            assertTrue(refused.getMessage().matches(Pattern.quote("ff200000.md5acc: loading " + other.describe()
                + " failed: the design loader refused loading " + other.describe() + ": ") + staged + Pattern.quote(" (sha256 "
                + DesignPackage.sha256(otherRbf) + ") is not on the allowlist " + loader.allowlist + " (the device is back on md5acc-de10-p4)")),
                refused.getMessage());
            assertTrue(dev.healthy());
            assertEquals(hw.sha256(), dev.loaded().sha256());
            node.release("c3", "exited");

            loader.trust(otherRbf);
            DesignPackage wrongId = DesignPackage.createRbf(tmp.resolve("wrong-id.zip"), "other-accelerator", 4, "0x12345678", otherRbf, dtbo);
            Accelerator dev1 = node.byId(1);
            assertEquals(1, node.allocate(Set.of(dev1.yarnDevice()), 1, env("c4", wrongId)).size());
            IOException badId = assertThrows(IOException.class, () -> node.prepare(dev1, wrongId, "c4"));
            assertTrue(badId.getMessage().contains("design id mismatch after loading: ff210000.md5acc answers 0x4d443541, expected 0x12345678"),
                badId.getMessage());
            assertFalse(dev1.healthy());
            assertTrue(dev1.problem().startsWith("loading " + wrongId.describe() + " failed: design id mismatch"), dev1.problem());
            assertNull(dev1.loaded(), "after a failed load with nothing to go back to, the contents are unknown");
            node.release("c4", "exited");

            // Behind the NodeManager's back: the boot overlay is applied again in place of the loaded one.
            Files.delete(loader.overlays.resolve("fpgamr-ff200000.md5acc/path"));
            Files.delete(loader.overlays.resolve("fpgamr-ff200000.md5acc"));
            Files.createDirectories(loader.overlays.resolve("fpgamr"));
            assertEquals("boot", loader.client().holds("ff200000.md5acc"));
            assertEquals(0, run(node, "c5", hw));
            node.release("c5", "exited");
            List<String> mismatch = events(dev, "mismatch");
            assertEquals(1, mismatch.size());
            assertTrue(mismatch.get(0).endsWith("reason=the device holds firmware boot, not md5acc-de10-p4's (" + applied + ")"), mismatch.get(0));
            assertEquals(2, events(dev, "load").size(), "loaded again before the container got it");
            assertEquals(applied, loader.client().holds("ff200000.md5acc"));
        }
    }

    /**
     * Debian's stock armmp kernel (no FPGA manager, no overlays): the design the boot loaded
     * (U-Boot's boot.scr, from the boot partition's .rbf) is the only one. A container that needs it
     * runs, and one that names none; one that needs another design is refused in one line naming
     * both and what to do, before the device is touched (no loader is asked: its socket does not
     * exist), and the device stays healthy on the boot design.
     */
    @Test
    void onAKernelWithoutAnFpgaManagerTheBootDesignRunsAndAnotherIsRefusedInOneLine() throws Exception {
        Path a = platformDevice("ff200000.md5acc", "0x4d443541");
        uio(0, "fpgamr-md5", a, 0);
        Files.createDirectories(tmp.resolve("sys/kernel/config/device-tree/overlays")); // configfs, but no FPGA manager
        Path bootRbf = Files.writeString(Files.createDirectories(tmp.resolve("boot/firmware")).resolve("fpgamr-md5acc.rbf"),
            "the bits U-Boot loaded");
        Configuration c = conf(0);
        c.set(FpgaConf.BOOT_RBF, bootRbf.toString());
        c.set(FpgaConf.LOADER_SOCKET, tmp.resolve("no-loader.sock").toString());
        Files.createDirectories(tmp.resolve("state/ff200000.md5acc"));
        Files.writeString(tmp.resolve("state/ff200000.md5acc/" + Accelerator.DESIGN_FILE),
            "sha256=" + "ab".repeat(32) + "\nname=from-an-older-boot\nkind=rbf\npipelines=4\ndesign_id=0x4d443541\n");
        FpgaNode node = FpgaNode.discover(c);
        Accelerator dev = node.byId(0);
        assertNull(dev.loaded(), "a record from before this boot is dropped: the device holds what the boot loaded");
        assertEquals(dev, node.lend(Set.of(dev.yarnDevice()), "c0", null), "the boot design is lent to an auto container naming none");
        node.prepare(dev, null, "c0");
        node.release("c0", "exited");

        Path dtbo = Files.writeString(tmp.resolve("fpgamr-md5acc.dtbo"), "an overlay (unused on this kernel)");
        Path sameBits = Files.writeString(Files.createDirectories(tmp.resolve("job")).resolve("fpgamr-md5acc.rbf"), "the bits U-Boot loaded");
        DesignPackage boot = DesignPackage.createRbf(tmp.resolve("boot.zip"), "md5acc-de10-p4", 4, "0x4d443541", sameBits, dtbo);
        assertEquals(0, run(node, "c1", boot));
        assertTrue(dev.healthy(), dev.problem());
        assertEquals(boot.sha256(), dev.loaded().sha256());
        assertEquals(1, events(dev, "boot-design").size());
        node.release("c1", "exited");
        assertEquals(0, run(node, "c2", null), "a container that names no design runs on the boot design");
        node.release("c2", "exited");

        Path p8 = Files.writeString(tmp.resolve("md5acc-p8.rbf"), "another design's bits");
        DesignPackage other = DesignPackage.createRbf(tmp.resolve("p8.zip"), "md5acc-de10-p8", 8, "0x4d443541", p8, dtbo);
        assertEquals(1, node.allocate(Set.of(dev.yarnDevice()), 1, env("c3", other)).size());
        IOException refused = assertThrows(IOException.class, () -> node.prepare(dev, other, "c3"));
        assertEquals("ff200000.md5acc loads designs only at boot (this kernel has no FPGA manager: " + tmp.resolve("sys/class/fpga_manager")
            + " is missing or empty): the container needs md5acc-de10-p8 (rbf, 8 pipelines, sha256 " + other.sha256().substring(0, 12)
            + "), the FPGA holds the boot design " + bootRbf + " (sha256 " + DesignPackage.sha256(bootRbf).substring(0, 12)
            + ", DESIGN_ID 0x4d443541); run the job with the boot design's package, or put md5acc-de10-p8's .rbf at " + bootRbf
            + " and reboot the node", refused.getMessage());
        assertTrue(dev.healthy(), "a refused job leaves the device healthy: " + dev.problem());
        assertEquals(boot.sha256(), dev.loaded().sha256());
        assertEquals(1, events(dev, "refused").size());
        node.release("c3", "exited");

        // The boot's .rbf with another DESIGN_ID than the device answers is not the boot design either.
        DesignPackage wrongId = DesignPackage.createRbf(tmp.resolve("wrong-id.zip"), "md5acc-wrong-id", 4, "0x12345678", sameBits, dtbo);
        assertEquals(1, node.allocate(Set.of(dev.yarnDevice()), 1, env("c4", wrongId)).size());
        assertTrue(assertThrows(IOException.class, () -> node.prepare(dev, wrongId, "c4")).getMessage()
            .startsWith("ff200000.md5acc loads designs only at boot ("), "refused");
        node.release("c4", "exited");
        assertEquals(0, events(dev, "load").size() - events(dev, "boot-design").size(), "nothing but the boot design was recorded");
    }

    /**
     * The setting: false makes a node with an FPGA manager load designs only at boot; without the
     * boot's .rbf even the boot design's package is refused (the boot design is unknown); a value
     * that is not auto, true or false stops discovery with one line.
     */
    @Test
    void runtimeLoadsFalseWithoutTheBootRbfRefusesEveryNamedDesignAndABadValueIsOneLine() throws Exception {
        Path a = platformDevice("ff200000.md5acc", "0x4d443541");
        uio(0, "fpgamr-md5", a, 0);
        runtimeLoadKernel();
        Configuration c = conf(0);
        c.set(FpgaConf.RUNTIME_LOADS, "false");
        Path missing = tmp.resolve("boot/firmware/fpgamr-md5acc.rbf");
        c.set(FpgaConf.BOOT_RBF, missing.toString());
        FpgaNode node = FpgaNode.discover(c);
        Accelerator dev = node.byId(0);
        Path rbf = Files.writeString(tmp.resolve("fpgamr-md5acc.rbf"), "bits");
        DesignPackage d = DesignPackage.createRbf(tmp.resolve("d.zip"), "md5acc-de10-p4", 4, "0x4d443541", rbf,
            Files.writeString(tmp.resolve("o.dtbo"), "overlay"));
        assertEquals(1, node.allocate(Set.of(dev.yarnDevice()), 1, env("c1", d)).size());
        IOException refused = assertThrows(IOException.class, () -> node.prepare(dev, d, "c1"));
        assertEquals("ff200000.md5acc loads designs only at boot (fpgamr.fpga.runtime-loads is false): the container needs md5acc-de10-p4 "
            + "(rbf, 4 pipelines, sha256 " + d.sha256().substring(0, 12) + "), the FPGA holds the design the boot loaded, unknown here (no "
            + missing + ", fpgamr.fpga.boot-rbf); run the job with the boot design's package, or put md5acc-de10-p4's .rbf at " + missing
            + " and reboot the node", refused.getMessage());
        node.release("c1", "exited");
        assertEquals(0, run(node, "c2", null), "a container that names no design runs");

        c.set(FpgaConf.RUNTIME_LOADS, "auto"); // an FPGA manager and overlays, but no loader installed
        Path socket = tmp.resolve("run/loader.sock");
        c.set(FpgaConf.LOADER_SOCKET, socket.toString());
        assertEquals("no design loader: no " + socket, BootDesign.bootOnly(c, tmp.resolve("sys")));
        Files.writeString(Files.createDirectories(socket.getParent()).resolve("loader.sock"), "");
        assertNull(BootDesign.bootOnly(c, tmp.resolve("sys")), "all three there: designs load at run time");

        c.set(FpgaConf.RUNTIME_LOADS, "sometimes");
        IOException bad = assertThrows(IOException.class, () -> FpgaNode.discover(c));
        assertEquals("fpgamr.fpga.runtime-loads must be auto, true or false, not 'sometimes'", bad.getMessage());
    }
}
