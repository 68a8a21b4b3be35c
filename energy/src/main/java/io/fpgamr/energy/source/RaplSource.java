package io.fpgamr.energy.source;

import io.fpgamr.energy.config.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Intel RAPL energy counters through the kernel's powercap framework:
 * {@code <root>/intel-rapl:N} (name {@code package-N}) and its sub-zones {@code intel-rapl:N:M}
 * named {@code dram}. Each zone's {@code energy_uj} is a microjoule counter that wraps to zero
 * after {@code max_energy_range_uj}; power is the counter's increase divided by the time between
 * two reads. Core, uncore and psys zones are not read: core and uncore are inside the package,
 * psys overlaps it. The MMIO twin ({@code intel-rapl-mmio:*}) repeats the package counter and is
 * skipped too.
 */
public final class RaplSource implements PowerSource {
    public static final SourceKind KIND = new SourceKind("rapl", List.of(
        Setting.of("root", "--powercap-root", Setting.PATH, "the kernel's powercap class directory").withDefault(Path.of("/sys/class/powercap"))),
        (o, timeoutMs) -> open(o.path("root")));
    private static final Pattern ZONE = Pattern.compile("intel-rapl:(\\d+)(?::(\\d+))?");

    /** One counter: its domain name, its energy file and the value at which it wraps. */
    record Zone(String domain, Path energyFile, long maxRangeUj) {
    }

    private final Path root;
    private final List<Zone> zones;
    private final long[] lastUj;
    private long lastMs = Long.MIN_VALUE;

    RaplSource(Path root, List<Zone> zones) {
        this.root = root;
        this.zones = List.copyOf(zones);
        this.lastUj = new long[zones.size()];
    }

    /**
     * Finds the package and DRAM zones under {@code root} and checks that their counters can be
     * read. Throws with the reason when the node has none or cannot read them.
     */
    public static RaplSource open(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException("no powercap directory " + root);
        }
        List<Zone> zones = new ArrayList<>();
        List<Path> entries;
        try (Stream<Path> s = Files.list(root)) {
            entries = s.sorted().toList();
        }
        for (Path zone : entries) {
            Matcher m = ZONE.matcher(zone.getFileName().toString());
            if (!m.matches()) {
                continue;
            }
            Path nameFile = zone.resolve("name");
            if (!Files.exists(nameFile)) {
                continue;
            }
            String name = SysfsFiles.readString(nameFile);
            String domain;
            if (m.group(2) == null && name.startsWith("package-")) {
                domain = name;
            } else if (name.equals("dram")) {
                domain = "dram-" + m.group(1);
            } else {
                continue;
            }
            long max = SysfsFiles.readLong(zone.resolve("max_energy_range_uj"));
            Path energy = zone.resolve("energy_uj");
            SysfsFiles.readLong(energy); // fails now, with the reason, if the counter is root-only
            zones.add(new Zone(domain, energy, max));
        }
        if (zones.isEmpty()) {
            throw new IOException("no intel-rapl package or dram zone under " + root);
        }
        return new RaplSource(root, zones);
    }

    @Override
    public String kind() {
        return KIND.name();
    }

    @Override
    public String describe() {
        return "Intel RAPL energy counters in " + root + ": " + String.join(", ", domains());
    }

    public List<String> domains() {
        return zones.stream().map(Zone::domain).toList();
    }

    @Override
    public Coverage coverage() {
        return Coverage.COMPONENTS;
    }

    @Override
    public synchronized List<DomainPower> read(long nowMs) throws IOException {
        long[] now = new long[zones.size()];
        for (int i = 0; i < zones.size(); i++) {
            now[i] = SysfsFiles.readLong(zones.get(i).energyFile());
        }
        long prevMs = lastMs;
        long[] prev = lastUj.clone();
        System.arraycopy(now, 0, lastUj, 0, now.length);
        lastMs = nowMs;
        if (prevMs == Long.MIN_VALUE) {
            return List.of();
        }
        if (nowMs <= prevMs) {
            throw new IOException("RAPL read at " + nowMs + " ms is not after the previous one at " + prevMs + " ms");
        }
        double seconds = (nowMs - prevMs) / 1000.0;
        List<DomainPower> out = new ArrayList<>(zones.size());
        for (int i = 0; i < zones.size(); i++) {
            long deltaUj = increase(prev[i], now[i], zones.get(i).maxRangeUj());
            out.add(new DomainPower(zones.get(i).domain(), deltaUj / 1e6 / seconds));
        }
        return out;
    }

    /**
     * The counter's increase from {@code before} to {@code after}: when it went down, the counter
     * passed {@code maxRangeUj} and started again from zero once.
     */
    static long increase(long before, long after, long maxRangeUj) {
        return after >= before ? after - before : (maxRangeUj - before) + after;
    }
}
