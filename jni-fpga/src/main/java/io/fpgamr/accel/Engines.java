package io.fpgamr.accel;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.function.BiFunction;

/**
 * Opens an engine by spec string:
 * <ul>
 *   <li>{@code java}: the pure-Java engine;
 *   <li>{@code cpu} (also {@code auto} for now): the best native kernel this CPU runs (or the one
 *       FPGAMR_KERNEL names); where the jar has no native build for the platform, the Java engine
 *       with a logged warning: its {@link Md5Engine#name()} is then {@code java}, so a job can
 *       count the fallback;
 *   <li>{@code cpu:scalar}, {@code cpu:avx2}, {@code cpu:avx512}, {@code cpu:neon}: that kernel,
 *       or an {@link IllegalArgumentException} when it is not built for this platform or the CPU
 *       lacks it (never a silent fallback);
 *   <li>{@code fpga:<device>}: the FPGA engine (not in this build yet).
 * </ul>
 * {@code threads} is the number of threads one batch call may use (the container's vcores);
 * {@code <= 0} means one per CPU.
 */
public final class Engines {
    private static final Logger LOG = System.getLogger(Engines.class.getName());

    private Engines() {
    }

    public static Md5Engine open(String spec, int threads) {
        return open(spec, threads, NativeMd5Engine::open);
    }

    /** As {@link #open(String, int)}, with the native opener given (tests replace it). */
    static Md5Engine open(String spec, int threads, BiFunction<String, Integer, Md5Engine> nativeOpener) {
        String s = spec == null ? "" : spec.trim();
        if (s.equals("java")) {
            return new JavaMd5Engine();
        }
        if (s.equals("cpu") || s.equals("auto")) {
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
            // The FPGA driver's engine plugs in here.
            throw new IllegalArgumentException("FPGA engine not available: '" + spec
                    + "' (this build has no FPGA engine yet)");
        }
        throw new IllegalArgumentException("unknown engine spec '" + spec
                + "' (java, cpu, cpu:scalar|avx2|avx512|neon, fpga:<device>)");
    }
}
