package io.fpgamr.energy.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One setting of the energy configuration: its key in the configuration file (dotted:
 * {@code sources.hwmon.root} is {@code root} under {@code hwmon} under {@code sources}), its
 * command-line flag, how its text becomes a value, its default, what it means, which commands take
 * the flag, and the settings it cannot go without.
 */
public record Setting(String key, String flag, Type type, Object defaultValue, String help, Scope scope, List<String> requires) {

    /** Which commands take the setting as a flag; a configuration file may hold every setting. */
    public enum Scope {
        /** Every command that looks for power sources: sources, exporter, the launcher. */
        SOURCES,
        /** The sampling node: exporter and launcher. */
        NODE,
        /** The exporter only. */
        EXPORTER,
        /** The job launcher only. */
        LAUNCHER
    }

    /**
     * Turns a setting's text into its value: one string, or several (a repeated flag, a YAML
     * list). Throws {@link IllegalArgumentException} saying what the value must be ("must be a
     * positive number, got '0'"); the reader puts the file and key, or the flag, in front.
     */
    @FunctionalInterface
    public interface Type {
        Object parse(List<String> text);
    }

    public Setting {
        requires = List.copyOf(requires);
    }

    public static Setting of(String key, String flag, Type type, String help) {
        return new Setting(key, flag, type, null, help, Scope.SOURCES, List.of());
    }

    public Setting withDefault(Object value) {
        return new Setting(key, flag, type, value, help, scope, requires);
    }

    public Setting in(Scope s) {
        return new Setting(key, flag, type, defaultValue, help, s, requires);
    }

    /** Settings (keys beside this one) that must be given with this one. */
    public Setting requires(String... keys) {
        return new Setting(key, flag, type, defaultValue, help, scope, Arrays.asList(keys));
    }

    /** The same setting one level down in the file, e.g. {@code root} under {@code sources.rapl}. */
    public Setting under(String prefix) {
        return new Setting(prefix + "." + key, flag, type, defaultValue, help, scope, requires.stream().map(k -> prefix + "." + k).toList());
    }

    // The types of value.

    public static final Type TEXT = Setting::last;

    public static final Type PATH = t -> Path.of(last(t));

    /** A finite number greater than zero (watts, volts, ohms). */
    public static final Type POSITIVE = number(Double::parseDouble, "a number", d -> Double.isFinite(d) && d > 0, "a positive number");

    public static Type integer(long min, long max) {
        return number(Long::parseLong, "an integer", n -> n >= min && n <= max, "between " + min + " and " + max);
    }

    /** Text that {@code parse} takes for {@code what} ("a number"), then held to {@code ok} (else "must be {@code rule}"). */
    private static <N> Type number(Function<String, N> parse, String what, Predicate<N> ok, String rule) {
        return t -> {
            String s = last(t);
            N n;
            try {
                n = parse.apply(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be " + what + ", got '" + s + "'");
            }
            if (!ok.test(n)) {
                throw new IllegalArgumentException("must be " + rule + ", got '" + s + "'");
            }
            return n;
        };
    }

    /** Every value, each split at commas (a repeated flag, a comma list, a YAML list), each of type {@code item}. */
    public static Type listOf(Type item) {
        return t -> {
            List<Object> out = new ArrayList<>();
            for (String s : t) {
                for (String part : s.split(",")) {
                    if (!part.isBlank()) {
                        out.add(item.parse(List.of(part.trim())));
                    }
                }
            }
            if (out.isEmpty()) {
                throw new IllegalArgumentException("must not be empty");
            }
            return List.copyOf(out);
        };
    }

    /** A command: one string split at spaces, or a YAML list of its words. */
    public static final Type COMMAND = t -> t.size() == 1 ? List.of(last(t).split("\\s+")) : List.copyOf(t);

    /** Text matching {@code regex}, described as {@code what} in the error. */
    public static Type matching(String regex, String what) {
        return t -> {
            String s = last(t);
            if (!s.matches(regex)) {
                throw new IllegalArgumentException("must be " + what + ", got '" + s + "'");
            }
            return s;
        };
    }

    public static Type oneOf(List<String> names) {
        return matching(String.join("|", names.stream().map(java.util.regex.Pattern::quote).toList()), "one of " + String.join(", ", names));
    }

    public static final Type HOST_PORT = matching("[^:\\s]+(:\\d{1,5})?", "HOST or HOST:PORT");

    private static String last(List<String> t) {
        String s = t.isEmpty() ? "" : t.get(t.size() - 1);
        if (s.isBlank()) {
            throw new IllegalArgumentException("must not be empty");
        }
        return s.trim();
    }
}
