package io.fpgamr.md5.job;

import org.apache.hadoop.conf.Configuration;

/**
 * Settings fpgamr chooses where the user has not: a key counts as the user's when its value came
 * from anywhere but Hadoop's {@code *-default.xml} (a {@code -D}, a site file, code). A configuration
 * written out and read back (a client configuration file, a job.xml) records where each value first
 * came from before the file's own name, so a Hadoop default that travelled through such a file is
 * still a default.
 */
public final class Defaults {
    private Defaults() {
    }

    /** Whether the value of {@code key} in {@code conf} is the user's, not Hadoop's default (or unset). */
    public static boolean given(Configuration conf, String key) {
        String[] sources = conf.getPropertySources(key);
        return sources != null && sources.length > 0 && !sources[0].endsWith("-default.xml");
    }

    /** Sets {@code key} to {@code value} unless the user gave it. */
    public static void set(Configuration conf, String key, Object value) {
        if (!given(conf, key)) {
            conf.set(key, String.valueOf(value));
        }
    }
}
