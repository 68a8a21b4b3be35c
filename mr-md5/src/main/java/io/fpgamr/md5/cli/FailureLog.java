package io.fpgamr.md5.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An unexpected failure, made diagnosable: its whole stack trace, causes included, goes to the
 * run's log file, and the user gets one line naming the exception, its root cause and that file.
 * The log file is bin/fpgamr's ({@code FPGAMR_LOG}: log4j writes {@code fpgamr.log.file} through
 * {@code fpgamr-log4j.properties}); without it ({@code hadoop jar}, whose log4j writes where its
 * site says) the trace goes to a file of its own in the temporary folder, so that the line can
 * still name where it is.
 */
final class FailureLog {
    /** The log file bin/fpgamr names (FPGAMR_LOG), which fpgamr-log4j.properties writes. */
    static final String LOG_FILE = "fpgamr.log.file";
    static final String LOG4J_CONFIG = "fpgamr-log4j.properties";

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private FailureLog() {
    }

    /** Records {@code e} with its causes; returns the one line for stderr. */
    static String record(Throwable e) {
        String where = write(e);
        Throwable root = rootCause(e);
        String line = "fpgamr: failed: " + e;
        if (root != e) {
            line += " (root cause: " + root + ")";
        }
        return line + "; " + where;
    }

    /** The innermost cause of {@code e} (itself when it has none); a cause cycle ends the walk. */
    static Throwable rootCause(Throwable e) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        Throwable t = e;
        while (t.getCause() != null && seen.put(t, Boolean.TRUE) == null) {
            t = t.getCause();
        }
        return t;
    }

    private static String write(Throwable e) {
        String file = System.getProperty(LOG_FILE);
        if (file != null && LOG4J_CONFIG.equals(System.getProperty("log4j.configuration"))) {
            LOG.error("unexpected failure", e);
            return "the stack trace is in " + file;
        }
        try {
            Path own = Files.createTempFile("fpgamr-failure-", ".log");
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(own, StandardCharsets.UTF_8))) {
                e.printStackTrace(w);
            }
            return "the stack trace is in " + own;
        } catch (IOException | RuntimeException io) {
            return "its stack trace could not be written (" + io + ")";
        }
    }
}
