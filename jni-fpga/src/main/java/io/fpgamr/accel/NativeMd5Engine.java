package io.fpgamr.accel;

import com.sun.jna.Memory;
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
public final class NativeMd5Engine implements Md5Engine {
    private static final Cleaner CLEANER = Cleaner.create();

    /** Native resources, freed once, by close() or when the engine becomes unreachable. */
    private static final class Handles implements Runnable {
        Pointer engine;
        Pointer targets;

        @Override
        public synchronized void run() {
            if (targets != null) {
                NativeMd5.fpgamr_md5_targets_free(targets);
                targets = null;
            }
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
    private TargetSet targetsOf;
    private Memory found = new Memory(8 * 64);
    private final Memory done = new Memory(8);
    private long hashed;
    private ByteBuffer scratch;

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

    private static void checkWidth(int width) {
        if (width < JavaMd5.MIN_WIDTH || width > JavaMd5.MAX_WIDTH) {
            throw new IllegalArgumentException("width " + width + " not in 4..8");
        }
    }

    /** The native address of a direct buffer's position. */
    private static Pointer at(ByteBuffer b) {
        return Native.getDirectBufferPointer(b).share(b.position());
    }

    @Override
    public void hashRange(long start, int count, int width, ByteBuffer out) {
        checkWidth(width);
        if (count < 0) {
            throw new IllegalArgumentException("count " + count);
        }
        long bytes = 16L * count;
        if (out.remaining() < bytes) {
            throw new BufferOverflowException();
        }
        if (count == 0) {
            return;
        }
        String what = "hashRange(" + start + ", " + count + ", " + width + ")";
        if (out.isDirect()) {
            hashed += check(NativeMd5.fpgamr_md5_hash_range(engine(), start, count, width, at(out)), what);
            out.position(out.position() + (int) bytes);
            return;
        }
        ByteBuffer s = scratch((int) bytes);
        hashed += check(NativeMd5.fpgamr_md5_hash_range(engine(), start, count, width, at(s)), what);
        s.limit((int) bytes);
        out.put(s);
    }

    /**
     * Digests of an array of values (a direct buffer of native-order longs, from its position to
     * its limit) into {@code out} from its position, which advances by 16 per value.
     */
    public void hashValues(LongBuffer values, int width, ByteBuffer out) {
        checkWidth(width);
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
        hashed += check(NativeMd5.fpgamr_md5_hash_values(engine(), v, n, width, at(out)), "hashValues");
        out.position(out.position() + 16 * n);
    }

    private ByteBuffer scratch(int bytes) {
        if (scratch == null || scratch.capacity() < bytes) {
            scratch = ByteBuffer.allocateDirect(Math.max(bytes, 16 << 18));
        }
        scratch.clear();
        return scratch;
    }

    private Pointer nativeTargets(TargetSet targets) {
        if (targets != targetsOf) {
            synchronized (handles) {
                if (handles.targets != null) {
                    NativeMd5.fpgamr_md5_targets_free(handles.targets);
                    handles.targets = null;
                }
                ByteBuffer d = targets.sortedDigests();
                Pointer t = NativeMd5.fpgamr_md5_targets_new(at(d), targets.size());
                if (t == null) {
                    throw new OutOfMemoryError("native target set of " + targets.size());
                }
                handles.targets = t;
            }
            targetsOf = targets;
        }
        return handles.targets;
    }

    @Override
    public long[] searchRange(long start, long count, int width, TargetSet targets) {
        checkWidth(width);
        if (count < 0) {
            throw new IllegalArgumentException("count " + count);
        }
        if (count == 0 || targets.size() == 0) {
            return new long[0];
        }
        Pointer t = nativeTargets(targets);
        for (;;) {
            long cap = found.size() / 8;
            long m = check(NativeMd5.fpgamr_md5_search_range(engine(), t, start, count, width, found, cap, done),
                    "searchRange(" + start + ", " + count + ", " + width + ")");
            if (m <= cap) {
                hashed += done.getLong(0);
                return found.getLongArray(0, (int) m);
            }
            if (m > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException(m + " matches");
            }
            found = new Memory(8 * m); /* rare: more matches than room; search again */
        }
    }

    @Override
    public long valuesHashed() {
        return hashed;
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
