package io.fpgamr.accel;

import io.fpgamr.accel.fpga.DeviceSpec;
import io.fpgamr.accel.fpga.FpgaEngine;
import io.fpgamr.accel.fpga.FpgaOpenException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Opens the engine an {@link EngineSpec} names:
 * <ul>
 *   <li>{@code java}: the pure-Java engine;
 *   <li>{@code cpu}: the best native kernel this CPU runs (or the one
 *       FPGAMR_KERNEL names); where the jar has no native build for the platform, the Java engine
 *       with a logged warning: its {@link Md5Engine#name()} is then {@code java}, so a job can
 *       count the fallback;
 *   <li>{@code cpu:scalar}, {@code cpu:avx2}, {@code cpu:avx512}, {@code cpu:neon}: that kernel,
 *       or an {@link IllegalArgumentException} when it is not built for this platform or the CPU
 *       lacks it (never a silent fallback);
 *   <li>{@code fpga:<device>}: the FPGA engine ({@link FpgaEngine}) on that driver spec, e.g.
 *       {@code fpga:vsim:pipelines=4} or {@code fpga:uio:/dev/uio0}; {@code fpga} without a device
 *       takes the device from {@value #DEVICE_ENV}; an {@link IllegalArgumentException} with the
 *       driver's message when it cannot open (busy, absent, another design, no device given);
 *   <li>{@code auto}: the FPGA of {@value #DEVICE_ENV} when set and free, else {@code cpu};
 *       {@code auto:<device>}: that FPGA when free, else {@code cpu}. The fallback is logged with
 *       its reason (no device configured, busy, absent, no driver for the platform).
 * </ul>
 * {@code threads} is the number of threads one batch call may use (the container's vcores);
 * {@code <= 0} means one per CPU.
 */
public final class Engines {
    private static final Logger LOG = System.getLogger(Engines.class.getName());
    /** The FPGA device of this process (a driver spec), as a YARN container that was given one gets it. */
    public static final String DEVICE_ENV = "FPGAMR_DEVICE";

    private Engines() {
    }

    public static Md5Engine open(EngineSpec spec, int threads) {
        return open(spec, threads, NativeMd5Engine::open, System.getenv());
    }

    /** {@link #open(EngineSpec, int)} of a spec given as text, parsed here (the text's edge). */
    public static Md5Engine open(String spec, int threads) {
        return open(EngineSpec.parse(spec), threads);
    }

    /** As {@link #open(EngineSpec, int)}, with the native opener and the environment given (tests replace them). */
    static Md5Engine open(EngineSpec spec, int threads, BiFunction<String, Integer, Md5Engine> nativeOpener,
            Map<String, String> env) {
        switch (spec.kind()) {
            case JAVA:
                return new JavaMd5Engine();
            case CPU:
                if (spec.kernel() == null) {
                    try {
                        return nativeOpener.apply(null, threads);
                    } catch (UnsatisfiedLinkError e) {
                        LOG.log(Level.WARNING, "no native MD5 engine (" + e.getMessage()
                                + "); falling back to the pure-Java engine");
                        return new JavaMd5Engine();
                    }
                }
                try {
                    return nativeOpener.apply(spec.kernel(), threads);
                } catch (UnsatisfiedLinkError e) {
                    throw new IllegalArgumentException("engine '" + spec + "' not available: " + e.getMessage(), e);
                }
            case FPGA: {
                DeviceSpec device = spec.device() != null ? spec.device() : DeviceSpec.parse(env.getOrDefault(DEVICE_ENV, ""));
                try {
                    return FpgaEngine.open(device, env);
                } catch (UnsatisfiedLinkError e) {
                    throw new IllegalArgumentException("engine '" + spec + "' not available: " + e.getMessage(), e);
                }
            }
            default: {
                String given = env.get(DEVICE_ENV);
                if (spec.device() == null && (given == null || given.isBlank())) {
                    LOG.log(Level.INFO, "auto: no FPGA device configured (" + DEVICE_ENV + " or --device); using the CPU");
                    return open(EngineSpec.cpu(), threads, nativeOpener, env);
                }
                DeviceSpec device = spec.device() != null ? spec.device() : DeviceSpec.parse(given);
                try {
                    Md5Engine e = FpgaEngine.open(device, env);
                    LOG.log(Level.INFO, "auto: using the FPGA " + e.name() + " (" + device + ")");
                    return e;
                } catch (FpgaOpenException e) {
                    if (!e.busy() && !e.absent()) {
                        throw e;
                    }
                    LOG.log(Level.INFO, "auto: FPGA " + (e.busy() ? "busy" : "absent") + " (" + e.getMessage()
                            + "); using the CPU");
                } catch (UnsatisfiedLinkError e) {
                    LOG.log(Level.INFO, "auto: no FPGA driver for this platform (" + e.getMessage() + "); using the CPU");
                }
                return open(EngineSpec.cpu(), threads, nativeOpener, env);
            }
        }
    }
}
