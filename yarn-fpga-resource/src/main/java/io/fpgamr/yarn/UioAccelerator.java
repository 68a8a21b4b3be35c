package io.fpgamr.yarn;

import io.fpgamr.accel.design.DesignPackage;
import io.fpgamr.accel.fpga.DeviceSpec;
import io.fpgamr.accel.fpga.RegisterMap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.Device;

/**
 * A real accelerator, driven by kernel/fpgamr.ko: a UIO device named {@value #UIO_NAME} whose
 * platform device (the parent in sysfs) carries {@code design_id} and {@code regmap_version}
 * (kernel/include/uapi/linux/fpgamr.h). It is known by its platform device's name (e.g.
 * {@code ff200000.md5acc}), which stays when a reload renumbers {@code /dev/uioN}.
 *
 * <p>Loading a design asks the privileged design loader ({@link DesignLoader}) to load the
 * design's {@code .rbf} and overlay onto the platform device (the Linux FPGA manager does the
 * rest), then waits until the accelerator is back and answers with the design's DESIGN_ID. On a
 * node that loads designs only at boot ({@link BootDesign}) nothing is loaded: the boot design is
 * taken as it is, any other refused.
 */
final class UioAccelerator extends Accelerator {
    static final String UIO_NAME = "fpgamr-md5";

    /**
     * What sysfs says about one fpgamr UIO device; {@code state} is the module's {@code state}
     * attribute (idle, running, or "wedged: REASON"), null from a module without it.
     */
    record Info(String uio, String platformDevice, int major, int minor, String designId, long regmapVersion, String state) {
    }

    private final Path sysfsRoot;
    private final Path devRoot;
    private final String options;
    private final long programTimeoutMs;
    /** The boot's design on a node that loads designs only at boot; null when the loader loads them. */
    private final BootDesign boot;

    UioAccelerator(int id, Info info, Path stateDir, Path sysfsRoot, Path devRoot, String options, DesignLoader loader,
        long programTimeoutMs, BootDesign boot) throws IOException {
        super(id, info.platformDevice(), stateDir, loader, Device.Builder.newInstance().setDevPath(devRoot.resolve(info.uio()).toString())
            .setMajorNumber(info.major()).setMinorNumber(info.minor()).setBusID(info.platformDevice()));
        this.sysfsRoot = sysfsRoot;
        this.devRoot = devRoot;
        this.options = options == null ? "" : options.strip();
        this.programTimeoutMs = programTimeoutMs;
        this.boot = boot;
        if (boot != null) {
            // The device holds what this boot loaded, whatever a record from before says (a
            // record is made again when a container's design is found to be the boot's).
            forget();
        }
    }

    @Override
    String kind() {
        return "uio";
    }

    /** Every fpgamr accelerator sysfs shows, by platform device name. */
    static List<Info> scan(Path sysfsRoot) throws IOException {
        List<Info> found = new ArrayList<>();
        Path cls = sysfsRoot.resolve("class/uio");
        if (!Files.isDirectory(cls)) {
            return found;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(cls)) {
            for (Path d : dirs) {
                Info i = read(d);
                if (i != null) {
                    found.add(i);
                }
            }
        }
        found.sort(Comparator.comparing(Info::platformDevice));
        return found;
    }

    private static Info read(Path uioDir) {
        try {
            if (!UIO_NAME.equals(attr(uioDir.resolve("name")))) {
                return null;
            }
            Path dev = uioDir.resolve("device").toRealPath();
            String[] mm = attr(uioDir.resolve("dev")).split(":");
            String regmap = attr(dev.resolve("regmap_version"));
            Path state = dev.resolve("state");
            return new Info(uioDir.getFileName().toString(), dev.getFileName().toString(), Integer.parseInt(mm[0]),
                Integer.parseInt(mm[1]), DesignPackage.normalizeDesignId(attr(dev.resolve("design_id"))),
                Long.decode(regmap), Files.exists(state) ? attr(state) : null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String attr(Path f) throws IOException {
        return Files.readString(f, StandardCharsets.US_ASCII).strip();
    }

    private Info locate() {
        try {
            for (Info i : scan(sysfsRoot)) {
                if (i.platformDevice().equals(name)) {
                    return i;
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    @Override
    String spec() throws IOException {
        Info i = locate();
        if (i == null) {
            throw new IOException(name + ": no " + UIO_NAME + " UIO device in sysfs");
        }
        try {
            return DeviceSpec.uio(devRoot.resolve(i.uio()).toString()).withOptions(options).toString();
        } catch (IllegalArgumentException e) {
            throw new IOException(name + ": bad driver options (" + FpgaConf.UIO_OPTIONS + "): " + e.getMessage());
        }
    }

    @Override
    String probe() {
        Info i = locate();
        if (i == null) {
            return "no " + UIO_NAME + " UIO device for " + name + " in " + sysfsRoot + "/class/uio";
        }
        Loaded l = loaded();
        String want = l != null ? l.designId() : DesignPackage.MD5A_DESIGN_ID;
        if (!i.designId().equals(want)) {
            return "design id mismatch: " + name + " answers " + i.designId() + ", expected " + want;
        }
        RegisterMap map = RegisterMap.current();  // hdl/regmap/md5acc.json, as every reader
        if (!map.speaks(i.regmapVersion())) {
            return String.format("register map version 0x%08x of %s is not %d.%d or a later %d.x", i.regmapVersion(), name,
                map.major(), map.minor(), map.major());
        }
        if (!Files.exists(devRoot.resolve(i.uio()))) {
            return "no device node " + devRoot.resolve(i.uio());
        }
        // the module's word: a device that did not stop a job takes none until it is probed again
        // (the FPGA reprogrammed, which the recovery's reload through the loader does, or the module reloaded)
        if (i.state() != null && i.state().startsWith("wedged")) {
            return i.state();
        }
        return null;
    }

    @Override
    boolean holdsDesign() {
        return boot != null || super.holdsDesign();
    }

    @Override
    String refuses(DesignPackage design) throws IOException {
        if (boot == null) {
            return null;
        }
        Info i = locate();
        return boot.refuses(name, design, i == null ? "unknown (no " + UIO_NAME + " UIO device)" : i.designId());
    }

    @Override
    protected Loaded install(DesignPackage design) throws IOException {
        if (boot != null) {
            String refused = refuses(design);
            if (refused != null) {
                throw new IOException(refused);
            }
            log("boot-design", "sha256=" + design.sha256(), "name=" + design.name());
            return Loaded.of(design, null);
        }
        if (design.kind() != DesignPackage.Kind.RBF) {
            throw new IOException(design.describe() + " is a simulated design, " + name + " a hardware device");
        }
        String firmware = loader.load(name, design);
        long deadline = System.currentTimeMillis() + programTimeoutMs;
        String last = "not seen";
        while (System.currentTimeMillis() < deadline) {
            Info i = locate();
            if (i != null && i.designId().equals(design.designId())) {
                return Loaded.of(design, null).withFirmware(firmware);
            }
            last = i == null ? "not in sysfs" : "answers " + i.designId();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IOException("design id mismatch after loading: " + name + " " + last + ", expected " + design.designId());
    }
}
