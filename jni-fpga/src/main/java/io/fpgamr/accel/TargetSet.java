package io.fpgamr.accel;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * A set of target MD5 digests, held as an open-addressing hash table keyed on the digest's first
 * 64 bits (a probe per candidate, not a loop over targets), for the Java engine; and, made once
 * when a native engine first asks ({@link #nativeSet()}), libfpgamr's sorted target set, which the
 * CPU kernels and the FPGA driver share.
 */
public final class TargetSet {
    private final long[] his;
    private final long[] los;
    private final long[] tableHi;
    private final long[] tableLo;
    private final boolean[] used;
    private final int mask;
    private NativeTargets nativeSet;

    private TargetSet(Collection<String> hexDigests) {
        Set<String> unique = new LinkedHashSet<>();
        for (String h : hexDigests) {
            unique.add(h.toLowerCase(Locale.ROOT));
        }
        int n = unique.size();
        his = new long[n];
        los = new long[n];
        int i = 0;
        for (String h : unique) {
            ByteBuffer b = ByteBuffer.wrap(HexFormat.of().parseHex(h));
            his[i] = b.getLong();
            los[i] = b.getLong();
            i++;
        }
        int cap = Integer.highestOneBit(Math.max(4, n * 2 - 1)) << 1;
        mask = cap - 1;
        tableHi = new long[cap];
        tableLo = new long[cap];
        used = new boolean[cap];
        for (int k = 0; k < n; k++) {
            int slot = slot(his[k]);
            while (used[slot]) {
                slot = (slot + 1) & mask;
            }
            used[slot] = true;
            tableHi[slot] = his[k];
            tableLo[slot] = los[k];
        }
    }

    /** Builds a set from 32-digit hex digests; the caller validates their form. */
    public static TargetSet of(Collection<String> hexDigests) {
        return new TargetSet(hexDigests);
    }

    public static TargetSet of(String... hexDigests) {
        return new TargetSet(Arrays.asList(hexDigests));
    }

    private int slot(long hi) {
        long h = hi * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & mask;
    }

    /** True if the digest whose bytes 0..7 and 8..15, read big-endian, are {@code hi}, {@code lo} is a target. */
    public boolean contains(long hi, long lo) {
        int slot = slot(hi);
        while (used[slot]) {
            if (tableHi[slot] == hi && tableLo[slot] == lo) {
                return true;
            }
            slot = (slot + 1) & mask;
        }
        return false;
    }

    public int size() {
        return his.length;
    }

    /**
     * libfpgamr's target set of these digests, sorted there once and shared by every native
     * engine that searches for them; made on first use, freed when this set is unreachable.
     *
     * @throws UnsatisfiedLinkError when there is no native build for this platform
     */
    public synchronized NativeTargets nativeSet() {
        if (nativeSet == null) {
            ByteBuffer d = ByteBuffer.allocateDirect(Math.max(16, 16 * his.length)).order(ByteOrder.BIG_ENDIAN);
            for (int k = 0; k < his.length; k++) {
                d.putLong(his[k]).putLong(los[k]);
            }
            nativeSet = NativeTargets.of(this, d, his.length);
        }
        return nativeSet;
    }
}
