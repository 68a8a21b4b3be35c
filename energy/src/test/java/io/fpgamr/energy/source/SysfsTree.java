package io.fpgamr.energy.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds sysfs fixtures laid out as the kernel lays them out: the device directories under
 * {@code sys/devices/...} and the class entries under {@code sys/class/<class>/} as relative
 * symbolic links to them.
 */
public final class SysfsTree {
    public final Path sys;

    public SysfsTree(Path root) throws IOException {
        this.sys = Files.createDirectories(root.resolve("sys"));
    }

    /** Creates the device directory {@code sys/devices/<devicePath>} with its class link. */
    public Path device(String className, String entry, String devicePath) throws IOException {
        Path dev = Files.createDirectories(sys.resolve("devices").resolve(devicePath));
        Path classDir = Files.createDirectories(sys.resolve("class").resolve(className));
        Path link = classDir.resolve(entry);
        Files.createSymbolicLink(link, classDir.relativize(dev));
        return dev;
    }

    public Path classDir(String className) {
        return sys.resolve("class").resolve(className);
    }

    public static void write(Path file, String value) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, value + "\n");
    }

    /**
     * A RAPL zone: {@code devices/virtual/powercap/intel-rapl/<path>} with its kernel attributes
     * and the class entry {@code class/powercap/<last element of path>}.
     */
    public Path raplZone(String path, String name, long energyUj, long maxRangeUj) throws IOException {
        String entry = path.substring(path.lastIndexOf('/') + 1);
        String control = entry.startsWith("intel-rapl-mmio") ? "intel-rapl-mmio" : "intel-rapl";
        Path z = device("powercap", entry, "virtual/powercap/" + control + "/" + path);
        write(z.resolve("name"), name);
        write(z.resolve("energy_uj"), Long.toString(energyUj));
        write(z.resolve("max_energy_range_uj"), Long.toString(maxRangeUj));
        write(z.resolve("enabled"), "1");
        write(z.resolve("constraint_0_name"), "long_term");
        write(z.resolve("constraint_0_power_limit_uw"), "65000000");
        write(z.resolve("constraint_0_time_window_us"), "27983872");
        return z;
    }
}
