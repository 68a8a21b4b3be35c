package io.fpgamr.energy.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.energy.Mappers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;

/**
 * Reads settings from the command line (commons-cli) and from a YAML configuration file named by
 * {@code --config} (Jackson's YAML module): the file first, the flags over it. Every value is
 * checked; the first bad one is an {@link Invalid} naming the file and key, or the flag, and what
 * is wrong with it.
 */
public final class ConfigReader {
    /** A bad setting: one line for the user, a usage error. */
    public static final class Invalid extends IllegalArgumentException {
        public Invalid(String message) {
            super(message);
        }
    }

    private static final String CONFIG = "config";

    private ConfigReader() {
    }

    /** The flags of {@code settings} (and {@code --config FILE} with {@code withConfig}) and a command's own options. */
    public static Options options(Collection<Setting> settings, boolean withConfig, Option... extra) {
        Options o = new Options();
        if (withConfig) {
            o.addOption(Option.builder().longOpt(CONFIG).hasArg().argName("FILE")
                .desc("the energy configuration (YAML, see energy/README.md); flags override it").build());
        }
        for (Setting s : settings) {
            o.addOption(Option.builder().longOpt(s.flag().substring(2)).hasArg().argName("VALUE")
                .desc(s.help() + " [" + s.key() + "]").build());
        }
        for (Option e : extra) {
            o.addOption(e);
        }
        return o;
    }

    public static CommandLine parse(Options options, List<String> args) {
        try {
            return DefaultParser.builder().setAllowPartialMatching(false).build().parse(options, args.toArray(String[]::new));
        } catch (UnrecognizedOptionException e) {
            throw new Invalid("unknown option " + e.getOption() + " (see fpgamr energy --help)");
        } catch (MissingArgumentException e) {
            throw new Invalid("--" + e.getOption().getLongOpt() + " needs a value");
        } catch (ParseException e) {
            throw new Invalid(e.getMessage());
        }
    }

    /** The values of {@code settings}: the {@code --config} file's, with the flags given over them. */
    public static Values read(List<Setting> settings, CommandLine cl) {
        Map<String, Setting> byKey = new LinkedHashMap<>();
        settings.forEach(s -> byKey.put(s.key(), s));
        Map<String, List<String>> text = new LinkedHashMap<>();
        Map<String, String> subject = new LinkedHashMap<>();
        String file = cl.hasOption(CONFIG) ? cl.getOptionValue(CONFIG) : null;
        if (file != null) {
            readFile(Path.of(file), byKey.keySet(), text);
            text.keySet().forEach(k -> subject.put(k, file + ": " + k));
        }
        for (Setting s : settings) {
            String name = s.flag().substring(2);
            if (cl.hasOption(name)) {
                text.put(s.key(), List.of(cl.getOptionValues(name)));
                subject.put(s.key(), s.flag());
            }
        }
        Map<String, Object> given = new LinkedHashMap<>();
        text.forEach((key, values) -> {
            try {
                given.put(key, byKey.get(key).type().parse(values));
            } catch (IllegalArgumentException e) {
                throw new Invalid(subject.get(key) + " " + e.getMessage());
            }
        });
        for (String key : given.keySet()) {
            List<String> missing = new ArrayList<>();
            boolean asFlag = subject.get(key).startsWith("--");
            for (String r : byKey.get(key).requires()) {
                if (!given.containsKey(r)) {
                    missing.add(asFlag ? byKey.get(r).flag() : r);
                }
            }
            if (!missing.isEmpty()) {
                throw new Invalid(subject.get(key) + " needs " + String.join(" and ", missing));
            }
        }
        return new Values(byKey, given, "");
    }

    /** The file's settings as text per key; unknown keys and files that are not YAML are errors. */
    private static void readFile(Path file, Set<String> keys, Map<String, List<String>> text) {
        JsonNode root;
        try {
            if (!Files.isRegularFile(file)) {
                throw new Invalid(file + ": no such file");
            }
            root = Mappers.YAML.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
            throw new Invalid(file + ": not YAML" + where + ": " + e.getOriginalMessage().lines().findFirst().orElse(""));
        } catch (IOException e) {
            throw new Invalid(file + ": " + e.getMessage());
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return;
        }
        if (!root.isObject()) {
            throw new Invalid(file + ": must be a mapping of settings (see energy/README.md)");
        }
        walk(file, root, "", keys, text);
    }

    private static void walk(Path file, JsonNode node, String prefix, Set<String> keys, Map<String, List<String>> text) {
        for (Map.Entry<String, JsonNode> f : node.properties()) {
            String key = prefix + f.getKey();
            JsonNode v = f.getValue();
            boolean setting = keys.contains(key);
            if (!setting && !isGroup(key, keys) || !setting && !v.isObject() && !v.isNull()) {
                throw unknown(file, key, keys);
            }
            if (v.isObject()) {
                if (setting) {
                    // a mapping that is also a setting: its keys are the value (sources: the kinds to look for)
                    List<String> names = new ArrayList<>();
                    v.fieldNames().forEachRemaining(names::add);
                    text.put(key, names);
                }
                walk(file, v, key + ".", keys, text);
            } else if (!v.isNull()) {
                List<String> values = new ArrayList<>();
                for (JsonNode e : v.isArray() ? v : List.of(v)) {
                    if (e.isContainerNode()) {
                        throw new Invalid(file + ": " + key + " must be a plain value or a list of them");
                    }
                    values.add(e.asText());
                }
                text.put(key, values);
            }
        }
    }

    private static boolean isGroup(String key, Set<String> keys) {
        return keys.stream().anyMatch(k -> k.startsWith(key + "."));
    }

    private static Invalid unknown(Path file, String key, Set<String> keys) {
        int dot = key.lastIndexOf('.');
        String parent = dot < 0 ? "" : key.substring(0, dot + 1);
        Set<String> known = new LinkedHashSet<>();
        for (String k : keys) {
            if (k.startsWith(parent)) {
                String rest = k.substring(parent.length());
                known.add(rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest);
            }
        }
        return new Invalid(file + ": " + key + " is not a setting (" + (parent.isEmpty() ? "settings" : "under " + parent.substring(0, dot) + ":")
            + " " + String.join(", ", known) + ")");
    }
}
