package io.fpgamr.yarn;

import io.fpgamr.accel.design.DesignPackage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * The design the boot loaded, on a node whose kernel cannot load FPGA designs while it runs.
 * Debian's stock armmp kernel has no FPGA manager, bridges, regions or device-tree overlays, so
 * the design loader (an overlay through configfs) cannot work there: U-Boot's boot script programs
 * the FPGA from the boot partition's {@code .rbf} before Linux starts, and that design stays until
 * the next boot. On such a node a container's design either is the boot design (the same
 * {@code .rbf}, byte for byte, and the DESIGN_ID the device answers: it runs, nothing is loaded)
 * or is refused in one line that names both designs and what to do; a container that names no
 * design runs on the boot design.
 *
 * <p>The boot's {@code .rbf} ({@link FpgaConf#BOOT_RBF}) is hashed once, when the NodeManager
 * starts: a new file there is loaded by the next boot, which starts the NodeManager again.
 */
record BootDesign(String why, Path rbf, String rbfSha256, String unreadable, Path scratch, Map<String, String> rbfOfPackage) {
    // rbfSha256: the SHA-256 of rbf when the NodeManager started, null when it could not be read
    // (unreadable says why); rbfOfPackage: the SHA-256 of each package's configuration entry, by
    // the package's SHA-256; scratch: where a package's .rbf is extracted to be hashed.

    /**
     * The node's boot design when the node loads designs only at boot ({@link FpgaConf#RUNTIME_LOADS}
     * false, or {@code auto} on a kernel without an FPGA manager or without device-tree overlays in
     * configfs, as sysfs under {@code sysfs} shows, or without the design loader's socket); null when
     * designs can be loaded at run time.
     */
    static BootDesign of(Configuration conf, Path sysfs, Path stateDir) throws IOException {
        String why = bootOnly(conf, sysfs);
        if (why == null) {
            return null;
        }
        Path rbf = Path.of(conf.get(FpgaConf.BOOT_RBF, FpgaConf.DEFAULT_BOOT_RBF).strip());
        String sha = null;
        String unreadable = null;
        try {
            sha = DesignPackage.sha256(rbf);
        } catch (IOException e) {
            unreadable = (Files.exists(rbf) ? "cannot read " : "no ") + rbf + ", " + FpgaConf.BOOT_RBF;
        }
        return new BootDesign(why, rbf, sha, unreadable, stateDir.resolve("boot-design"), new ConcurrentHashMap<>());
    }

    /** Why this node loads designs only at boot, or null when it can load them at run time. */
    static String bootOnly(Configuration conf, Path sysfs) throws IOException {
        String mode = conf.get(FpgaConf.RUNTIME_LOADS, "auto").strip().toLowerCase(Locale.ROOT);
        switch (mode) {
            case "true":
                return null;
            case "false":
                return FpgaConf.RUNTIME_LOADS + " is false";
            case "auto":
                // A run-time load is an overlay applied through configfs that names the FPGA
                // manager's firmware: both must be there (Debian's armmp kernel has neither).
                Path managers = sysfs.resolve("class/fpga_manager");
                if (!hasEntries(managers)) {
                    return "this kernel has no FPGA manager: " + managers + " is missing or empty";
                }
                Path overlays = sysfs.resolve("kernel/config/device-tree/overlays");
                if (!Files.isDirectory(overlays)) {
                    return "this kernel has no device-tree overlays in configfs: no " + overlays;
                }
                // The NodeManager's unit starts after the loader's socket: none now means none installed.
                Path loader = Path.of(conf.get(FpgaConf.LOADER_SOCKET, FpgaConf.DEFAULT_LOADER_SOCKET));
                if (!Files.exists(loader)) {
                    return "no design loader: no " + loader;
                }
                return null;
            default:
                throw new IOException(FpgaConf.RUNTIME_LOADS + " must be auto, true or false, not '" + mode + "'");
        }
    }

    private static boolean hasEntries(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isPresent();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Null when {@code design} is the boot design of {@code device}, which answers
     * {@code deviceDesignId}: a hardware package whose {@code .rbf} is the boot's and whose
     * DESIGN_ID is the device's. Else the one line that refuses it.
     */
    String refuses(String device, DesignPackage design, String deviceDesignId) throws IOException {
        if (design.kind() == DesignPackage.Kind.RBF && rbfSha256 != null && rbfSha256.equals(rbfOf(design))
            && design.designId().equals(deviceDesignId)) {
            return null;
        }
        String holds = rbfSha256 == null ? "the design the boot loaded, unknown here (" + unreadable + ")"
            : "the boot design " + rbf + " (sha256 " + rbfSha256.substring(0, 12) + ", DESIGN_ID " + deviceDesignId + ")";
        String other = design.kind() == DesignPackage.Kind.RBF ? ", or put " + design.name() + "'s .rbf at " + rbf + " and reboot the node"
            : "";
        return device + " loads designs only at boot (" + why + "): the container needs " + design.describe() + ", the FPGA holds "
            + holds + "; run the job with the boot design's package" + other;
    }

    /** The SHA-256 of a hardware package's configuration, extracted once per package into the node's state. */
    private String rbfOf(DesignPackage design) throws IOException {
        String known = rbfOfPackage.get(design.sha256());
        if (known != null) {
            return known;
        }
        Files.createDirectories(scratch);
        Path f = Files.createTempFile(scratch, design.sha256().substring(0, 12) + "-", ".rbf");
        try {
            design.extract(design.rbfEntry(), f);
            String sha = DesignPackage.sha256(f);
            if (rbfOfPackage.size() >= 256) {
                rbfOfPackage.clear(); // jobs' packages come and go: only a recent few are worth keeping
            }
            rbfOfPackage.put(design.sha256(), sha);
            return sha;
        } finally {
            Files.deleteIfExists(f);
        }
    }

    @Override
    public String toString() {
        return "designs load only at boot (" + why + "); the boot design: " + (rbfSha256 == null ? unreadable
            : rbf + " (sha256 " + rbfSha256.substring(0, 12) + ")");
    }
}
