package io.fpgamr.md5.shuffle;

import java.lang.ref.SoftReference;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Byte arrays a task gave back, for the next task of this JVM: the local runner runs all of a job's
 * maps and reduces in one JVM, and the bench job's intermediate data is made of large arrays that
 * live until their task ends. Allocated afresh, each is zeroed; the collector's pages, all live until
 * the map's output is written, were also copied by every young pause (at 2^28 with 32 maps, 103
 * pauses, 7.8 s of them on 2 cores), and each reduce's held map outputs, humongous in G1, started
 * collections of their own. An array taken from here is already in the old generation. Softly held:
 * memory the JVM needs wins. Arrays come in size classes (eighths of a power of two), so that outputs
 * of nearly the same size share them.
 */
final class SpareArrays {
    private static final Map<Integer, Deque<SoftReference<byte[]>>> SPARE = new ConcurrentHashMap<>();

    private SpareArrays() {
    }

    /** The length of the array {@link #take} gives for {@code length} bytes: at most an eighth more. */
    static int capacity(int length) {
        if (length <= 64) {
            return 64;
        }
        long step = Integer.highestOneBit(length - 1) >> 3;
        return (int) Math.min(Integer.MAX_VALUE - 8, (length + step - 1) / step * step);
    }

    /** An array of {@link #capacity}({@code length}) bytes, a spare one when there is one; its contents are not cleared. */
    static byte[] take(int length) {
        int capacity = capacity(length);
        Deque<SoftReference<byte[]>> spares = SPARE.get(capacity);
        if (spares != null) {
            for (SoftReference<byte[]> spare; (spare = spares.poll()) != null; ) {
                byte[] a = spare.get();
                if (a != null) {
                    return a;
                }
            }
        }
        return new byte[capacity];
    }

    /** An array {@link #take} gave, no longer used by its taker. */
    static void give(byte[] a) {
        SPARE.computeIfAbsent(a.length, c -> new ConcurrentLinkedDeque<>()).push(new SoftReference<>(a));
    }
}
