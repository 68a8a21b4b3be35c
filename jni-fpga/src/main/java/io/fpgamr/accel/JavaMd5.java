package io.fpgamr.accel;

/**
 * MD5 of one-block messages of 4..8 bytes (RFC 1321), specialised: the padding and the length word
 * are fixed per width, and message words 3..13 and 15 are zero, so only x0, x1, x2 and x14 vary.
 * The result is the four state words after the final addition; {@link #digestBytes} gives the
 * usual byte order.
 */
public final class JavaMd5 {
    public static final int MIN_WIDTH = 4;
    public static final int MAX_WIDTH = 8;

    private JavaMd5() {
    }

    /** Message word 0 (little-endian bytes 0..3) of value {@code v} encoded big-endian in {@code width} bytes. */
    public static int word0(long v, int width) {
        return Integer.reverseBytes((int) (v >>> (8 * (width - 4))));
    }

    /** Message word 1: bytes 4..7 of the message followed by the 0x80 pad byte where it falls. */
    public static int word1(long v, int width) {
        int tail = width - 4;
        if (tail == 4) {
            return Integer.reverseBytes((int) v);
        }
        int w = 0x80 << (8 * tail);
        for (int i = 0; i < tail; i++) {
            w |= (int) ((v >>> (8 * (tail - 1 - i))) & 0xff) << (8 * i);
        }
        return w;
    }

    /** Message word 2: the pad byte when the message fills words 0 and 1. */
    public static int word2(int width) {
        return width == 8 ? 0x80 : 0;
    }

    /** Message word 14: the message length in bits. */
    public static int word14(int width) {
        return 8 * width;
    }

