package io.fpgamr.yarn;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/** The plugin's settings, read from the NodeManager's configuration (yarn-site.xml). */
public final class FpgaConf {
    /** Per-device state (the loaded design, the event log; a vsim device lives there). Default: {@code ${hadoop.tmp.dir}/fpgamr-fpga}. */
    public static final String STATE_DIR = "fpgamr.fpga.state-dir";
    /** Simulated devices this node offers (vsim0 .. vsimN-1). Default 0. */
    public static final String VSIM_DEVICES = "fpgamr.fpga.vsim.devices";
    /**
     * The platform of this node's containers (their JVM's, e.g. {@code linux-armhf}), whose build of
     * a simulated device's model they load. Default: this NodeManager's own; an ARM board's
     * NodeManager whose containers run another JVM than its own (the embedded cluster's
     * {@code arm-fpga} nodes: an x86 NodeManager, armhf containers under QEMU) names theirs.
     */
    public static final String CONTAINER_PLATFORM = "fpgamr.fpga.container-platform";
    /**
     * The node's own simulated design, which a container that names no design gets on a vsim device
     * (never the model a previous job shipped): a model library of the containers' platform. Default:
     * the build of {@link #VSIM_BOOT_PIPELINES} pipelines the plugin finds as the driver does
     * ({@code NativeArtifacts}: the jar's, the checkout's build).
     */
    public static final String VSIM_BOOT_MODEL = "fpgamr.fpga.vsim.boot-model";
    /** The pipelines of the node's own simulated design ({@link #VSIM_BOOT_MODEL}). Default 4. */
    public static final String VSIM_BOOT_PIPELINES = "fpgamr.fpga.vsim.boot-pipelines";
    /** Driver options added to every vsim device's spec, e.g. {@code mhz=50}. */
    public static final String VSIM_OPTIONS = "fpgamr.fpga.vsim.options";
    /** Where sysfs is mounted; a test fixture tree laid out like the kernel's can stand in. Default {@code /sys}. */
    public static final String SYSFS_ROOT = "fpgamr.fpga.sysfs-root";
    /** Where the device nodes are. Default {@code /dev}. */
    public static final String DEV_ROOT = "fpgamr.fpga.dev-root";
    /** Look for real accelerators (UIO devices named fpgamr-md5) in sysfs. Default true. */
    public static final String UIO_DISCOVER = "fpgamr.fpga.uio.discover";
    /** Driver options added to every uio device's spec, e.g. {@code timeout_ms=2000}. */
    public static final String UIO_OPTIONS = "fpgamr.fpga.uio.options";
    /** The Unix socket of the privileged design loader ({@link DesignLoader}). */
    public static final String LOADER_SOCKET = "fpgamr.fpga.loader.socket";
    public static final String DEFAULT_LOADER_SOCKET = "/run/fpgamr/loader.sock";
    /**
     * The loader's staging folder: root's (the loader refuses any other), the NodeManager writes the
     * files of a design to load inside it. Default {@code <state-dir>/staging}, enough for simulated
     * devices only; deploy/ansible sets {@code /var/lib/fpgamr/staging}.
     */
    public static final String LOADER_STAGING_DIR = "fpgamr.fpga.loader.staging-dir";
    /**
     * Whether this node can load hardware designs while it runs: {@code true} (a kernel with the FPGA
     * manager and device-tree overlays in configfs, through the design loader), {@code false}
     * (designs load only at boot: U-Boot programs the FPGA, as on Debian's stock armmp kernel; a
     * container that needs another design than the boot's is refused, {@link BootDesign}), or
     * {@code auto} (the default): true when sysfs shows an FPGA manager and configfs's overlays and
     * the design loader's socket is there.
     */
    public static final String RUNTIME_LOADS = "fpgamr.fpga.runtime-loads";
    /** On a node that loads designs only at boot: the FPGA configuration the boot loaded (U-Boot's boot.scr reads it there). */
    public static final String BOOT_RBF = "fpgamr.fpga.boot-rbf";
    public static final String DEFAULT_BOOT_RBF = "/boot/firmware/fpgamr-md5acc.rbf";
    /** How long loading a hardware design may take, until the accelerator answers with its DESIGN_ID. */
    public static final String PROGRAM_TIMEOUT_MS = "fpgamr.fpga.program.timeout-ms";
    /** The node's copies of designs ({@link DesignCache}): at most this many bytes (those loaded on a device stay). */
    public static final String DESIGN_CACHE_MAX_BYTES = "fpgamr.fpga.design-cache.max-bytes";
    /** ... and a copy unused for this long goes. */
    public static final String DESIGN_CACHE_MAX_AGE_MS = "fpgamr.fpga.design-cache.max-age-ms";
    /** How often the devices are checked. */
    public static final String HEALTH_INTERVAL_MS = "fpgamr.fpga.health.interval-ms";
    /** How long an unhealthy device stays out before it is tried again (its design reloaded and checked). */
    public static final String RECOVERY_MS = "fpgamr.fpga.health.recovery-ms";
    /** How long a container that asked for FPGAs waits for enough free healthy ones on this node. */
    public static final String WAIT_MS = "fpgamr.fpga.wait-ms";
    /** Lend a free device to containers that asked for none but run with FPGAMR_ACCEL=auto (not under the LinuxContainerExecutor). */
    public static final String LEND_TO_AUTO = "fpgamr.fpga.lend-to-auto";

    private FpgaConf() {
    }

    static Path stateDir(Configuration conf) {
        String dir = conf.get(STATE_DIR);
        if (dir == null || dir.isBlank()) {
            dir = conf.get("hadoop.tmp.dir", System.getProperty("java.io.tmpdir")) + "/fpgamr-fpga";
        }
        return Path.of(dir).toAbsolutePath();
    }

    static String containerPlatform(Configuration conf) {
        String p = conf.get(CONTAINER_PLATFORM);
        return p == null || p.isBlank() ? io.fpgamr.accel.NativeArtifacts.platform() : p.strip();
    }

    static Path stagingDir(Configuration conf) {
        String dir = conf.get(LOADER_STAGING_DIR);
        return dir == null || dir.isBlank() ? stateDir(conf).resolve("staging") : Path.of(dir).toAbsolutePath();
    }
}
