package io.fpgamr.md5.experiment;

import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.energy.Mappers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.util.VersionInfo;

/**
 * The machine a study ran on, as the experiment recorded it when it ran ({@code DIR/environment.json}):
 * what the report's Hardware section sets beside the thesis's machines. With {@code --cluster conf}
 * it is the launcher's machine; the cluster's nodes are the deployment's.
 *
 * @param cpuModel   /proc/cpuinfo's model name (null when unreadable)
 * @param cores      the logical CPUs this JVM may use (Runtime.availableProcessors)
 * @param memoryGib  /proc/meminfo's MemTotal, GiB (null when unreadable)
 * @param os         os.name os.version os.arch
 * @param java       java.vm.name java.version
 * @param hadoop     Hadoop's version (VersionInfo), the framework
 * @param cluster    embedded (daemons in the launcher's JVM, sharing its cores) or conf
 * @param energy     the plan's energy flags: where the watts came from
 */
public record Environment(String cpuModel, int cores, Double memoryGib, String os, String java, String hadoop, String cluster,
                          List<String> energy) {
    public static final String FILE = "environment.json";

    /** This machine now. */
    static Environment here(String cluster, List<String> energy) {
        return new Environment(procField("/proc/cpuinfo", "model name").orElse(null), Runtime.getRuntime().availableProcessors(),
            procField("/proc/meminfo", "MemTotal").map(v -> Long.parseLong(v.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0).orElse(null),
            System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
            System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), VersionInfo.getVersion(), cluster,
            energy == null ? List.of() : energy);
    }

    private static Optional<String> procField(String file, String name) {
        try {
            return Files.readAllLines(Path.of(file)).stream().filter(l -> l.startsWith(name)).findFirst()
                .map(l -> l.substring(l.indexOf(':') + 1).strip());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    void write(Path dir) throws IOException {
        AtomicFiles.writeString(dir.resolve(FILE), Mappers.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(this) + "\n");
    }

    /** The environment recorded in {@code dir}, if the study recorded one. */
    public static Optional<Environment> read(Path dir) throws IOException {
        Path f = dir.resolve(FILE);
        return Files.isRegularFile(f) ? Optional.of(Mappers.JSON.readValue(f.toFile(), Environment.class)) : Optional.empty();
    }

    public String memory() {
        return memoryGib == null ? "not read" : String.format(Locale.ROOT, "%.1f GiB", memoryGib);
    }
}
