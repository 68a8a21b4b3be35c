package io.fpgamr.accel;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

/**
 * What the two native engines (the CPU kernels, the FPGA) share around their native calls: the
 * argument checks, a heap buffer served through a direct scratch buffer, the search's result
 * buffer that grows when a call finds more than it holds (the call is then made again, and
 * counted once), and the count of values hashed, which is what the native side reports.
 */
public abstract class NativeEngine implements Md5Engine {
    private long hashed;
    private Memory found = new Memory(8 * 1024);
    private final Memory done = new Memory(8);
    private ByteBuffer scratch;

    /**
     * One native hash call: the digests of {@code [start, start + count)} to {@code out}; returns
     * the values the native side says it hashed.
     */
    protected abstract long hash(long start, int count, int width, Pointer out, String what);

    /**
     * One native search call: the first {@code cap} matches to {@code found}, the values examined
     * (as the native side counts them) to {@code done}; returns the number of matches.
     */
    protected abstract long search(long start, long count, int width, TargetSet targets, Pointer found, long cap, Pointer done,
            String what);

    /** The widths this engine hashes (4..8, or fewer). */
    protected abstract boolean widthOk(int width);

    /** Values a failed call hashed before its error (the engine did them). */
    protected final void counted(long values) {
        hashed += values;
    }

    /** The native address of a direct buffer's position. */
    protected static Pointer at(ByteBuffer b) {
        return Native.getDirectBufferPointer(b).share(b.position());
    }

    private void check(int width, long count) {
        if (!widthOk(width)) {
            throw new IllegalArgumentException("width " + width + " not in 4..8");
        }
        if (count < 0) {
            throw new IllegalArgumentException("count " + count);
        }
    }

    @Override
    public final void hashRange(long start, int count, int width, ByteBuffer out) {
        check(width, count);
        int bytes = 16 * count;
        if (out.remaining() < bytes) {
            throw new BufferOverflowException();
        }
        if (count == 0) {
            return;
        }
        String what = "hashRange(" + start + ", " + count + ", " + width + ")";
        if (out.isDirect()) {
            hashed += hash(start, count, width, at(out), what);
            out.position(out.position() + bytes);
            return;
        }
        if (scratch == null || scratch.capacity() < bytes) {
            scratch = digestBuffer(Math.max(count, 1 << 18));
        }
        scratch.clear();
        hashed += hash(start, count, width, at(scratch), what);
        scratch.limit(bytes);
        out.put(scratch);
    }

    @Override
    public final long[] searchRange(long start, long count, int width, TargetSet targets) {
        check(width, count);
        if (count == 0 || targets.size() == 0) {
            return new long[0];
        }
        String what = "searchRange(" + start + ", " + count + ", " + width + ")";
        for (;;) {
            long cap = found.size() / 8;
            long m = search(start, count, width, targets, found, cap, done, what);
            if (m <= cap) {
                hashed += done.getLong(0); // a search made again for more room counts once
                return found.getLongArray(0, (int) m);
            }
            if (m > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException(m + " matches");
            }
            found = new Memory(8 * m); // rare: more matches than room; search again
        }
    }

    @Override
    public final long valuesHashed() {
        return hashed;
    }
}
