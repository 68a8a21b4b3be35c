package io.fpgamr.energy.source;

import io.fpgamr.energy.config.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Power sensors of the hwmon class: {@code <root>/hwmonN/powerK_input} in microwatts (or
 * {@code powerK_average} where a chip has no instantaneous reading), named by the chip's
 * {@code name} and the channel's {@code powerK_label}. On ARM boards these are typically INA2xx
 * monitors on the board's supply. Older drivers put the attributes under {@code hwmonN/device/};
 * both places are read. The node's power from this source is the sum of the chosen channels: by
 * default every channel found, or those named in {@code channels} ({@code chip/label}).
 */
public final class HwmonSource implements PowerSource {
    public static final SourceKind KIND = new SourceKind("hwmon", List.of(
        Setting.of("root", "--hwmon-root", Setting.PATH, "the kernel's hwmon class directory").withDefault(Path.of("/sys/class/hwmon")),
        Setting.of("channels", "--hwmon-channel", Setting.listOf(Setting.TEXT), "the channels (CHIP/LABEL) that make up the node's power; default all")),
        (o, timeoutMs) -> open(o.path("root"), o.list("channels")));
    private static final Pattern POWER = Pattern.compile("power(\\d+)_(input|average)");

    record Channel(String domain, Path file) {
    }

    /** A chip directory with power attributes. */
    private record Chip(Path chip, String name, Map<Integer, Path> byChannel, Path dir) {
    }

    private final Path root;
    private final List<Channel> channels;

    HwmonSource(Path root, List<Channel> channels) {
        this.root = root;
        this.channels = List.copyOf(channels);
    }

    /**
     * Finds the power channels under {@code root}. {@code only}, when not empty, keeps the channels
     * whose domain ({@code chip/label}) is listed.
     */
    public static HwmonSource open(Path root, List<String> only) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException("no hwmon directory " + root);
        }
        List<Path> chips;
        try (Stream<Path> s = Files.list(root)) {
            chips = s.filter(p -> p.getFileName().toString().startsWith("hwmon")).sorted().toList();
        }
        Map<String, Integer> nameCount = new HashMap<>();
        List<Chip> found = new ArrayList<>();
        for (Path chip : chips) {
            for (Path dir : List.of(chip, chip.resolve("device"))) {
                Map<Integer, Path> byChannel = powerFiles(dir);
                if (byChannel.isEmpty()) {
                    continue;
                }
                Path nameFile = Files.exists(dir.resolve("name")) ? dir.resolve("name") : chip.resolve("name");
                String chipName = Files.exists(nameFile) ? SysfsFiles.readString(nameFile) : chip.getFileName().toString();
                nameCount.merge(chipName, 1, Integer::sum);
                found.add(new Chip(chip, chipName, byChannel, dir));
                break;
            }
        }
        List<Channel> channels = new ArrayList<>();
        for (Chip f : found) {
            String prefix = nameCount.get(f.name()) > 1 ? f.name() + "@" + f.chip().getFileName() : f.name();
            for (Map.Entry<Integer, Path> e : f.byChannel().entrySet()) {
                Path label = f.dir().resolve("power" + e.getKey() + "_label");
                String channel = Files.exists(label) ? SysfsFiles.readString(label) : "power" + e.getKey();
                String domain = prefix + "/" + channel;
                if (!only.isEmpty() && !only.contains(domain)) {
                    continue;
                }
                SysfsFiles.readLong(e.getValue());
                channels.add(new Channel(domain, e.getValue()));
            }
        }
        if (channels.isEmpty()) {
            throw new IOException(only.isEmpty() ? "no hwmon power sensor (power*_input) under " + root
                : "none of the hwmon channels " + only + " under " + root);
        }
        return new HwmonSource(root, channels);
    }

    /** powerK_input per channel K, or powerK_average where the chip has no input. */
    private static Map<Integer, Path> powerFiles(Path dir) throws IOException {
        Map<Integer, Path> byChannel = new java.util.TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return byChannel;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        for (Path f : files) {
            Matcher m = POWER.matcher(f.getFileName().toString());
            if (m.matches()) {
                int k = Integer.parseInt(m.group(1));
                if (m.group(2).equals("input") || !byChannel.containsKey(k)) {
                    byChannel.put(k, f);
                }
            }
        }
        return byChannel;
    }

    @Override
    public String kind() {
        return KIND.name();
    }

    @Override
    public String describe() {
        return "hwmon power sensors in " + root + ": " + String.join(", ", domains());
    }

    public List<String> domains() {
        return channels.stream().map(Channel::domain).toList();
    }

    @Override
    public Coverage coverage() {
        return Coverage.NODE;
    }

    @Override
    public List<DomainPower> read(long nowMs) throws IOException {
        List<DomainPower> out = new ArrayList<>(channels.size());
        for (Channel c : channels) {
            out.add(new DomainPower(c.domain(), SysfsFiles.readLong(c.file()) / 1e6));
        }
        return out;
    }
}
