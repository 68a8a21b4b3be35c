package io.fpgamr.md5.job;

import java.math.BigInteger;

/**
 * The values one key byte of the bench job carried, checked against the domain's: the key byte
 * {@code b} of a domain of {@code n} values holds exactly the values {@code b, b + 256, b + 512, ...}
 * below {@code n}. Their count, sum and sum of squares (both modulo 2^64, as Java's long adds and
 * multiplies) have closed forms, so a reducer checks a key in one pass with no memory per value:
 * a value missing and another there twice change the sum (their difference is not 0 below 2^40),
 * two of each leave the sum and the squares both unchanged only when the same values are missing
 * and doubled; a value under another key is counted on its own.
 */
public final class KeyCheck {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    private final int key;
    private long count;
    private long sum;
    private long squares;
    private long misplaced;

    public KeyCheck(int key) {
        this.key = key;
    }

    public int key() {
        return key;
    }

    /** One value the key carried. */
    public void add(long v) {
        count++;
        sum += v;
        squares += v * v;
        if ((v & 0xff) != key) {
            misplaced++;
        }
    }

    /** What is wrong with the values against a domain of {@code n} values, in words, or null when they are exactly the domain's. */
    public String against(long n) {
        long expectedCount = n > key ? (n - key + 255) / 256 : 0;
        BigInteger m = BigInteger.valueOf(expectedCount);
        BigInteger b = BigInteger.valueOf(key);
        BigInteger step = BigInteger.valueOf(256);
        // sum over j < m of (b + 256 j), and of (b + 256 j)^2
        BigInteger pairs = m.multiply(m.subtract(BigInteger.ONE)).shiftRight(1);
        BigInteger sumJ2 = m.subtract(BigInteger.ONE).multiply(m).multiply(m.shiftLeft(1).subtract(BigInteger.ONE)).divide(BigInteger.valueOf(6));
        long expectedSum = m.multiply(b).add(step.multiply(pairs)).mod(TWO_64).longValue();
        long expectedSquares = m.multiply(b).multiply(b).add(b.multiply(step).multiply(pairs).shiftLeft(1))
            .add(step.multiply(step).multiply(sumJ2)).mod(TWO_64).longValue();
        if (misplaced > 0) {
            return misplaced + " value(s) of another key byte";
        }
        if (count != expectedCount) {
            return count + " values, not " + expectedCount;
        }
        if (sum != expectedSum || squares != expectedSquares) {
            return "the right number of values (" + count + "), but not the domain's: some missing, others there more than once";
        }
        return null;
    }
}
