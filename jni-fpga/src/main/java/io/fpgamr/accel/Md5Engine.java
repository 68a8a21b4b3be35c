package io.fpgamr.accel;

import java.nio.ByteBuffer;

/**
 * Hashes a range of the domain in one call per batch. A value v is hashed as its big-endian
 * encoding in {@code width} bytes (4..8), a single MD5 block. Implementations: pure Java, native
 * CPU kernels, the FPGA. An engine is used by one thread at a time; it may use more internally.
 */
public interface Md5Engine extends AutoCloseable {

    /** What runs, e.g. {@code java}, {@code cpu:avx2}, {@code fpga:vsim}; reported in counters. */
    String name();

    /** Threads one call may use (the native engines run a pool of this many). */
    default int threads() {
        return 1;
    }

    /** {@code cpu} or {@code fpga}: what kind of hardware did the hashing. */
    default String kind() {
        return "cpu";
    }

    /**
     * True when the hardware is simulated (an FPGA engine on the Verilated model): then the work
     * was done by this host's CPU simulating the device, and every figure derived from it (map
     * times, energy, transformations per joule) must say so.
     */
    default boolean simulated() {
        return false;
    }

    /**
     * Writes the 16-byte digests of values {@code [start, start + count)} to {@code out}, starting at
     * its position, and advances the position by {@code 16 * count}.
     */
    void hashRange(long start, int count, int width, ByteBuffer out);

    /**
     * A direct buffer with room for {@code values} digests, to pass to {@link #hashRange}; the FPGA
     * engine hands out device DMA memory, which the device writes without a copy. Valid while the
     * engine is open.
     */
    default ByteBuffer digestBuffer(int values) {
        return ByteBuffer.allocateDirect(16 * values);
    }

    /** Returns, ascending, the values of {@code [start, start + count)} whose digest is in {@code targets}. */
    long[] searchRange(long start, long count, int width, TargetSet targets);

    /**
     * Values this engine has hashed since it was opened, by both calls, as the engine itself counts
     * them (not as its callers asked): a job's values-hashed counter is the sum of these.
     */
    long valuesHashed();

    @Override
    default void close() {
    }
}
