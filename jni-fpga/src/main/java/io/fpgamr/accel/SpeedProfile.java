package io.fpgamr.accel;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A node's speed for the MD5 job, the seeds' computing ratio before it is normalised: per engine
 * kind ({@code cpu}, {@code fpga}) and job mode ({@code search}, {@code bench}), the values one map
 * hashes per second, emitting included, with where the figure comes from. The profiler ({@code
 * fpgamr rate --profile FILE}) writes it on the node; the NodeManager publishes it as node
 * attributes ({@link #toAttributes}); the job client reads them back ({@link #fromAttributes}) and
 * sizes the maps' work units by it. The file is a properties file an operator can read and edit:
 * <pre>
 * cpu.engine=cpu:avx2
 * cpu.search=2.1E8
 * cpu.search.source=measured
 * fpga.simulated=true
 * </pre>
 *
 * @param node the node's architecture and whatever else describes it ({@code arch}; {@code emulated=true}
 *             when the profiler ran under an emulator of the node's instruction set, {@link Emulation}), free text
 */
public record SpeedProfile(Map<String, String> node, List<Speed> speeds) {
    public static final List<String> KINDS = List.of("cpu", "fpga");
    public static final List<String> MODES = List.of("search", "bench");
    /** The node attributes' names start with this (the prefix before the slash is YARN's). */
    public static final String ATTRIBUTE_PREFIX = "fpgamr-";

    /** Where a speed comes from: the profiler ran the engine, a model computed it, or an operator set it. */
    public enum Source {
        MEASURED, MODELLED, OPERATOR;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Source parse(String s) {
            try {
                return valueOf(s.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("source must be measured, modelled or operator, got '" + s + "'");
            }
        }
    }

    /**
     * One engine's speed in one mode: {@code valuesPerS} values a second for one map (one thread of
     * the CPU kernels, one FPGA device), on engine {@code engine}; {@code simulated} when the FPGA is
     * a simulated device (its speed is the simulation's).
     */
    public record Speed(String kind, String mode, double valuesPerS, Source source, String engine, boolean simulated) {
        public Speed {
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("engine kind must be one of " + KINDS + ", got '" + kind + "'");
            }
            if (!MODES.contains(mode)) {
                throw new IllegalArgumentException("mode must be one of " + MODES + ", got '" + mode + "'");
            }
            if (!(valuesPerS > 0) || Double.isInfinite(valuesPerS)) {
                throw new IllegalArgumentException(kind + "." + mode + ": a speed must be a positive number of values per second, got "
                    + valuesPerS);
            }
        }

        /** {@code 2.1e8 values/s (measured, cpu:avx2)}, with {@code simulated} where it is. */
        public String describe() {
            return String.format(Locale.ROOT, "%.3g values/s (%s%s, %s)", valuesPerS, source.label(), simulated ? ", simulated" : "", engine);
        }
    }

    public SpeedProfile {
        node = Map.copyOf(node);
        speeds = List.copyOf(speeds);
    }

    /**
     * Whether the profiler ran under an emulator ({@code node.emulated=true}): every speed of the
     * profile is then the emulation's, labelled {@code emulated} wherever it is shown.
     */
    public boolean emulated() {
        return Boolean.parseBoolean(node.getOrDefault("emulated", "false"));
    }

    /** This profile's speed of an engine kind in a mode, if it has one. */
    public Optional<Speed> speed(String kind, String mode) {
        return speeds.stream().filter(s -> s.kind().equals(kind) && s.mode().equals(mode)).findFirst();
    }

    /** The same profile with {@code s} in place of its kind's and mode's speed. */
    public SpeedProfile with(Speed s) {
        List<Speed> all = new ArrayList<>(speeds.stream().filter(x -> !(x.kind().equals(s.kind()) && x.mode().equals(s.mode()))).toList());
        all.add(s);
        return new SpeedProfile(node, all);
    }

    // ---- the file

    /** Reads a profile file; an IOException names the file and what is wrong in it. */
    public static SpeedProfile read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        try {
            return fromProperties(p);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** Writes the profile atomically (readers see the old file or the whole new one). */
    public void write(Path file) throws IOException {
        AtomicFiles.writeString(file, text());
    }

    /** The file's text: sorted keys, a comment line first. */
    public String text() {
        StringBuilder sb = new StringBuilder("# fpgamr speed profile: values per second of one map, per engine kind and job mode\n");
        for (Map.Entry<String, String> e : properties().entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue()).append('\n');
        }
        return sb.toString();
    }

    private Map<String, String> properties() {
        Map<String, String> p = new TreeMap<>();
        node.forEach((k, v) -> p.put("node." + k, v));
        for (Speed s : speeds) {
            p.put(s.kind() + "." + s.mode(), format(s.valuesPerS()));
            p.put(s.kind() + "." + s.mode() + ".source", s.source().label());
            p.put(s.kind() + ".engine", s.engine());
            if (s.kind().equals("fpga")) {
                p.put("fpga.simulated", Boolean.toString(s.simulated()));
            }
        }
        return p;
    }

    /** Parses the file's text (for tests and for an operator's file given as a string). */
    public static SpeedProfile parse(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return fromProperties(p);
    }

    private static SpeedProfile fromProperties(Properties p) {
        Map<String, String> node = new TreeMap<>();
        List<Speed> speeds = new ArrayList<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("node.")) {
                node.put(key.substring("node.".length()), p.getProperty(key).strip());
            }
        }
        for (String kind : KINDS) {
            for (String mode : MODES) {
                String v = p.getProperty(kind + "." + mode);
                if (v == null) {
                    continue;
                }
                String src = p.getProperty(kind + "." + mode + ".source", "measured");
                speeds.add(new Speed(kind, mode, number(kind + "." + mode, v), Source.parse(src), p.getProperty(kind + ".engine", kind).strip(),
                    kind.equals("fpga") && Boolean.parseBoolean(p.getProperty("fpga.simulated", "false").strip())));
            }
        }
        return new SpeedProfile(node, speeds);
    }

    private static double number(String key, String v) {
        try {
            return Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number of values per second, got '" + v.strip() + "'");
        }
    }

    // ---- node attributes

    /**
     * The profile as YARN node attributes: names and values that YARN accepts (names
     * {@code [0-9a-zA-Z][0-9a-zA-Z-_]*}, values {@code [0-9a-zA-Z][0-9a-zA-Z-_.]*}):
     * {@code fpgamr-cpu-search=2.1e8}, {@code fpgamr-cpu-search-source=measured},
     * {@code fpgamr-cpu-engine=cpu_avx2}, {@code fpgamr-fpga-simulated=true}, {@code fpgamr-node-arch=amd64}.
     */
    public Map<String, String> toAttributes() {
        Map<String, String> a = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : properties().entrySet()) {
            a.put(ATTRIBUTE_PREFIX + e.getKey().replace('.', '-'), attributeValue(e.getValue()));
        }
        return a;
    }

    /**
     * A profile from node attributes (name without YARN's prefix to value): {@code operator} holds
     * what an operator set (YARN's centralized attributes), {@code node} what the node published;
     * an operator's speed wins, and is labelled {@code operator} whatever its attributes say.
     */
    public static SpeedProfile fromAttributes(Map<String, String> node, Map<String, String> operator) {
        Properties p = new Properties();
        for (Map<String, String> attrs : List.of(node, operator)) {
            for (Map.Entry<String, String> e : attrs.entrySet()) {
                if (e.getKey().startsWith(ATTRIBUTE_PREFIX)) {
                    p.setProperty(propertyKey(e.getKey().substring(ATTRIBUTE_PREFIX.length())), e.getValue());
                }
            }
        }
        for (String kind : KINDS) {
            for (String mode : MODES) {
                if (operator.containsKey(ATTRIBUTE_PREFIX + kind + "-" + mode)) {
                    p.setProperty(kind + "." + mode + ".source", Source.OPERATOR.label());
                }
            }
        }
        return fromProperties(p);
    }

    /** {@code cpu-search-source} back to {@code cpu.search.source}; {@code node-arch} to {@code node.arch}. */
    private static String propertyKey(String attribute) {
        int dash = attribute.indexOf('-');
        if (dash < 0) {
            return attribute;
        }
        String head = attribute.substring(0, dash);
        String rest = attribute.substring(dash + 1);
        if (head.equals("node")) {
            return "node." + rest;
        }
        return head + "." + rest.replace('-', '.');
    }

    /** A value YARN accepts: characters outside {@code [0-9a-zA-Z-_.]} become {@code _}. */
    private static String attributeValue(String v) {
        String s = v.replaceAll("[^0-9a-zA-Z._-]", "_");
        return s.isEmpty() || !Character.isLetterOrDigit(s.charAt(0)) ? "x" + s : s;
    }

    /** A speed as the file and the attributes write it: {@code 2.1e8}, no sign, no '+'. */
    static String format(double v) {
        return String.format(Locale.ROOT, "%.4e", v).replace("e+", "e");
    }
}
