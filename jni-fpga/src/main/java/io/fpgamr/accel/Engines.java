package io.fpgamr.accel;

/** Opens an engine by spec string: {@code java}, {@code cpu}, {@code fpga:<device>}. */
public final class Engines {
    private Engines() {
    }

    public static Md5Engine open(String spec, int threads) {
        if (spec.equals("java") || spec.equals("cpu") || spec.equals("auto")) {
            return new JavaMd5Engine();
        }
        if (spec.startsWith("fpga")) {
            throw new IllegalArgumentException("FPGA engine not available: this build has no FPGA driver");
        }
        throw new IllegalArgumentException("unknown engine spec '" + spec + "'");
    }
}
