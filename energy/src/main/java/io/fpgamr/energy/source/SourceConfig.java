package io.fpgamr.energy.source;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Where a node's power sources are looked for. Every sysfs root is configurable so that tests (and
 * containers with a bind-mounted /sys) can point at a tree laid out as the kernel's.
 *
 * @param powercapRoot     the kernel's powercap class directory (RAPL)
 * @param hwmonRoot        the kernel's hwmon class directory
 * @param hwmonChannels    hwmon channels ({@code chip/label}) that make up the node's power; empty: all
 * @param apcupsd          {@code host:port} of apcupsd's NIS; null: probe 127.0.0.1:3551 only
 * @param upsNominalWatts  the UPS's nominal power where it reports none; null: use NOMPOWER
 * @param ipmiCommand      the command printing a DCMI power reading; null: {@code ipmitool dcmi power
 *                         reading} when the node has a BMC device
 * @param devRoot          where IPMI device nodes are looked for
 * @param scopeCsv         a live shunt trace a data logger appends to; null: none
 * @param shunt            the shunt's supply voltage and resistance, with {@code scopeCsv}
 * @param declaredWatts    a wattage the user declares for the node; null: none
 * @param only             source kinds to look for; empty: all
 * @param primary          the kind that gives the node's total; null: the best present
 * @param timeoutMs        how long a network or command source may take to answer
 */
public record SourceConfig(
    Path powercapRoot,
    Path hwmonRoot,
    List<String> hwmonChannels,
    String apcupsd,
    Double upsNominalWatts,
    List<String> ipmiCommand,
    Path devRoot,
    Path scopeCsv,
    ShuntFormula shunt,
    Double declaredWatts,
    Set<String> only,
    String primary,
    int timeoutMs) {

    public static final List<String> KINDS = List.of("scope", "apcupsd", "ipmi", "hwmon", "rapl", "declared");

    public SourceConfig {
        hwmonChannels = List.copyOf(hwmonChannels);
        ipmiCommand = ipmiCommand == null ? null : List.copyOf(ipmiCommand);
        only = Set.copyOf(only);
        for (String k : only) {
            if (!KINDS.contains(k)) {
                throw new IllegalArgumentException("unknown power source kind '" + k + "' (expected one of " + String.join(", ", KINDS) + ")");
            }
        }
        if (primary != null && !KINDS.contains(primary)) {
            throw new IllegalArgumentException("unknown power source kind '" + primary + "' (expected one of " + String.join(", ", KINDS) + ")");
        }
        if (scopeCsv != null && shunt == null) {
            throw new IllegalArgumentException("a scope trace needs --supply-volts and --shunt-ohms");
        }
    }

    /** The kernel's own places, no declared wattage, apcupsd probed on loopback only. */
    public static SourceConfig defaults() {
        return new SourceConfig(RaplSource.DEFAULT_ROOT, HwmonSource.DEFAULT_ROOT, List.of(), null, null, null,
            Path.of("/dev"), null, null, null, Set.of(), null, 2000);
    }

    public SourceConfig withRoots(Path powercap, Path hwmon, Path dev) {
        return new SourceConfig(powercap, hwmon, hwmonChannels, apcupsd, upsNominalWatts, ipmiCommand, dev, scopeCsv, shunt,
            declaredWatts, only, primary, timeoutMs);
    }

    public SourceConfig withDeclaredWatts(Double watts) {
        return new SourceConfig(powercapRoot, hwmonRoot, hwmonChannels, apcupsd, upsNominalWatts, ipmiCommand, devRoot, scopeCsv,
            shunt, watts, only, primary, timeoutMs);
    }

    public SourceConfig withApcupsd(String hostPort, Double nominalWatts) {
        return new SourceConfig(powercapRoot, hwmonRoot, hwmonChannels, hostPort, nominalWatts, ipmiCommand, devRoot, scopeCsv,
            shunt, declaredWatts, only, primary, timeoutMs);
    }

    public SourceConfig withIpmiCommand(List<String> command) {
        return new SourceConfig(powercapRoot, hwmonRoot, hwmonChannels, apcupsd, upsNominalWatts, command, devRoot, scopeCsv,
            shunt, declaredWatts, only, primary, timeoutMs);
    }

    public SourceConfig withScope(Path csv, ShuntFormula formula) {
        return new SourceConfig(powercapRoot, hwmonRoot, hwmonChannels, apcupsd, upsNominalWatts, ipmiCommand, devRoot, csv,
            formula, declaredWatts, only, primary, timeoutMs);
    }

    public SourceConfig withHwmonChannels(List<String> channels) {
        return new SourceConfig(powercapRoot, hwmonRoot, channels, apcupsd, upsNominalWatts, ipmiCommand, devRoot, scopeCsv,
            shunt, declaredWatts, only, primary, timeoutMs);
    }

    public SourceConfig withOnly(Set<String> kinds) {
        return new SourceConfig(powercapRoot, hwmonRoot, hwmonChannels, apcupsd, upsNominalWatts, ipmiCommand, devRoot, scopeCsv,
            shunt, declaredWatts, kinds, primary, timeoutMs);
    }

    public SourceConfig withPrimary(String kind) {
        return new SourceConfig(powercapRoot, hwmonRoot, hwmonChannels, apcupsd, upsNominalWatts, ipmiCommand, devRoot, scopeCsv,
            shunt, declaredWatts, only, kind, timeoutMs);
    }

    public SourceConfig withTimeoutMs(int ms) {
        return new SourceConfig(powercapRoot, hwmonRoot, hwmonChannels, apcupsd, upsNominalWatts, ipmiCommand, devRoot, scopeCsv,
            shunt, declaredWatts, only, primary, ms);
    }

    boolean wants(String kind) {
        return only.isEmpty() || only.contains(kind);
    }
}
