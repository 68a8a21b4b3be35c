package io.fpgamr.energy;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The node's kind for the {@code node_type} label: x86, arm or arm-fpga (an ARM node whose kernel
 * lists an FPGA manager, as the Cyclone V SoC boards do). Configurable wherever it is used, since a
 * board's FPGA may be unused or its driver absent.
 */
public final class NodeType {
    public static final Path FPGA_MANAGER_ROOT = Path.of("/sys/class/fpga_manager");

    private NodeType() {
    }

    public static String detect() {
        return detect(System.getProperty("os.arch"), FPGA_MANAGER_ROOT);
    }

    static String detect(String arch, Path fpgaManagerRoot) {
        String a = arch == null ? "" : arch.toLowerCase(Locale.ROOT);
        if (a.equals("amd64") || a.equals("x86_64") || a.equals("x86") || a.matches("i[3-6]86")) {
            return "x86";
        }
        if (a.startsWith("aarch64") || a.startsWith("arm")) {
            return hasFpgaManager(fpgaManagerRoot) ? "arm-fpga" : "arm";
        }
        return a.isEmpty() ? "unknown" : a;
    }

    static boolean hasFpgaManager(Path root) {
        if (!Files.isDirectory(root)) {
            return false;
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.findAny().isPresent();
        } catch (IOException e) {
            return false;
        }
    }

    /** This machine's host name, the node name the job's spans use outside YARN. */
    public static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            String env = System.getenv("HOSTNAME");
            return env != null && !env.isBlank() ? env : "localhost";
        }
    }
}