    /** Hashes one block whose only non-zero words are given; writes state words A, B, C, D to {@code out}. */
    public static void block(int x0, int x1, int x2, int x14, int[] out) {
        int a = 0x67452301;
        int b = 0xefcdab89;
        int c = 0x98badcfe;
        int d = 0x10325476;
        a = b + Integer.rotateLeft(a + ((b & c) | (~b & d)) + x0 + 0xd76aa478, 7);
        d = a + Integer.rotateLeft(d + ((a & b) | (~a & c)) + x1 + 0xe8c7b756, 12);
        c = d + Integer.rotateLeft(c + ((d & a) | (~d & b)) + x2 + 0x242070db, 17);
        b = c + Integer.rotateLeft(b + ((c & d) | (~c & a)) + 0xc1bdceee, 22);
        a = b + Integer.rotateLeft(a + ((b & c) | (~b & d)) + 0xf57c0faf, 7);
        d = a + Integer.rotateLeft(d + ((a & b) | (~a & c)) + 0x4787c62a, 12);
        c = d + Integer.rotateLeft(c + ((d & a) | (~d & b)) + 0xa8304613, 17);
        b = c + Integer.rotateLeft(b + ((c & d) | (~c & a)) + 0xfd469501, 22);
        a = b + Integer.rotateLeft(a + ((b & c) | (~b & d)) + 0x698098d8, 7);
        d = a + Integer.rotateLeft(d + ((a & b) | (~a & c)) + 0x8b44f7af, 12);
        c = d + Integer.rotateLeft(c + ((d & a) | (~d & b)) + 0xffff5bb1, 17);
        b = c + Integer.rotateLeft(b + ((c & d) | (~c & a)) + 0x895cd7be, 22);
        a = b + Integer.rotateLeft(a + ((b & c) | (~b & d)) + 0x6b901122, 7);
        d = a + Integer.rotateLeft(d + ((a & b) | (~a & c)) + 0xfd987193, 12);
        c = d + Integer.rotateLeft(c + ((d & a) | (~d & b)) + x14 + 0xa679438e, 17);
        b = c + Integer.rotateLeft(b + ((c & d) | (~c & a)) + 0x49b40821, 22);
        a = b + Integer.rotateLeft(a + ((b & d) | (c & ~d)) + x1 + 0xf61e2562, 5);
        d = a + Integer.rotateLeft(d + ((a & c) | (b & ~c)) + 0xc040b340, 9);
        c = d + Integer.rotateLeft(c + ((d & b) | (a & ~b)) + 0x265e5a51, 14);
        b = c + Integer.rotateLeft(b + ((c & a) | (d & ~a)) + x0 + 0xe9b6c7aa, 20);
        a = b + Integer.rotateLeft(a + ((b & d) | (c & ~d)) + 0xd62f105d, 5);
        d = a + Integer.rotateLeft(d + ((a & c) | (b & ~c)) + 0x02441453, 9);
        c = d + Integer.rotateLeft(c + ((d & b) | (a & ~b)) + 0xd8a1e681, 14);
        b = c + Integer.rotateLeft(b + ((c & a) | (d & ~a)) + 0xe7d3fbc8, 20);
        a = b + Integer.rotateLeft(a + ((b & d) | (c & ~d)) + 0x21e1cde6, 5);
        d = a + Integer.rotateLeft(d + ((a & c) | (b & ~c)) + x14 + 0xc33707d6, 9);
        c = d + Integer.rotateLeft(c + ((d & b) | (a & ~b)) + 0xf4d50d87, 14);
        b = c + Integer.rotateLeft(b + ((c & a) | (d & ~a)) + 0x455a14ed, 20);
        a = b + Integer.rotateLeft(a + ((b & d) | (c & ~d)) + 0xa9e3e905, 5);
        d = a + Integer.rotateLeft(d + ((a & c) | (b & ~c)) + x2 + 0xfcefa3f8, 9);
        c = d + Integer.rotateLeft(c + ((d & b) | (a & ~b)) + 0x676f02d9, 14);
        b = c + Integer.rotateLeft(b + ((c & a) | (d & ~a)) + 0x8d2a4c8a, 20);
        a = b + Integer.rotateLeft(a + (b ^ c ^ d) + 0xfffa3942, 4);
        d = a + Integer.rotateLeft(d + (a ^ b ^ c) + 0x8771f681, 11);
        c = d + Integer.rotateLeft(c + (d ^ a ^ b) + 0x6d9d6122, 16);
        b = c + Integer.rotateLeft(b + (c ^ d ^ a) + x14 + 0xfde5380c, 23);
        a = b + Integer.rotateLeft(a + (b ^ c ^ d) + x1 + 0xa4beea44, 4);
        d = a + Integer.rotateLeft(d + (a ^ b ^ c) + 0x4bdecfa9, 11);
        c = d + Integer.rotateLeft(c + (d ^ a ^ b) + 0xf6bb4b60, 16);
        b = c + Integer.rotateLeft(b + (c ^ d ^ a) + 0xbebfbc70, 23);
        a = b + Integer.rotateLeft(a + (b ^ c ^ d) + 0x289b7ec6, 4);
        d = a + Integer.rotateLeft(d + (a ^ b ^ c) + x0 + 0xeaa127fa, 11);
        c = d + Integer.rotateLeft(c + (d ^ a ^ b) + 0xd4ef3085, 16);
        b = c + Integer.rotateLeft(b + (c ^ d ^ a) + 0x04881d05, 23);
        a = b + Integer.rotateLeft(a + (b ^ c ^ d) + 0xd9d4d039, 4);
        d = a + Integer.rotateLeft(d + (a ^ b ^ c) + 0xe6db99e5, 11);
        c = d + Integer.rotateLeft(c + (d ^ a ^ b) + 0x1fa27cf8, 16);
        b = c + Integer.rotateLeft(b + (c ^ d ^ a) + x2 + 0xc4ac5665, 23);
        a = b + Integer.rotateLeft(a + (c ^ (b | ~d)) + x0 + 0xf4292244, 6);
        d = a + Integer.rotateLeft(d + (b ^ (a | ~c)) + 0x432aff97, 10);
        c = d + Integer.rotateLeft(c + (a ^ (d | ~b)) + x14 + 0xab9423a7, 15);
        b = c + Integer.rotateLeft(b + (d ^ (c | ~a)) + 0xfc93a039, 21);
        a = b + Integer.rotateLeft(a + (c ^ (b | ~d)) + 0x655b59c3, 6);
        d = a + Integer.rotateLeft(d + (b ^ (a | ~c)) + 0x8f0ccc92, 10);
        c = d + Integer.rotateLeft(c + (a ^ (d | ~b)) + 0xffeff47d, 15);
        b = c + Integer.rotateLeft(b + (d ^ (c | ~a)) + x1 + 0x85845dd1, 21);
        a = b + Integer.rotateLeft(a + (c ^ (b | ~d)) + 0x6fa87e4f, 6);
        d = a + Integer.rotateLeft(d + (b ^ (a | ~c)) + 0xfe2ce6e0, 10);
        c = d + Integer.rotateLeft(c + (a ^ (d | ~b)) + 0xa3014314, 15);
        b = c + Integer.rotateLeft(b + (d ^ (c | ~a)) + 0x4e0811a1, 21);
        a = b + Integer.rotateLeft(a + (c ^ (b | ~d)) + 0xf7537e82, 6);
        d = a + Integer.rotateLeft(d + (b ^ (a | ~c)) + 0xbd3af235, 10);
        c = d + Integer.rotateLeft(c + (a ^ (d | ~b)) + x2 + 0x2ad7d2bb, 15);
        b = c + Integer.rotateLeft(b + (d ^ (c | ~a)) + 0xeb86d391, 21);
        out[0] = a + 0x67452301;
        out[1] = b + 0xefcdab89;
        out[2] = c + 0x98badcfe;
        out[3] = d + 0x10325476;
    }

    /** Hashes value {@code v} encoded big-endian in {@code width} bytes. */
    public static void hashValue(long v, int width, int[] out) {
        block(word0(v, width), word1(v, width), word2(width), word14(width), out);
    }

    /** The 16 digest bytes of the state words {@code s}, in MD5's output order. */
    public static byte[] digestBytes(int[] s) {
        byte[] d = new byte[16];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                d[4 * i + j] = (byte) (s[i] >>> (8 * j));
            }
        }
        return d;
    }

    /** The message of value {@code v}: its big-endian encoding in {@code width} bytes. */
    public static byte[] message(long v, int width) {
        byte[] m = new byte[width];
        for (int i = 0; i < width; i++) {
            m[i] = (byte) (v >>> (8 * (width - 1 - i)));
        }
        return m;
    }
}
