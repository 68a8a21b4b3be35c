package io.fpgamr.md5;

/** Job counters. */
public enum Md5Counters {
    VALUES_HASHED,
    PREIMAGES_FOUND,
    /** Map tasks that hashed with the pure-Java engine because no native kernel was available. */
    JAVA_FALLBACK_MAPS
}
