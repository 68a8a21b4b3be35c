package io.fpgamr.energy.source;

import io.fpgamr.energy.config.Setting;
import io.fpgamr.energy.config.Values;
import java.io.IOException;
import java.util.List;

/**
 * A kind of power source as the configuration names it: its name, its settings (in the file under
 * {@code sources.<name>}, each with its flag) and how to open one from them. Every source class
 * declares its own; {@link Discovery#KINDS} lists them.
 */
public record SourceKind(String name, List<Setting> settings, Opener opener) {

    @FunctionalInterface
    public interface Opener {
        /** Opens the source from its settings, or throws with the reason this node does not have it. */
        PowerSource open(Values settings, int timeoutMs) throws IOException;
    }

    public SourceKind {
        String prefix = "sources." + name;
        settings = settings.stream().map(s -> s.under(prefix)).toList();
    }
}
