package io.fpgamr.md5.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A key's values against the domain's: exact, one missing and another twice, one too few, one of another key. */
class KeyCheckTest {
    private static KeyCheck all(int key, long n) {
        KeyCheck k = new KeyCheck(key);
        for (long v = key; v < n; v += 256) {
            k.add(v);
        }
        return k;
    }

    /** Every value of {@code key} once, except {@code gone}, which is replaced by a second {@code twice}. */
    private static KeyCheck allBut(int key, long n, long gone, long twice) {
        KeyCheck k = new KeyCheck(key);
        for (long v = key; v < n; v += 256) {
            k.add(v == gone ? twice : v);
        }
        return k;
    }

    @Test
    void everyValueOnceChecksOutAtEverySize() {
        for (long n : new long[] {1, 2, 255, 256, 257, 1 << 20, (1L << 20) + 77}) {
            for (int key : new int[] {0, 1, 76, 77, 255}) {
                assertNull(all(key, n).against(n), "key " + key + " of " + n);
            }
        }
    }

    @Test
    void squaresPastTwoToThe64StillCheckOut() {
        // values up to 2^34: their squares wrap a long; both sides keep the sums modulo 2^64
        long n = (1L << 34) + 5;
        assertNull(all(3, n).against(n));
        assertEquals("the right number of values (67108865), but not the domain's: some missing, others there more than once",
            allBut(3, n, 3 + 256 * 5, 3 + 256 * 9).against(n));
    }

    @Test
    void aValueMissingAndAnotherTwiceIsFound() {
        assertEquals("the right number of values (256), but not the domain's: some missing, others there more than once",
            allBut(7, 1 << 16, 7 + 256 * 10, 7 + 256 * 3).against(1 << 16));
    }

    @Test
    void aMissingValueAndAMisplacedOneAreNamed() {
        long n = 1 << 16;
        KeyCheck k = new KeyCheck(7);
        for (long v = 7 + 256; v < n; v += 256) {
            k.add(v);
        }
        assertEquals("255 values, not 256", k.against(n));
        k.add(8);
        assertEquals("1 value(s) of another key byte", k.against(n));
    }
}
