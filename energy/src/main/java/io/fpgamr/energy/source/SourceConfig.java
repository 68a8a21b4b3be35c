package io.fpgamr.energy.source;

import io.fpgamr.energy.config.Values;
import java.util.List;

/**
 * Where a node's power sources are looked for: the kinds to try, in {@link Discovery#KINDS}'s
 * order, the settings they are opened with, the kind that gives the node's total (null: the best
 * present) and how long a network or command source may take to answer.
 */
public record SourceConfig(List<SourceKind> kinds, Values settings, String primary, int timeoutMs) {
    public SourceConfig {
        kinds = List.copyOf(kinds);
    }
}
