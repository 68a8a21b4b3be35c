package io.fpgamr.energy;

import io.fpgamr.energy.config.ConfigReader;
import io.fpgamr.energy.config.Setting;
import io.fpgamr.energy.config.Setting.Scope;
import io.fpgamr.energy.config.Values;
import io.fpgamr.energy.source.Discovery;
import io.fpgamr.energy.source.SourceConfig;
import io.fpgamr.energy.source.SourceKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.commons.cli.CommandLine;

/**
 * A node's energy configuration: its power sources and their settings, the node's name and type,
 * the sampling period, the progress spool, the exporter's address and the launcher's exporters.
 * One YAML file holds any of them ({@code --config FILE}, see energy/README.md), and each has a flag
 * that overrides the file; {@link #SETTINGS} lists them all.
 */
public final class EnergyConfig {
    public static final long DEFAULT_PERIOD_MS = 1000;
    /** The environment variable holding the launcher's energy flags (see {@link #fromOptions}). */
    public static final String OPTS_ENV = "FPGAMR_ENERGY_OPTS";

    /** The flags `fpgamr energy sources` takes. */
    public static final Set<Scope> SOURCES = Set.of(Scope.SOURCES);
    /** The flags the exporter takes. */
    public static final Set<Scope> EXPORTER = Set.of(Scope.SOURCES, Scope.NODE, Scope.EXPORTER);
    /** The flags the job launcher takes. */
    public static final Set<Scope> LAUNCHER = Set.of(Scope.SOURCES, Scope.NODE, Scope.LAUNCHER);

    /** Every setting: the node's, the exporter's, the launcher's, then each source kind's. */
    public static final List<Setting> SETTINGS = settings();

    private static List<Setting> settings() {
        List<Setting> all = new ArrayList<>(List.of(
            Setting.of("sources", "--sources", Setting.listOf(Setting.oneOf(Discovery.names())),
                "the source kinds to look for (in the file: a mapping of each kind to its settings); default every kind"),
            Setting.of("primary", "--primary", Setting.oneOf(Discovery.names()), "the kind that gives the node's total; default the best found"),
            Setting.of("timeout_ms", "--timeout-ms", Setting.integer(50, 600_000), "how long a network or command source may take to answer")
                .withDefault(2000L),
            Setting.of("node", "--node", Setting.TEXT, "this node's name; default the host name").in(Scope.NODE),
            Setting.of("node_type", "--node-type", Setting.TEXT, "x86, arm or arm-fpga; default detected").in(Scope.NODE),
            Setting.of("period_ms", "--period-ms", Setting.integer(10, 3_600_000), "the sampling period").withDefault(DEFAULT_PERIOD_MS)
                .in(Scope.NODE),
            Setting.of("spool", "--spool", Setting.PATH, "the progress spool folder; default $" + ProgressSpool.ENV).in(Scope.NODE),
            Setting.of("exporters", "--exporters", Setting.listOf(Setting.matching("[^:\\s]+:\\d{1,5}", "HOST:PORT")),
                "the node exporters of a real cluster, whose samples the launcher fetches; default: sample this machine").in(Scope.LAUNCHER),
            Setting.of("exporter.bind", "--bind", Setting.TEXT, "the address the exporter listens on").withDefault("0.0.0.0").in(Scope.EXPORTER),
            Setting.of("exporter.port", "--port", Setting.integer(0, 65535), "the exporter's port (0: any free one)").withDefault(9464L)
                .in(Scope.EXPORTER),
            Setting.of("exporter.resourcemanager", "--resourcemanager", Setting.matching("https?://[^\\s/]+/?", "http://HOST:PORT"),
                "YARN's ResourceManager (web address): the exporter shows a job's progress only from files its submitter owns; "
                    + "default: from any writer of the spool").in(Scope.EXPORTER),
            Setting.of("exporter.retain_hours", "--retain-hours", Setting.integer(1, 24 * 31), "how long the exporter keeps samples")
                .withDefault(24L).in(Scope.EXPORTER)));
        for (SourceKind k : Discovery.KINDS) {
            all.addAll(k.settings());
        }
        return List.copyOf(all);
    }

    private final Values values;

    private EnergyConfig(Values values) {
        this.values = values;
    }

