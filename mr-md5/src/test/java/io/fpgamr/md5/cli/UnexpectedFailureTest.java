package io.fpgamr.md5.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unexpected failure, induced from the test class path (a file system class whose static
 * initializer throws), in a JVM started as bin/fpgamr starts it: one line on stderr naming the
 * exception, its root cause and the log file; the whole stack trace with its causes in that file.
 */
class UnexpectedFailureTest {
    @TempDir
    Path tmp;

    @Test
    void oneLineOnStderrAndTheWholeTraceInTheLog() throws Exception {
        Path log = tmp.resolve("fpgamr.log");
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
            "-cp", System.getProperty("java.class.path"),
            "-Dlog4j.configuration=" + FailureLog.LOG4J_CONFIG, "-D" + FailureLog.LOG_FILE + "=" + log,
            Main.class.getName(), "search", "-D", "fs.file.impl=" + BrokenFileSystem.class.getName(),
            "096822475dd517c1089f4b58c7f346ef", "--bits", "8", "--cluster", "local", "--output", tmp.resolve("out").toString()));
        Path out = tmp.resolve("stdout");
        Path err = tmp.resolve("stderr");
        Process p = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        // a guard against a hung JVM, not a timed assertion
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the JVM did not exit");
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(1, p.exitValue(), stderr);
        // the run's own notes come first (the energy monitor's sources); the failure is one line, the last
        List<String> lines = stderr.lines().toList();
        assertEquals("fpgamr: failed: java.lang.ExceptionInInitializerError (root cause: java.lang.IllegalStateException: "
            + BrokenFileSystem.WHY + "); the stack trace is in " + log, lines.get(lines.size() - 1), stderr);
        assertEquals(1, lines.stream().filter(l -> l.contains("failed")).count(), stderr);
        assertFalse(stderr.contains("\tat "), "no stack trace on stderr: " + stderr);
        assertEquals("", Files.readString(out, StandardCharsets.UTF_8));
        String trace = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(trace.contains("unexpected failure"), trace);
        assertTrue(trace.contains("java.lang.ExceptionInInitializerError"), trace);
        assertTrue(trace.contains("Caused by: java.lang.IllegalStateException: " + BrokenFileSystem.WHY), trace);
        assertTrue(trace.contains("at " + BrokenFileSystem.class.getName() + ".<clinit>"), trace);
        assertTrue(trace.contains("at " + Main.class.getName() + ".run"), trace);
    }

    @Test
    void theRootCauseIsTheInnermost() {
        IllegalStateException root = new IllegalStateException("root");
        RuntimeException outer = new RuntimeException(new java.io.IOException(root));
        assertEquals(root, FailureLog.rootCause(outer));
        assertEquals(root, FailureLog.rootCause(root));
    }
}
