package io.fpgamr.energy.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Validated settings: each key's value as given, or its setting's default. A view {@link #under}
 * a prefix reads keys relative to it, as a source kind reads its own settings.
 */
public final class Values {
    private final Map<String, Setting> settings;
    private final Map<String, Object> given;
    private final String prefix;

    Values(Map<String, Setting> settings, Map<String, Object> given, String prefix) {
        this.settings = Map.copyOf(settings);
        this.given = Map.copyOf(given);
        this.prefix = prefix;
    }

    public Values under(String p) {
        return new Values(settings, given, prefix + p + ".");
    }

    /** Whether the key was given (in the file or as a flag). */
    public boolean has(String key) {
        return given.containsKey(prefix + key);
    }

    /** The value given, else the default; null when there is neither. */
    public Object get(String key) {
        String k = prefix + key;
        Setting s = settings.get(k);
        if (s == null) {
            throw new IllegalStateException("no setting " + k);
        }
        return given.getOrDefault(k, s.defaultValue());
    }

    public String text(String key) {
        return (String) get(key);
    }

    public Path path(String key) {
        return (Path) get(key);
    }

    public Double number(String key) {
        return (Double) get(key);
    }

    public long integer(String key) {
        return (Long) get(key);
    }

    @SuppressWarnings("unchecked")
    public List<String> list(String key) {
        Object v = get(key);
        return v == null ? List.of() : (List<String>) v;
    }
}
