package io.fpgamr.accel;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;

/**
 * A {@link TargetSet} as libfpgamr holds it ({@code fpgamr_md5_targets}, include/fpgamr_md5.h):
 * sorted and deduplicated there, once, and then used as it is by the CPU kernels' search
 * ({@link #handle()}) and by the FPGA driver's ({@link #digests()}, {@link #size()}). Freed when
 * its target set becomes unreachable.
 */
public final class NativeTargets {
    private static final Cleaner CLEANER = Cleaner.create();

    private final Pointer handle;
    private final Pointer digests;
    private final int size;

    private NativeTargets(Pointer handle) {
        this.handle = handle;
        this.digests = NativeMd5.fpgamr_md5_targets_digests(handle);
        this.size = NativeMd5.fpgamr_md5_targets_size(handle);
    }

    /** The native set of {@code n} digests in a direct buffer, freed when {@code owner} is unreachable. */
    static NativeTargets of(Object owner, ByteBuffer digests, int n) {
        NativeLoader.registerMd5();
        Pointer h = NativeMd5.fpgamr_md5_targets_new(Native.getDirectBufferPointer(digests), n);
        if (h == null) {
            throw new OutOfMemoryError("native target set of " + n);
        }
        CLEANER.register(owner, () -> NativeMd5.fpgamr_md5_targets_free(h));
        return new NativeTargets(h);
    }

    /** The {@code fpgamr_md5_targets} handle, for the CPU engine. */
    public Pointer handle() {
        return handle;
    }

    /** The digests, 16 bytes each, ascending, without duplicates: what the FPGA driver takes. */
    public Pointer digests() {
        return digests;
    }

    /** How many digests. */
    public int size() {
        return size;
    }
}
