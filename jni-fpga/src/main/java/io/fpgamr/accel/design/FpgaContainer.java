package io.fpgamr.accel.design;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The contract between a YARN container and the NodeManager plugin (yarn-fpga-resource) that
 * gives it an FPGA: the resource it asks for, the environment it gets, and how it reports a
 * device that failed.
 *
 * <ul>
 *   <li>The job asks for {@value #RESOURCE} (one per map container) and ships its design package
 *       through the distributed cache as {@value #DESIGN_LINK}, naming that link in
 *       {@value #DESIGN_ENV}; a simulated design for nodes of several platforms goes once per
 *       platform ({@link #designLink}), {@value #DESIGN_ENV} naming every link (comma-separated),
 *       and each node loads the one built for its containers' platform; with
 *       {@value #ACCEL_ENV}{@code =auto} it asks for no FPGA but takes a free one if the node has it.
 *   <li>Before the container starts, the NodeManager picks a device (preferring one that already
 *       holds the design), loads the design if the device holds another one, and sets
 *       {@value #DEVICE_ENV} to the driver spec of the device ({@code vsim:...} or
 *       {@code uio:/dev/uioN}), {@value #DEVICES_ENV} to all of them ({@code ;}-separated) and
 *       {@value #DESIGN_SHA256_ENV} to the design's hash.
 *   <li>A container whose device fails writes {@value #FAULT_FILE} in its working directory; the
 *       NodeManager reads it when the container ends and takes the device out of service.
 * </ul>
 */
public final class FpgaContainer {
    /** The YARN resource type of an FPGA device. */
    public static final String RESOURCE = "yarn.io/fpga";
    /** The device the NodeManager gave the container; an {@code fpga} or {@code auto} engine opens it ({@link io.fpgamr.accel.EngineSpec#inContainer}). */
    public static final String DEVICE_ENV = io.fpgamr.accel.Engines.DEVICE_ENV;
    public static final String DEVICES_ENV = "FPGAMR_DEVICES";
    public static final String DESIGN_ENV = "FPGAMR_DESIGN";
    public static final String DESIGN_SHA256_ENV = "FPGAMR_DESIGN_SHA256";
    public static final String ACCEL_ENV = "FPGAMR_ACCEL";
    /** The link name of the design package in the container's working directory. */
    public static final String DESIGN_LINK = "fpgamr-design.zip";
    public static final String FAULT_FILE = "fpgamr-device-fault";
    static final int MAX_FAULT_BYTES = 4096;

    private FpgaContainer() {
    }

    /** The link of the design package built for {@code platform}, when a job ships one per platform. */
    public static String designLink(String platform) {
        return "fpgamr-design-" + platform + ".zip";
    }

    /** True in a container that the NodeManager gave a device. */
    public static boolean hasDevice(Map<String, String> env) {
        String device = env.get(DEVICE_ENV);
        return device != null && !device.isBlank();
    }

    /**
     * The reason of the fault report a container left in its working directory
     * ({@link #reportFault}), if it left one. The container wrote it, so the NodeManager reads it
     * warily: a regular file, never through a link, its first {@value #MAX_FAULT_BYTES} bytes.
     */
    public static Optional<String> readFault(Path workDir) throws IOException {
        Path report = workDir.resolve(FAULT_FILE);
        if (!Files.isRegularFile(report, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(report, LinkOption.NOFOLLOW_LINKS)) {
            head = in.readNBytes(MAX_FAULT_BYTES);
        }
        String line = new String(head, StandardCharsets.UTF_8).lines().findFirst().orElse("").strip();
        String reason = line.contains("\t") ? line.substring(line.indexOf('\t') + 1) : line;
        return Optional.of(reason.isEmpty() ? "fault reported" : reason);
    }

    /**
     * Reports the assigned device as failed, for the NodeManager to read when the container ends:
     * one line, the device spec and the reason. Best effort: a report that cannot be written is
     * no reason to hide the task's own error.
     */
    public static void reportFault(Path workDir, Map<String, String> env, Throwable cause) {
        if (!hasDevice(env)) {
            return;
        }
        String why = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getName();
        String line = env.get(DEVICE_ENV) + "\t" + why.lines().findFirst().orElse(why) + "\n";
        try {
            Files.writeString(workDir.resolve(FAULT_FILE), line, StandardCharsets.UTF_8);
        } catch (IOException e) {
            // Nothing more to do: the task fails with its own error either way.
        }
    }
}
