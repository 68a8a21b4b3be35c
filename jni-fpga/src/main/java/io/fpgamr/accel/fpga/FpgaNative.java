package io.fpgamr.accel.fpga;

import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import io.fpgamr.accel.NativeLoader;

/**
 * JNA direct mapping of the FPGA driver's C API (native/include/fpgamr_fpga.h) in libfpgamr.so,
 * loaded by {@link NativeLoader}. Every call is one range of values (the driver cuts it into
 * device batches), never one value. {@code size_t} is {@link NativeLong}: the same width on the
 * LP64 and ILP32 Linux platforms the library is built for.
 */
final class FpgaNative {
    static final int OK = 0;
    static final int EINVAL = -1;
    static final int EBUSY = -2;
    static final int ENODEV = -3;
    static final int ENOMEM = -4;
    static final int EIO = -5;
    static final int ETIMEDOUT = -6;

    private static boolean registered;

    private FpgaNative() {
    }

    /**
     * Binds the methods below to libfpgamr (once).
     *
     * @throws UnsatisfiedLinkError when the jar has no native build for this platform
     */
    static synchronized void register() {
        if (!registered) {
            Native.register(FpgaNative.class, NativeLoader.library());
            registered = true;
        }
    }

    /** fpgamr_stats, field for field. */
    @Structure.FieldOrder({"batches", "values", "device_cycles", "device_seconds", "host_seconds", "wall_seconds",
        "last_batch_values", "last_batch_cycles", "last_batch_host_seconds", "max_batch_host_seconds", "filter_hits",
        "fallback_batches", "zero_copy_batches", "short_batches"})
    public static final class Stats extends Structure {
        public long batches;
        public long values;
        public long device_cycles;
        public double device_seconds;
        public double host_seconds;
        public double wall_seconds;
        public long last_batch_values;
        public long last_batch_cycles;
        public double last_batch_host_seconds;
        public double max_batch_host_seconds;
        public long filter_hits;
        public long fallback_batches;
        public long zero_copy_batches;
        public long short_batches;
    }

    /** fpgamr_dev_info, field for field. */
    @Structure.FieldOrder({"pipelines", "min_width", "max_width", "design_params", "regmap_version", "mhz", "bus"})
    public static final class Info extends Structure {
        public int pipelines;
        public int min_width;
        public int max_width;
        public int design_params;
        public int regmap_version;
        public double mhz;
        public byte[] bus = new byte[8];
    }

    static native Pointer fpgamr_open_rc(String spec, int[] rc, byte[] err, NativeLong errlen);

    static native int fpgamr_close_rc(Pointer dev, byte[] err, NativeLong errlen);

    static native int fpgamr_get_info(Pointer dev, Info info);

    static native int fpgamr_hash_range(Pointer dev, long start, long count, int width, Pointer digestsOut,
            Pointer valuesDone);

    static native int fpgamr_search_range(Pointer dev, long start, long count, int width, Pointer targets,
            NativeLong ntargets, Pointer matchesOut, NativeLong maxMatches, Pointer nmatches, Pointer valuesDone);

    static native Pointer fpgamr_dma_alloc(Pointer dev, NativeLong size);

    static native void fpgamr_dma_free(Pointer dev, Pointer host);

    static native void fpgamr_get_stats(Pointer dev, Stats st);

    static native void fpgamr_reset_stats(Pointer dev);

    static native String fpgamr_last_error(Pointer dev);

    static native String fpgamr_strerror(int rc);
}
