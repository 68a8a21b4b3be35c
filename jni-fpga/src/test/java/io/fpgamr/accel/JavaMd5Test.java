package io.fpgamr.accel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class JavaMd5Test {

    private static byte[] reference(byte[] msg) throws Exception {
        return MessageDigest.getInstance("MD5").digest(msg);
    }

    @Test
    void thesisExampleDigest() {
        int[] s = new int[4];
        JavaMd5.hashValue(0x123, 4, s);
        assertEquals("096822475dd517c1089f4b58c7f346ef", HexFormat.of().formatHex(JavaMd5.digestBytes(s)));
    }

    @Test
    void equalsMessageDigestOnEveryWidthRandomAndEdges() throws Exception {
        SplittableRandom rnd = new SplittableRandom(42);
        int[] s = new int[4];
        for (int width = JavaMd5.MIN_WIDTH; width <= JavaMd5.MAX_WIDTH; width++) {
            long mask = width == 8 ? -1L : (1L << (8 * width)) - 1;
            long[] edges = {0, 1, 0xff, 0x80, mask, mask - 1, mask >>> 1};
            for (long v : edges) {
                JavaMd5.hashValue(v, width, s);
                assertArrayEquals(reference(JavaMd5.message(v, width)), JavaMd5.digestBytes(s), "width " + width + " v " + v);
            }
            for (int i = 0; i < 20_000; i++) {
                long v = rnd.nextLong() & mask;
                JavaMd5.hashValue(v, width, s);
                assertArrayEquals(reference(JavaMd5.message(v, width)), JavaMd5.digestBytes(s), "width " + width + " v " + v);
            }
        }
    }

    @Test
    void engineHashRangeWritesDigestsInOrder() throws Exception {
        JavaMd5Engine engine = new JavaMd5Engine();
        ByteBuffer out = ByteBuffer.allocateDirect(16 * 1000);
        engine.hashRange((1L << 28) - 500, 1000, 5, out);
        assertEquals(16 * 1000, out.position());
        for (int i = 0; i < 1000; i++) {
            byte[] d = new byte[16];
            out.get(16 * i, d);
            assertArrayEquals(reference(JavaMd5.message((1L << 28) - 500 + i, 5)), d);
        }
    }

    @Test
    void engineSearchFindsExactlyTheTargets() throws Exception {
        HexFormat hex = HexFormat.of();
        String hit1 = hex.formatHex(reference(JavaMd5.message(7, 4)));
        String hit2 = hex.formatHex(reference(JavaMd5.message(65_000, 4)));
        String miss = hex.formatHex(reference(JavaMd5.message(70_000, 4)));
        TargetSet targets = TargetSet.of(hit1, hit2.toUpperCase(), miss);
        assertEquals(3, targets.size());
        long[] found = new JavaMd5Engine().searchRange(0, 65_536, 4, targets);
        assertArrayEquals(new long[] {7, 65_000}, found);
    }
}
