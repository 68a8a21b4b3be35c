package io.fpgamr.md5.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SpareArraysTest {
    @Test
    void sizeClassesAreEighthsOfAPowerOfTwo() {
        assertEquals(64, SpareArrays.capacity(1));
        assertEquals(32 << 10, SpareArrays.capacity(32 << 10), "the collector's pages are a class of their own");
        assertEquals(36 << 10, SpareArrays.capacity((32 << 10) + 1));
        // a 2^28 bench's held map output, 2^28 / 1024 records of 23 bytes
        int output = (1 << 18) * 23;
        int capacity = SpareArrays.capacity(output);
        assertTrue(capacity >= output && capacity <= output + output / 8, output + " -> " + capacity);
        assertEquals(capacity, SpareArrays.capacity(output - 1000), "outputs of nearly the same size share a class");
    }

    @Test
    void anArrayGivenBackIsTakenAgainForItsClass() {
        int length = 5_000_017;
        byte[] a = SpareArrays.take(length);
        assertEquals(SpareArrays.capacity(length), a.length);
        SpareArrays.give(a);
        assertSame(a, SpareArrays.take(length - 3));
    }
}
