package io.fpgamr.energy;

import io.fpgamr.energy.source.SourceConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * How the job launcher measures a job.
 *
 * @param sources   where this machine's power sources are looked for
 * @param node      this machine's node name (default: its host name)
 * @param nodeType  x86, arm or arm-fpga (default: detected)
 * @param periodMs  the sampling period (default 1000 ms, as the thesis)
 * @param spool     the progress spool the node exporter reads, or null for none
 * @param exporters the node exporters ({@code host:port}) of a real cluster's nodes: the monitor
 *                  then fetches their samples at the end instead of sampling here; empty: sample
 *                  this machine, on which the whole job runs (local runner or embedded cluster)
 */
public record EnergyConfig(SourceConfig sources, String node, String nodeType, long periodMs, Path spool, List<String> exporters) {
    public static final long DEFAULT_PERIOD_MS = 1000;

    public EnergyConfig {
        exporters = List.copyOf(exporters);
        if (periodMs < 10) {
            throw new IllegalArgumentException("the sampling period must be at least 10 ms, got " + periodMs);
        }
    }

    /** This machine, its own sources, 1 Hz, the spool of $FPGAMR_ENERGY_SPOOL if set. */
    public static EnergyConfig defaults() {
        String env = System.getenv(ProgressSpool.ENV);
        return new EnergyConfig(SourceConfig.defaults(), NodeType.hostName(), NodeType.detect(), DEFAULT_PERIOD_MS,
            env != null && !env.isBlank() ? Path.of(env) : null, List.of());
    }

    /** The environment variable holding the launcher's energy options (see {@link #fromOptions}). */
    public static final String OPTS_ENV = "FPGAMR_ENERGY_OPTS";

    /**
     * The launcher's configuration from the environment: the options in $FPGAMR_ENERGY_OPTS (see
     * {@link #fromOptions}) and the spool of $FPGAMR_ENERGY_SPOOL.
     *
     * @throws IllegalArgumentException with a one-line message naming the bad option
     */
    public static EnergyConfig fromEnvironment() {
        String opts = System.getenv(OPTS_ENV);
        return fromOptions(opts == null ? List.of() : words(opts));
    }

    /** Splits at spaces outside single or double quotes, as a shell would for plain words. */
    static List<String> words(String s) {
        List<String> out = new java.util.ArrayList<>();
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
            throw new IllegalArgumentException("unbalanced quote in $" + OPTS_ENV + ": " + s);
        }
        if (any || cur.length() > 0) {
            out.add(cur.toString());
        }
        return out;
    }

    /**
     * A configuration from command-line style options: the source options of
     * {@code fpgamr energy sources} (--declare-watts W, --sources KIND,..., --powercap-root DIR,
     * --apcupsd HOST:PORT, --ipmi-command "CMD", --scope-csv FILE --supply-volts V --shunt-ohms R,
     * ...) and --node NAME, --node-type TYPE, --period-ms MS, --spool DIR, --exporters HOST:PORT,...
     *
     * @throws IllegalArgumentException with a one-line message naming the bad option
     */
    public static EnergyConfig fromOptions(List<String> args) {
        List<String> a = args.stream().filter(x -> !x.isBlank()).toList();
        try {
            java.util.Set<String> names = new java.util.LinkedHashSet<>(EnergyCli.SOURCE_OPTS);
            names.addAll(List.of("--node", "--node-type", "--period-ms", "--spool", "--exporters"));
            EnergyCli.Opts o = new EnergyCli.Opts(a, names, java.util.Set.of());
            o.noPositional("energy");
            EnergyConfig c = defaults().withSources(EnergyCli.sourceConfig(o));
            c = c.withNode(o.get("--node") != null ? o.get("--node") : c.node(), o.get("--node-type") != null ? o.get("--node-type") : c.nodeType());
            c = c.withPeriodMs(o.integer("--period-ms", DEFAULT_PERIOD_MS, 10, 3_600_000));
            if (o.get("--spool") != null) {
                c = c.withSpool(Path.of(o.get("--spool")));
            }
            if (o.get("--exporters") != null) {
                List<String> hps = new java.util.ArrayList<>();
                for (String hp : o.get("--exporters").split(",")) {
                    if (!hp.trim().matches("[^:\\s]+:\\d{1,5}")) {
                        throw new EnergyCli.UsageError("--exporters must list HOST:PORT,..., got '" + hp.trim() + "'");
                    }
                    hps.add(hp.trim());
                }
                c = c.withExporters(hps);
            }
            return c;
        } catch (EnergyCli.UsageError e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    public EnergyConfig withSources(SourceConfig s) {
        return new EnergyConfig(s, node, nodeType, periodMs, spool, exporters);
    }

    public EnergyConfig withNode(String n, String type) {
        return new EnergyConfig(sources, n, type, periodMs, spool, exporters);
    }

    public EnergyConfig withPeriodMs(long ms) {
        return new EnergyConfig(sources, node, nodeType, ms, spool, exporters);
    }

    public EnergyConfig withSpool(Path dir) {
        return new EnergyConfig(sources, node, nodeType, periodMs, dir, exporters);
    }

    public EnergyConfig withExporters(List<String> hostPorts) {
        return new EnergyConfig(sources, node, nodeType, periodMs, spool, hostPorts);
    }

    public boolean singleMachine() {
        return exporters.isEmpty();
    }
}
