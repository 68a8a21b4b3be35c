package io.fpgamr.energy.source;

/** The power of one domain of a source (a RAPL package, an hwmon channel, the UPS load) in watts. */
public record DomainPower(String domain, double watts) {
    public DomainPower {
        if (domain == null || domain.isBlank()) {
            throw new IllegalArgumentException("domain must be named");
        }
        if (!Double.isFinite(watts) || watts < 0) {
            throw new IllegalArgumentException(domain + ": power must be a finite non-negative number of watts, got " + watts);
        }
    }
}
