package io.fpgamr.energy.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** The registry of source kinds, and the search for the ones a node has (and why the rest are absent). */
public final class Discovery {
    /** Every kind, in order of preference for a node's total: whole-node meters, then RAPL, then a declared wattage. */
    public static final List<SourceKind> KINDS = List.of(ScopeSource.KIND, ApcupsdSource.KIND, IpmiSource.KIND, HwmonSource.KIND,
        RaplSource.KIND, DeclaredSource.KIND);

    private Discovery() {
    }

    public static List<String> names() {
        return KINDS.stream().map(SourceKind::name).toList();
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
        for (SourceKind kind : cfg.kinds()) {
            try {
                found.add(kind.opener().open(cfg.settings().under("sources." + kind.name()), cfg.timeoutMs()));
            } catch (IOException | RuntimeException e) {
                absent.add(new Absent(kind.name(), e.getMessage()));
            }
        }
        // the configured primary first, then in the registry's order
        found.sort(Comparator.comparingInt(s -> s.kind().equals(cfg.primary()) ? -1 : names().indexOf(s.kind())));
        return new Result(List.copyOf(found), List.copyOf(absent));
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
