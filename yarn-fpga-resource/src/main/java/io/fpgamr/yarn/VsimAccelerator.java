package io.fpgamr.yarn;

import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.accel.NativeArtifacts;
import io.fpgamr.accel.fpga.DeviceSpec;
import io.fpgamr.accel.design.DesignPackage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.Device;

/**
 * A simulated device: a state directory into which loading a design installs its Verilated model
 * ({@value #MODEL}), which the driver loads when a container opens
 * {@code vsim:pipelines=N,lib=<dir>/model.so,lock=<dir>/lock}. The design is really swapped: a
 * container gets the model of the design it asked for, and the driver refuses a model whose
 * pipeline count differs from the spec's.
 *
 * <p>Checks: the installed model must still be the loaded design's (its SHA-256, recomputed when
 * the file changes): anything else is the simulated counterpart of a DESIGN_ID mismatch. Extra
 * driver options for this one device (clock, AXI stalls, the driver's timeout) can be put in
 * {@value #OPTIONS}, one comma-separated line.
 */
final class VsimAccelerator extends Accelerator {
    static final String MODEL = "model.so";
    static final String LOCK = "lock";
    static final String OPTIONS = "options";
    /**
     * The device's state as its driver keeps it (the vsim bus's {@code state=}, the counterpart of
     * the kernel's sysfs {@code state}): "wedged: REASON" once a container's job did not stop;
     * a load of the model (the simulated reprogramming) writes "idle".
     */
    static final String STATE = "state";

    private final String nodeOptions;
    /** The platform of the containers that load the model ({@link FpgaConf#CONTAINER_PLATFORM}). */
    private final String platform;
    private Object verifiedKey;

    VsimAccelerator(int id, Path dir, String nodeOptions) throws IOException {
        this(id, dir, nodeOptions, NativeArtifacts.platform());
    }

    VsimAccelerator(int id, Path dir, String nodeOptions, String platform) throws IOException {
        super(id, dir.getFileName().toString(), dir, null, Device.Builder.newInstance().setBusID("vsim:" + dir));
        this.nodeOptions = nodeOptions == null ? "" : nodeOptions.strip();
        this.platform = platform;
    }

    @Override
    String kind() {
        return "vsim";
    }

    @Override
    String spec() throws IOException {
        Loaded l = loaded();
        if (l == null) {
            throw new IOException(name + " holds no design");
        }
        DeviceSpec d = DeviceSpec.vsim(l.pipelines()).withLib(stateDir.resolve(MODEL))
            .with(DeviceSpec.Option.LOCK, stateDir.resolve(LOCK).toString())
            .with(DeviceSpec.Option.STATE, stateDir.resolve(STATE).toString());
        Path own = stateDir.resolve(OPTIONS);
        String ownOptions = Files.isRegularFile(own)
            ? Files.readString(own, StandardCharsets.UTF_8).strip().lines().findFirst().orElse("") : "";
        try {
            return d.withOptions(nodeOptions).withOptions(ownOptions).toString();
        } catch (IllegalArgumentException e) {
            throw new IOException(name + ": bad driver options (" + FpgaConf.VSIM_OPTIONS + " or " + own + "): " + e.getMessage());
        }
    }

    @Override
    protected Loaded install(DesignPackage design) throws IOException {
        if (design.kind() != DesignPackage.Kind.VSIM) {
            throw new IOException(design.describe() + " is a hardware design, " + name + " a simulated device");
        }
        if (!design.platform().equals(platform)) {
            throw new IOException(design.describe() + " is a model for " + design.platform() + ", this node's containers are "
                + platform);
        }
        Path model = stateDir.resolve(MODEL);
        design.extract(design.modelEntry(), model);
        String modelSha = DesignPackage.sha256(model);
        // a fresh model: whatever a container's job left the last one in is gone; the containers'
        // driver (their user, under the LinuxContainerExecutor) must be able to say "wedged" again
        Path state = stateDir.resolve(STATE);
        AtomicFiles.write(state, "idle\n".getBytes(StandardCharsets.US_ASCII));
        try {
            Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rw-rw-rw-"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the NodeManager's own containers share its user
        }
        synchronized (this) {
            verifiedKey = key(model);
        }
        return Loaded.of(design, modelSha);
    }

    @Override
    synchronized String probe() {
        if (!Files.isDirectory(stateDir)) {
            return "state directory " + stateDir + " is gone";
        }
        String state = state();
        if (state != null && state.startsWith("wedged")) {
            return state;
        }
        Loaded l = loaded();
        if (l == null) {
            return null;
        }
        Path model = stateDir.resolve(MODEL);
        if (!Files.isRegularFile(model)) {
            return "design id mismatch: no model installed, " + l.name() + " expected";
        }
        try {
            Object k = key(model);
            if (Objects.equals(k, verifiedKey)) {
                return null;
            }
            String sha = DesignPackage.sha256(model);
            if (!sha.equals(l.modelSha256())) {
                return "design id mismatch: the installed model (sha256 " + sha.substring(0, 12) + ") is not " + l.name()
                    + "'s (sha256 " + (l.modelSha256() == null ? "?" : l.modelSha256().substring(0, 12)) + ")";
            }
            verifiedKey = k;
            return null;
        } catch (IOException e) {
            return "cannot read the installed model: " + e.getMessage();
        }
    }

    /** The first line of the device's state file, null when there is none. */
    private String state() {
        try {
            return Files.readString(stateDir.resolve(STATE), StandardCharsets.UTF_8).lines().findFirst().orElse("").strip();
        } catch (IOException e) {
            return null;
        }
    }

    private static Object key(Path f) throws IOException {
        BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
        return a.fileKey() + "|" + a.size() + "|" + a.lastModifiedTime().toMillis();
    }
}
