package io.fpgamr.energy.source;

import io.fpgamr.energy.config.Setting;
import java.io.IOException;
import java.util.List;

/**
 * A wattage the user declares for a node that has no meter. Always labelled declared: reports and
 * metrics carry {@code measured=false} for it, and it is chosen for a node's total only when the
 * node has no measuring source.
 */
public final class DeclaredSource implements PowerSource {
    public static final SourceKind KIND = new SourceKind("declared", List.of(
        Setting.of("watts", "--declare-watts", Setting.POSITIVE, "a wattage you state for this node: labelled declared, never measured")),
        (o, timeoutMs) -> {
            if (!o.has("watts")) {
                throw new IOException("no wattage declared (--declare-watts W)");
            }
            return new DeclaredSource(o.number("watts"));
        });

    private final double watts;

    public DeclaredSource(double watts) {
        if (!Double.isFinite(watts) || watts <= 0) {
            throw new IllegalArgumentException("a declared power must be a positive number of watts, got " + watts);
        }
        this.watts = watts;
    }

    public double watts() {
        return watts;
    }

    @Override
    public String kind() {
        return KIND.name();
    }

    @Override
    public String describe() {
        return "declared by the user: " + watts + " W (not measured)";
    }

    @Override
    public Coverage coverage() {
        return Coverage.DECLARED;
    }

    @Override
    public List<DomainPower> read(long nowMs) {
        return List.of(new DomainPower("declared", watts));
    }
}