    /**
     * The configuration from a command's flags: {@code --config FILE} and the flags of the settings
     * in {@code scopes} ({@link #SOURCES}, {@link #EXPORTER}, {@link #LAUNCHER}), which override the file.
     *
     * @throws ConfigReader.Invalid with a one-line message naming the bad setting or flag
     */
    public static EnergyConfig fromFlags(List<String> args, Set<Scope> scopes) {
        List<Setting> flags = SETTINGS.stream().filter(s -> scopes.contains(s.scope())).toList();
        CommandLine cl = ConfigReader.parse(ConfigReader.options(flags, true), args.stream().filter(x -> !x.isBlank()).toList());
        if (!cl.getArgList().isEmpty()) {
            throw new ConfigReader.Invalid("unexpected argument '" + cl.getArgList().get(0) + "'");
        }
        return new EnergyConfig(ConfigReader.read(SETTINGS, cl));
    }

    /** This machine, every source kind with its defaults, 1 Hz, the spool of $FPGAMR_ENERGY_SPOOL if set. */
    public static EnergyConfig defaults() {
        return fromOptions(List.of());
    }

    /**
     * The launcher's configuration: the flags in $FPGAMR_ENERGY_OPTS (see {@link #fromOptions}).
     *
     * @throws IllegalArgumentException with a one-line message naming the bad setting
     */
    public static EnergyConfig fromEnvironment() {
        String opts = System.getenv(OPTS_ENV);
        return fromOptions(opts == null ? List.of() : words(opts));
    }

    /**
     * The launcher's configuration from flags: {@code --config FILE}, the source flags of
     * {@code fpgamr energy sources} and --node, --node-type, --period-ms, --spool, --exporters.
     *
     * @throws IllegalArgumentException with a one-line message naming the bad setting
     */
    public static EnergyConfig fromOptions(List<String> args) {
        return fromFlags(args, LAUNCHER);
    }

    /** Splits at spaces outside single or double quotes, as a shell would for plain words. */
    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean any = false;
        char quote = 0;
        for (char c : s.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    cur.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any || cur.length() > 0) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
            } else {
                cur.append(c);
            }
        }
        if (quote != 0) {
            throw new ConfigReader.Invalid("unbalanced quote in $" + OPTS_ENV + ": " + s);
        }
        if (any || cur.length() > 0) {
            out.add(cur.toString());
        }
        return out;
    }

    /** Where this node's power sources are looked for. */
    public SourceConfig sources() {
        List<String> wanted = values.list("sources");
        List<SourceKind> kinds = Discovery.KINDS.stream().filter(k -> wanted.isEmpty() || wanted.contains(k.name())).toList();
        return new SourceConfig(kinds, values, values.text("primary"), (int) values.integer("timeout_ms"));
    }

    public String node() {
        return values.has("node") ? values.text("node") : NodeType.hostName();
    }

    public String nodeType() {
        return values.has("node_type") ? values.text("node_type") : NodeType.detect();
    }

    public long periodMs() {
        return values.integer("period_ms");
    }

    /** The progress spool: as configured, else $FPGAMR_ENERGY_SPOOL, else null (none). */
    public Path spool() {
        if (values.has("spool")) {
            return values.path("spool");
        }
        String env = System.getenv(ProgressSpool.ENV);
        return env != null && !env.isBlank() ? Path.of(env) : null;
    }

    /** The exporter's spool: as configured, else $FPGAMR_ENERGY_SPOOL, else {@link ProgressSpool#DEFAULT_DIR}. */
    public Path exporterSpool() {
        return spool() != null ? spool() : ProgressSpool.DEFAULT_DIR;
    }

    /** The node exporters ({@code host:port}) whose samples the launcher fetches; empty: sample this machine. */
    public List<String> exporters() {
        return values.list("exporters");
    }

    /** Whether the whole job runs on this machine, which is sampled here (local runner, embedded cluster). */
    public boolean singleMachine() {
        return exporters().isEmpty();
    }

    public String bind() {
        return values.text("exporter.bind");
    }

    public int port() {
        return (int) values.integer("exporter.port");
    }

    /** The ResourceManager whose word binds each progress file to its job's owner, or null: none, any writer is taken. */
    public java.net.URI resourceManager() {
        return values.has("exporter.resourcemanager") ? java.net.URI.create(values.text("exporter.resourcemanager")) : null;
    }

    public long retentionMs() {
        return values.integer("exporter.retain_hours") * 3600 * 1000;
    }
}
