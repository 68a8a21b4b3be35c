package io.fpgamr.md5.job;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.Writable;

/**
 * The bench mode's intermediate value: message ‖ MD5(message), fixed length (20 bytes at 4-byte
 * messages), no length prefix: the width comes from the job configuration.
 */
public class HashedValue implements Writable, Configurable {
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private Configuration conf;
    private byte[] bytes = new byte[0];
    private int width;

    public void setWidth(int width) {
        this.width = width;
        if (bytes.length != width + 16) {
            bytes = new byte[width + 16];
        }
    }

    public int width() {
        return width;
    }

    /** The backing array: message bytes then digest bytes. */
    public byte[] bytes() {
        return bytes;
    }

    /** Value encoded by the message, big-endian. */
    public long value() {
        return value(bytes, 0, width);
    }

    /**
     * Writes value {@code v}'s bytes, message ‖ digest, at {@code dst[off]}: the message is {@code v}
     * big-endian in {@code width} bytes, the digest is the 16 bytes at {@code 16 * index} of
     * {@code digests} (a batch of an engine's digests).
     */
    public static void encode(long v, int width, byte[] digests, int index, byte[] dst, int off) {
        for (int j = 0; j < width; j++) {
            dst[off + j] = (byte) (v >>> (8 * (width - 1 - j)));
        }
        System.arraycopy(digests, 16 * index, dst, off + width, 16);
    }

    /** Bytes 0..7 of the digest in a value's bytes at {@code off}, big-endian, as {@code TargetSet} takes them. */
    public static long digestHi(byte[] b, int off, int width) {
        return (long) LONG_BE.get(b, off + width);
    }

    /** Bytes 8..15 of the digest, big-endian. */
    public static long digestLo(byte[] b, int off, int width) {
        return (long) LONG_BE.get(b, off + width + 8);
    }

    /** The value a message of {@code width} bytes at {@code b[off]} encodes, big-endian. */
    public static long value(byte[] b, int off, int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.write(bytes, 0, width + 16);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        // The reduce side hands a value its record's bytes: a record of another length is the map
        // side's error, named here rather than read into the next one or cut short by an EOF.
        if (in instanceof DataInputBuffer b) {
            checkLength(b.getLength() - b.getPosition(), width);
        }
        in.readFully(bytes, 0, width + 16);
    }

    /** Fails on a value record of {@code length} bytes that is not a value of {@code width} message bytes. */
    public static void checkLength(int length, int width) throws IOException {
        if (length != width + 16) {
            throw new IOException("a bench value of " + length + " bytes, not " + (width + 16)
                + " (message " + width + " + digest 16): a map wrote a record of the wrong length");
        }
    }

    @Override
    public void setConf(Configuration conf) {
        this.conf = conf;
        setWidth(JobKeys.domain(conf).width());
    }

    @Override
    public Configuration getConf() {
        return conf;
    }
}
