package io.fpgamr.md5.cli;

import org.apache.hadoop.fs.LocalFileSystem;

/**
 * A file system class that cannot be loaded: its static initializer throws, so the first use of
 * the scheme it is configured for ({@code -D fs.file.impl=...}) ends in an
 * ExceptionInInitializerError, the kind of failure no check of fpgamr's foresees.
 */
public class BrokenFileSystem extends LocalFileSystem {
    static final String WHY = "the test's file system refuses to load";

    static {
        if (Boolean.TRUE) {
            throw new IllegalStateException(WHY);
        }
    }
}
