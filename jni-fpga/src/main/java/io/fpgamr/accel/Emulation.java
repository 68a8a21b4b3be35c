package io.fpgamr.accel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether this JVM runs under an emulator of another instruction set (QEMU user mode: an armhf JVM
 * on an x86 host), so that its speeds and times are labelled {@code emulated}. QEMU answers
 * {@code uname} and {@code os.arch} as the emulated CPU, but passes the host kernel's own files
 * through: {@code /proc/sys/kernel/arch} (Linux 6.1 and later) names the machine the kernel runs on,
 * and on older kernels {@code /proc/cpuinfo} still describes the host's CPU. A JVM whose instruction
 * set differs from the kernel's is emulated; an armhf JVM on an aarch64 kernel (a 64-bit ARM board
 * with a 32-bit user space) is not.
 */
public final class Emulation {
    private static final Path KERNEL_ARCH = Path.of("/proc/sys/kernel/arch");
    private static final Path CPUINFO = Path.of("/proc/cpuinfo");

    private Emulation() {
    }

    /** True when this JVM's instruction set is not the kernel's machine's. */
    public static boolean emulated() {
        return emulated(System.getProperty("os.arch", ""), hostFamily());
    }

    static boolean emulated(String jvmArch, String hostFamily) {
        return hostFamily != null && !family(jvmArch).equals(hostFamily);
    }

    /** {@code x86} or {@code arm} (or the architecture itself) for a JVM's or kernel's architecture name. */
    static String family(String arch) {
        String a = arch.toLowerCase(Locale.ROOT);
        if (a.equals("amd64") || a.equals("x86_64") || a.equals("x86") || a.matches("i[3-6]86")) {
            return "x86";
        }
        if (a.startsWith("arm") || a.startsWith("aarch")) {
            return "arm";
        }
        return a;
    }

    /** The instruction-set family of the machine the kernel runs on, or null when it cannot be told. */
    static String hostFamily() {
        try {
            return family(Files.readString(KERNEL_ARCH, StandardCharsets.US_ASCII).strip());
        } catch (IOException | RuntimeException e) {
            // older kernels: the host's /proc/cpuinfo (QEMU 7 does not replace it for ARM guests)
        }
        try {
            return cpuinfoFamily(Files.readString(CPUINFO, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@code x86} for an x86 kernel's cpuinfo (vendor_id lines), {@code arm} for an ARM kernel's (CPU architecture lines), else null. */
    static String cpuinfoFamily(String cpuinfo) {
        if (cpuinfo.contains("\nvendor_id") || cpuinfo.startsWith("vendor_id")) {
            return "x86";
        }
        if (cpuinfo.contains("CPU architecture")) {
            return "arm";
        }
        return null;
    }
}
