package io.fpgamr.accel;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.lang.ref.Cleaner;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The native CPU engine: libfpgamr's kernels (scalar, AVX2, AVX-512, NEON) on a pool of native
 * threads. One native call per batch; digests go straight into direct buffers (a heap buffer is
 * served through a direct scratch buffer and a copy).
 */
public final class NativeMd5Engine extends NativeEngine {
    private static final Cleaner CLEANER = Cleaner.create();

    /** The native engine, freed once, by close() or when the engine becomes unreachable. */
    private static final class Handles implements Runnable {
        Pointer engine;

        @Override
        public synchronized void run() {
            if (engine != null) {
                NativeMd5.fpgamr_md5_close(engine);
                engine = null;
            }
        }
    }

    private final Handles handles = new Handles();
    private final Cleaner.Cleanable cleanable;
    private final String kernel;
    private final int threads;
    private final int lanes;

    private NativeMd5Engine(Pointer engine) {
        handles.engine = engine;
        cleanable = CLEANER.register(this, handles);
        kernel = NativeMd5.fpgamr_md5_kernel(engine);
        threads = NativeMd5.fpgamr_md5_threads(engine);
        lanes = NativeMd5.fpgamr_md5_lanes(engine);
    }

    /**
     * Opens the native engine with {@code kernel} ({@code null} or "auto": FPGAMR_KERNEL when set,
     * else the best the CPU has) on {@code threads} threads ({@code <= 0}: one per CPU).
     *
     * @throws UnsatisfiedLinkError when there is no native build for this platform
     * @throws IllegalArgumentException when the kernel is unknown, not built here, or the CPU lacks it
     */
    public static NativeMd5Engine open(String kernel, int threads) {
        NativeLoader.registerMd5();
        byte[] err = new byte[512];
        int[] code = new int[1];
        Pointer e = NativeMd5.fpgamr_md5_open(kernel == null ? "" : kernel, threads, err, err.length, code);
        if (e == null) {
            int n = 0;
            while (n < err.length && err[n] != 0) {
                n++;
            }
            String msg = new String(err, 0, n, StandardCharsets.UTF_8);
            if (code[0] == NativeMd5.ENOMEM) {
                throw new OutOfMemoryError(msg);
            }
            throw new IllegalArgumentException(msg);
        }
        return new NativeMd5Engine(e);
    }

    /** The kernels compiled into the library of this platform, e.g. [scalar, avx2, avx512]. */
    public static String[] kernelsBuilt() {
        NativeLoader.registerMd5();
        return NativeMd5.fpgamr_md5_kernels_built().split(",");
    }

    /** True if the kernel is built for this platform and the CPU runs it. */
    public static boolean kernelRuns(String kernel) {
        NativeLoader.registerMd5();
        return NativeMd5.fpgamr_md5_kernel_status(kernel) == NativeMd5.OK;
    }

    /** The kernel "auto" picks on this CPU (FPGAMR_KERNEL aside). */
    public static String bestKernel() {
        NativeLoader.registerMd5();
        return NativeMd5.fpgamr_md5_best_kernel();
    }

    @Override
    public String name() {
        return "cpu:" + kernel;
    }

    /** The kernel alone: scalar, avx2, avx512 or neon. */
    public String kernel() {
        return kernel;
    }

    @Override
    public int threads() {
        return threads;
    }

    /** 32-bit lanes per vector of the kernel. */
    public int lanes() {
        return lanes;
    }

    private Pointer engine() {
        Pointer e = handles.engine;
        if (e == null) {
            throw new IllegalStateException("engine closed");
        }
        return e;
    }

    /** A native call's count (values hashed, matches), or its error as an exception. */
    private static long check(long rc, String what) {
        if (rc >= 0) {
            return rc;
        }
        if (rc == NativeMd5.ENOMEM) {
            throw new OutOfMemoryError(what + ": " + NativeMd5.fpgamr_md5_strerror((int) rc));
        }
        throw new IllegalArgumentException(what + ": " + NativeMd5.fpgamr_md5_strerror((int) rc));
    }

    @Override
    protected boolean widthOk(int width) {
        return width >= JavaMd5.MIN_WIDTH && width <= JavaMd5.MAX_WIDTH;
    }

    @Override
    protected long hash(long start, int count, int width, Pointer out, String what) {
        return check(NativeMd5.fpgamr_md5_hash_range(engine(), start, count, width, out), what);
    }

    @Override
    protected long search(long start, long count, int width, TargetSet targets, Pointer found, long cap, Pointer done,
            String what) {
        return check(NativeMd5.fpgamr_md5_search_range(engine(), targets.nativeSet().handle(), start, count, width, found, cap,
                done), what);
    }

    /**
     * Digests of an array of values (a direct buffer of native-order longs, from its position to
     * its limit) into {@code out} from its position, which advances by 16 per value.
     */
    public void hashValues(LongBuffer values, int width, ByteBuffer out) {
        if (!widthOk(width)) {
            throw new IllegalArgumentException("width " + width + " not in 4..8");
        }
        if (!values.isDirect() || !out.isDirect()) {
            throw new IllegalArgumentException("hashValues needs direct buffers");
        }
        if (values.order() != ByteOrder.nativeOrder()) {
            throw new IllegalArgumentException("values must be in native byte order");
        }
        int n = values.remaining();
        if (out.remaining() < 16L * n) {
            throw new BufferOverflowException();
        }
        Pointer v = Native.getDirectBufferPointer(values).share(8L * values.position());
        counted(check(NativeMd5.fpgamr_md5_hash_values(engine(), v, n, width, at(out)), "hashValues"));
        out.position(out.position() + 16 * n);
    }

    @Override
    public void close() {
        cleanable.clean();
    }

    @Override
    public String toString() {
        return name() + " x" + threads + " threads, " + lanes + " lanes";
    }
}
