package io.fpgamr.accel;

import io.fpgamr.accel.fpga.DeviceSpec;
import java.util.Map;
import java.util.Set;

/**
 * Which MD5 engine to open, parsed once where it enters (the command line, a job's configuration)
 * and passed down as a value to {@link Engines#open(EngineSpec, int)}. Immutable; its
 * {@link #toString()} is the canonical text that {@link #parse} reads back to an equal value:
 *
 * <ul>
 *   <li>{@code java}: the pure-Java engine;
 *   <li>{@code cpu}: the best native kernel this CPU runs; {@code cpu:KERNEL} that kernel
 *       ({@code scalar}, {@code avx2}, {@code avx512}, {@code neon});
 *   <li>{@code fpga:DEVICE}: the FPGA at a driver spec ({@link DeviceSpec}); {@code fpga} without a
 *       device takes the one of {@value Engines#DEVICE_ENV};
 *   <li>{@code auto}, {@code auto:DEVICE}: that FPGA when it opens, else {@code cpu}.
 * </ul>
 *
 * @param kind what hashes
 * @param kernel {@code cpu}: the kernel, null for the best this CPU runs; null otherwise
 * @param device {@code fpga}, {@code auto}: the device, null for the environment's; null otherwise
 */
public record EngineSpec(Kind kind, String kernel, DeviceSpec device) {
    /** The CPU kernels libfpgamr may have. */
    public static final Set<String> KERNELS = Set.of("scalar", "avx2", "avx512", "neon");

    public enum Kind {
        JAVA, CPU, FPGA, AUTO;

        String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public EngineSpec {
        if (kind == null) {
            throw new IllegalArgumentException("no engine kind");
        }
        if (kernel != null && (kind != Kind.CPU || !KERNELS.contains(kernel))) {
            throw new IllegalArgumentException("unknown CPU kernel '" + kernel + "' (cpu:scalar, cpu:avx2, cpu:avx512, cpu:neon)");
        }
        if (device != null && !usesFpga(kind)) {
            throw new IllegalArgumentException("a " + kind.key() + " engine takes no FPGA device");
        }
    }

    public static EngineSpec java() {
        return new EngineSpec(Kind.JAVA, null, null);
    }

    public static EngineSpec cpu() {
        return new EngineSpec(Kind.CPU, null, null);
    }

    /** The FPGA at {@code device}, or the environment's when null. */
    public static EngineSpec fpga(DeviceSpec device) {
        return new EngineSpec(Kind.FPGA, null, device);
    }

    /** The FPGA at {@code device} (the environment's when null) when it opens, else the CPU. */
    public static EngineSpec auto(DeviceSpec device) {
        return new EngineSpec(Kind.AUTO, null, device);
    }

    /**
     * Reads a spec.
     *
     * @throws IllegalArgumentException naming the valid specs, or what is wrong with the device
     */
    public static EngineSpec parse(String spec) {
        String s = spec == null ? "" : spec.strip();
        int colon = s.indexOf(':');
        String head = colon < 0 ? s : s.substring(0, colon);
        String rest = colon < 0 ? "" : s.substring(colon + 1).strip();
        for (Kind k : Kind.values()) {
            if (!k.key().equals(head)) {
                continue;
            }
            return switch (k) {
                case JAVA -> {
                    if (colon >= 0) {
                        throw unknown(s);
                    }
                    yield java();
                }
                case CPU -> new EngineSpec(Kind.CPU, rest.isEmpty() ? null : rest, null);
                case FPGA, AUTO -> new EngineSpec(k, null, rest.isEmpty() ? null : DeviceSpec.parse(rest));
            };
        }
        throw unknown(s);
    }

    private static IllegalArgumentException unknown(String s) {
        return new IllegalArgumentException("unknown engine spec '" + s
                + "' (java, cpu, cpu:scalar|avx2|avx512|neon, fpga:<device>, auto, auto:<device>)");
    }

    private static boolean usesFpga(Kind k) {
        return k == Kind.FPGA || k == Kind.AUTO;
    }

    /** True for {@code fpga} and {@code auto}: the engines that open a device. */
    public boolean usesFpga() {
        return usesFpga(kind);
    }

    /** This spec with another device ({@code fpga} and {@code auto} only). */
    public EngineSpec withDevice(DeviceSpec d) {
        return new EngineSpec(kind, kernel, d);
    }

    /**
     * In a YARN container that the NodeManager gave a device ({@value Engines#DEVICE_ENV}), an
     * {@code fpga} or {@code auto} spec opens that device, whatever device the job named (every
     * container of the job would otherwise open the same one); other specs, and every spec
     * outside such a container, stay as they are.
     */
    public EngineSpec inContainer(Map<String, String> env) {
        String assigned = env.get(Engines.DEVICE_ENV);
        if (!usesFpga() || assigned == null || assigned.isBlank()) {
            return this;
        }
        return withDevice(DeviceSpec.parse(assigned));
    }

    /** The canonical text: {@code java}, {@code cpu}, {@code cpu:avx2}, {@code fpga:vsim:pipelines=4}, {@code auto}, ... */
    @Override
    public String toString() {
        if (kernel != null) {
            return kind.key() + ":" + kernel;
        }
        return device != null ? kind.key() + ":" + device : kind.key();
    }
}
