package io.fpgamr.md5;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Writable;

/**
 * The bench mode's intermediate value: message ‖ MD5(message), fixed length (20 bytes at 4-byte
 * messages), no length prefix: the width comes from the job configuration.
 */
public class HashedValue implements Writable, Configurable {
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
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 8) | (bytes[i] & 0xff);
        }
        return v;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.write(bytes, 0, width + 16);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        in.readFully(bytes, 0, width + 16);
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
