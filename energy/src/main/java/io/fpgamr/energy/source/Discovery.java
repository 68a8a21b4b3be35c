package io.fpgamr.energy.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Lists what power sources a node has, and why each missing one is missing. */
public final class Discovery {
    private Discovery() {
    }

    /** A source kind the node does not have, with the reason. */
    public record Absent(String kind, String reason) {
    }

    /** The sources found, in order of preference for the node's total, and the ones absent. */
    public record Result(List<PowerSource> found, List<Absent> absent) {
        public boolean none() {
            return found.isEmpty();
        }

        /** The source that gives the node's total, or empty with no source. */
        public Optional<PowerSource> primary() {
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
        }
    }

    public static Result discover(SourceConfig cfg) {
        List<PowerSource> found = new ArrayList<>();
        List<Absent> absent = new ArrayList<>();
        for (String kind : SourceConfig.KINDS) {
            if (!cfg.wants(kind)) {
                continue;
            }
            try {
                PowerSource s = open(kind, cfg);
                if (s != null) {
                    found.add(s);
                }
            } catch (IOException | RuntimeException e) {
                absent.add(new Absent(kind, e.getMessage()));
            }
        }
        found.sort(Comparator.comparingInt(s -> rank(s, cfg.primary())));
        return new Result(List.copyOf(found), List.copyOf(absent));
    }

    /** Lower is preferred: the configured primary, then whole-node meters, then RAPL, then declared. */
    static int rank(PowerSource s, String primary) {
        if (s.kind().equals(primary)) {
            return -1;
        }
        return SourceConfig.KINDS.indexOf(s.kind());
    }

    private static PowerSource open(String kind, SourceConfig cfg) throws IOException {
        switch (kind) {
            case "scope":
                if (cfg.scopeCsv() == null) {
                    throw new IOException("no live trace configured (--scope-csv FILE --supply-volts V --shunt-ohms R)");
                }
                return new ScopeSource(cfg.scopeCsv(), cfg.shunt(), false);
            case "apcupsd": {
                String hp = cfg.apcupsd() != null ? cfg.apcupsd() : "127.0.0.1:" + ApcupsdSource.DEFAULT_PORT;
                int colon = hp.lastIndexOf(':');
                String host = colon > 0 ? hp.substring(0, colon) : hp;
                int port = colon > 0 ? Integer.parseInt(hp.substring(colon + 1)) : ApcupsdSource.DEFAULT_PORT;
                int timeout = cfg.apcupsd() != null ? cfg.timeoutMs() : Math.min(cfg.timeoutMs(), 300);
                try {
                    return ApcupsdSource.open(host, port, timeout, cfg.upsNominalWatts());
                } catch (IOException e) {
                    throw new IOException("no apcupsd NIS answering at " + hp + ": " + e.getMessage(), e);
                }
            }
            case "ipmi": {
                List<String> cmd = cfg.ipmiCommand();
                if (cmd == null) {
                    if (!IpmiSource.hasLocalBmc(cfg.devRoot())) {
                        throw new IOException("no BMC device (" + cfg.devRoot().resolve("ipmi0") + ")");
                    }
                    if (!onPath("ipmitool")) {
                        throw new IOException("a BMC device exists but ipmitool is not installed");
                    }
                    cmd = IpmiSource.DEFAULT_COMMAND;
                }
                return IpmiSource.open(cmd, cfg.timeoutMs());
            }
            case "hwmon":
                return HwmonSource.open(cfg.hwmonRoot(), cfg.hwmonChannels());
            case "rapl":
                return RaplSource.open(cfg.powercapRoot());
            case "declared":
                if (cfg.declaredWatts() == null) {
                    throw new IOException("no wattage declared (--declare-watts W)");
                }
                return new DeclaredSource(cfg.declaredWatts());
            default:
                throw new IllegalArgumentException(kind);
        }
    }

    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
