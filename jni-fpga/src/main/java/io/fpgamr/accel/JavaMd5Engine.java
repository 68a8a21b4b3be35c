package io.fpgamr.accel;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** The pure-Java engine: the fallback where no native kernel is built for the platform. */
public final class JavaMd5Engine implements Md5Engine {
    private final int[] state = new int[4];
    private long hashed;

    @Override
    public String name() {
        return "java";
    }

    @Override
    public void hashRange(long start, int count, int width, ByteBuffer out) {
        ByteBuffer le = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int x2 = JavaMd5.word2(width);
        int x14 = JavaMd5.word14(width);
        for (int i = 0; i < count; i++) {
            long v = start + i;
            JavaMd5.block(JavaMd5.word0(v, width), JavaMd5.word1(v, width), x2, x14, state);
            le.putInt(state[0]).putInt(state[1]).putInt(state[2]).putInt(state[3]);
            hashed++;
        }
        out.position(le.position());
    }

    @Override
    public long[] searchRange(long start, long count, int width, TargetSet targets) {
        int x2 = JavaMd5.word2(width);
        int x14 = JavaMd5.word14(width);
        long[] found = new long[4];
        int n = 0;
        for (long v = start, end = start + count; v < end; v++) {
            JavaMd5.block(JavaMd5.word0(v, width), JavaMd5.word1(v, width), x2, x14, state);
            long hi = ((long) Integer.reverseBytes(state[0]) << 32) | (Integer.reverseBytes(state[1]) & 0xffffffffL);
            long lo = ((long) Integer.reverseBytes(state[2]) << 32) | (Integer.reverseBytes(state[3]) & 0xffffffffL);
            hashed++;
            if (targets.contains(hi, lo)) {
                if (n == found.length) {
                    found = Arrays.copyOf(found, n * 2);
                }
                found[n++] = v;
            }
        }
        return Arrays.copyOf(found, n);
    }

    @Override
    public long valuesHashed() {
        return hashed;
    }
}
