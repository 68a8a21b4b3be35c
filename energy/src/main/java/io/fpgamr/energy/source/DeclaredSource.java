package io.fpgamr.energy.source;

import java.util.List;

/**
 * A wattage the user declares for a node that has no meter. Always labelled declared: reports and
 * metrics carry {@code measured=false} for it, and it is chosen for a node's total only when the
 * node has no measuring source.
 */
public final class DeclaredSource implements PowerSource {
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
        return "declared";
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
