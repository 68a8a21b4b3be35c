package io.fpgamr.md5.job;

import io.fpgamr.accel.JavaMd5;
import java.util.HexFormat;

/** The search domain: values {@code [0, 2^bits)}, each hashed as its big-endian encoding in {@link #width()} bytes. */
public record Domain(int bits) {
    public static final int MIN_BITS = 1;
    public static final int MAX_BITS = 40;

    public Domain {
        if (bits < MIN_BITS || bits > MAX_BITS) {
            throw new IllegalArgumentException("--bits must be in " + MIN_BITS + ".." + MAX_BITS + ", got " + bits);
        }
    }

    /** Message width in bytes: max(4, ceil(bits/8)); at 28 bits the thesis's {@code struct.pack(">i", v)}. */
    public int width() {
        return Math.max(JavaMd5.MIN_WIDTH, (bits + 7) / 8);
    }

    /** Number of values, 2^bits. */
    public long size() {
        return 1L << bits;
    }

    /** The potfile line hashcat prints for a cracked hash: {@code <md5>:$HEX[<message hex>]}. */
    public String potfileLine(long value, byte[] digest) {
        HexFormat hex = HexFormat.of();
        return hex.formatHex(digest) + ":$HEX[" + hex.formatHex(JavaMd5.message(value, width())) + "]";
    }
}
