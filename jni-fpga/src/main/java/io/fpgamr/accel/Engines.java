package io.fpgamr.accel;

import io.fpgamr.accel.fpga.FpgaEngine;
import io.fpgamr.accel.fpga.FpgaOpenException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Opens an engine by spec string:
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
 *       {@code fpga:vsim:pipelines=4} or {@code fpga:uio:/dev/uio0}; {@code fpga:} (or {@code fpga})
 *       takes the device from {@value #DEVICE_ENV}; an {@link IllegalArgumentException} with the
 *       driver's message when it cannot open (busy, absent, another design, no device given);
 *   <li>{@code auto}: the FPGA of {@value #DEVICE_ENV} when set and free, else {@code cpu};
 *       {@code auto:<device>}: that FPGA when free, else {@code cpu}. The fallback is logged with
 *       its reason (no device configured, busy, absent, no driver for the platform); a malformed
 *       device spec is still an error.
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

    public static Md5Engine open(String spec, int threads) {
        return open(spec, threads, NativeMd5Engine::open);
    }

    /** As {@link #open(String, int)}, with the native opener given (tests replace it). */
    static Md5Engine open(String spec, int threads, BiFunction<String, Integer, Md5Engine> nativeOpener) {
        return open(spec, threads, nativeOpener, System.getenv());
    }

    /** As {@link #open(String, int)}, with the native opener and the environment given. */
    static Md5Engine open(String spec, int threads, BiFunction<String, Integer, Md5Engine> nativeOpener,
            Map<String, String> env) {
        String s = spec == null ? "" : spec.trim();
        if (s.equals("java")) {
            return new JavaMd5Engine();
        }
        if (s.equals("auto") || s.startsWith("auto:")) {
            String device = s.equals("auto") ? env.get(DEVICE_ENV) : s.substring(5);
            if (device == null || device.isBlank()) {
                LOG.log(Level.INFO, "auto: no FPGA device configured (" + DEVICE_ENV + " or --device); using the CPU");
                return open("cpu", threads, nativeOpener, env);
            }
            try {
                Md5Engine e = FpgaEngine.open(device.trim());
                LOG.log(Level.INFO, "auto: using the FPGA " + e.name() + " (" + device.trim() + ")");
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
            return open("cpu", threads, nativeOpener, env);
        }
        if (s.equals("cpu")) {
            try {
                return nativeOpener.apply(null, threads);
            } catch (UnsatisfiedLinkError e) {
                LOG.log(Level.WARNING, "no native MD5 engine (" + e.getMessage()
                        + "); falling back to the pure-Java engine");
                return new JavaMd5Engine();
            }
        }
        if (s.startsWith("cpu:")) {
            String kernel = s.substring(4);
            if (!kernel.matches("scalar|avx2|avx512|neon")) {
                throw new IllegalArgumentException("unknown CPU kernel in engine spec '" + spec
                        + "' (cpu:scalar, cpu:avx2, cpu:avx512, cpu:neon)");
            }
            try {
                return nativeOpener.apply(kernel, threads);
            } catch (UnsatisfiedLinkError e) {
                throw new IllegalArgumentException("engine '" + spec + "' not available: " + e.getMessage(), e);
            }
        }
        if (s.equals("fpga") || s.startsWith("fpga:")) {
            String device = s.length() > 5 ? s.substring(5).trim() : "";
            if (device.isEmpty()) {
                device = env.getOrDefault(DEVICE_ENV, "").trim();
            }
            if (device.isEmpty()) {
                throw new IllegalArgumentException("no FPGA device given (--device SPEC)");
            }
            try {
                return FpgaEngine.open(device);
            } catch (UnsatisfiedLinkError e) {
                throw new IllegalArgumentException("engine '" + spec + "' not available: " + e.getMessage(), e);
            }
        }
        throw new IllegalArgumentException("unknown engine spec '" + spec
                + "' (java, cpu, cpu:scalar|avx2|avx512|neon, fpga:<device>, auto, auto:<device>)");
    }
}
