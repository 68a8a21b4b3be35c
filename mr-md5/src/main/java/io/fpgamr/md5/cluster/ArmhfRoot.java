package io.fpgamr.md5.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The armhf (ARMv7) Debian root an ARM node of the embedded cluster runs its containers' JVM from,
 * under QEMU user-mode emulation of a Cortex-A9 (the thesis's Novena and the DE10-Nano's CPU).
 * {@code bin/armhf-root} makes it (debootstrap once, cached outside git) and unpacks it on tmpfs,
 * where it must be: a 32-bit program under QEMU on a 64-bit host sees {@code readdir} fail on ext4
 * (its 64-bit directory offsets do not fit), and the JVM lists its own directories. The host runs
 * the root's armhf {@code java} through binfmt_misc's {@code qemu-arm} entry; {@code QEMU_LD_PREFIX}
 * points QEMU at the root's dynamic loader and libraries (a path the root does not hold, such as a
 * container's directory or the project's jars, is the host's).
 *
 * @param path the root's directory ({@value #ENV}, default {@code /dev/shm/fpgamr-armhf-root})
 */
public record ArmhfRoot(Path path) {
    /** The environment variable naming the root (bin/armhf-root's, and the embedded cluster's). */
    public static final String ENV = "FPGAMR_ARMHF_ROOT";
    public static final Path DEFAULT = Path.of("/dev/shm/fpgamr-armhf-root");
    /** The CPU QEMU emulates: the Cortex-A9 (ARMv7-A with NEON) of the Novena and the DE10-Nano. */
    public static final String CPU = "cortex-a9";
    /** The platform of the native libraries the root's JVM loads (the jar's {@code linux-armhf} builds). */
    public static final String PLATFORM = "linux-armhf";
    static final String JAVA_HOME = "usr/lib/jvm/java-17-openjdk-armhf";
    static final Path BINFMT_ENTRY = Path.of("/proc/sys/fs/binfmt_misc/qemu-arm");
    private static final String HOW = "run bin/armhf-root as root once (make test does)";

    /**
     * The root named by {@code env} (or the default), checked: its JVM is there, it is on tmpfs, and
     * binfmt_misc runs armhf programs.
     *
     * @throws IllegalArgumentException in one line naming what is missing and how to make it
     */
    public static ArmhfRoot find(Map<String, String> env) {
        String named = env.get(ENV);
        ArmhfRoot root = new ArmhfRoot(named != null && !named.isBlank() ? Path.of(named) : DEFAULT);
        if (!Files.isExecutable(root.javaHome().resolve("bin/java"))) {
            throw new IllegalArgumentException("ARM nodes need an armhf root with a JVM at " + root.javaHome() + ": " + HOW);
        }
        try {
            String type = Files.getFileStore(root.path()).type();
            if (!type.equals("tmpfs")) {
                throw new IllegalArgumentException("the armhf root " + root.path() + " is on " + type + ", not tmpfs (emulated 32-bit "
                    + "programs cannot list ext4 directories): " + HOW);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the armhf root " + root.path() + ": " + e.getMessage());
        }
        String entry;
        try {
            entry = Files.readString(BINFMT_ENTRY, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalArgumentException("ARM nodes need qemu-arm registered with binfmt_misc (" + BINFMT_ENTRY + "): " + HOW);
        }
        if (!entry.startsWith("enabled")) {
            throw new IllegalArgumentException("binfmt_misc's qemu-arm entry is disabled (" + BINFMT_ENTRY + "): " + HOW);
        }
        return root;
    }

    /** The armhf JVM: Debian's OpenJDK 17. */
    public Path javaHome() {
        return path.resolve(JAVA_HOME);
    }

    /** What an ARM node's containers get in their environment: the armhf JVM, the root for QEMU, the CPU it emulates. */
    public Map<String, String> containerEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("JAVA_HOME", javaHome().toString());
        env.put("QEMU_LD_PREFIX", path.toString());
        env.put("QEMU_CPU", CPU);
        return env;
    }
}
