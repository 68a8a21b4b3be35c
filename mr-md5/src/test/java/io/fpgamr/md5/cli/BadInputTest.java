package io.fpgamr.md5.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.md5.job.Md5Job;
import io.fpgamr.md5.run.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every bad input: one line on stderr naming the problem, exit 2, nothing written. */
class BadInputTest {
    private static final String TARGET = "096822475dd517c1089f4b58c7f346ef";

    @TempDir
    Path tmp;

    private record Result(int code, String out, String err) {
    }

    private Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private void assertUsageError(String expectedFragment, String... args) {
        Result r = run(args);
        assertEquals(2, r.code(), r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), "exactly one line on stderr: " + r.err());
        assertTrue(lines.get(0).startsWith("fpgamr: "), lines.get(0));
        assertTrue(lines.get(0).contains(expectedFragment), lines.get(0) + " should name " + expectedFragment);
        assertFalse(r.err().contains("\tat "), "no stack trace");
        assertEquals("", r.out());
    }

    @Test
    void targetNotAnMd5Digest() {
        assertUsageError("'xyz' is not an MD5 digest", "search", "xyz", "--cluster", "local");
        assertUsageError("is not an MD5 digest", "search", TARGET + "0", "--cluster", "local");
        assertUsageError("is not an MD5 digest", "bench", "g96822475dd517c1089f4b58c7f346ef", "--cluster", "local");
    }

    @Test
    void noTargetAtAll() {
        assertUsageError("no target", "search", "--bits", "20", "--cluster", "local");
    }

    @Test
    void bitsOutOfRange() {
        assertUsageError("--bits must be in 1..40, got 0", "search", TARGET, "--bits", "0");
        assertUsageError("--bits must be in 1..40, got 41", "search", TARGET, "--bits", "41");
        assertUsageError("--bits must be a number", "search", TARGET, "--bits", "many");
    }

    @Test
    void repeatOutOfRange() {
        assertUsageError("--repeat must be in 1..100, got 0", "bench", TARGET, "--repeat", "0");
        assertUsageError("--repeat must be a number, got 'twice'", "search", TARGET, "--repeat", "twice");
    }

    @Test
    void benchRepeatsFiveTimesByDefaultAsTheThesisSearchOnce() throws UsageException {
        assertEquals(5, RunConfig.parse(Md5Job.Mode.BENCH, new String[] {TARGET}, false).repeat());
        assertEquals(1, RunConfig.parse(Md5Job.Mode.SEARCH, new String[] {TARGET}, false).repeat());
        assertEquals(3, RunConfig.parse(Md5Job.Mode.SEARCH, new String[] {TARGET, "--repeat", "3"}, false).repeat());
    }

    @Test
    void ppkOtherThanOneOrBatch() {
        assertUsageError("--ppk must be 1 or 262144, got 2", "search", TARGET, "--ppk", "2");
        assertUsageError("--ppk must be in 1..262144, got 262145", "bench", TARGET, "--ppk", "262145");
    }

    @Test
    void missingHashList() {
        assertUsageError("--hash-list: no such file: " + tmp.resolve("none.txt"), "search", "--hash-list", tmp.resolve("none.txt").toString());
    }

    @Test
    void hashListWithABadLineNamesTheLine() throws Exception {
        Path list = tmp.resolve("list.txt");
        Files.writeString(list, TARGET + "\n# comment\n\nnot-a-digest\n");
        assertUsageError(list + ":4: 'not-a-digest' is not an MD5 digest", "search", "--hash-list", list.toString());
    }

    @Test
    void existingOutputDirectoryIsLeftAlone() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("keep.txt"), "mine");
        assertUsageError("--output: " + out + " already exists", "search", TARGET, "--bits", "8", "--cluster", "local", "--output", out.toString());
        assertEquals(List.of(out.resolve("keep.txt")), Files.list(out).toList());
        assertEquals("mine", Files.readString(out.resolve("keep.txt")));
    }

    @Test
    void unreachableCluster() {
        Path out = tmp.resolve("never");
        assertUsageError("cannot reach the cluster's file system hdfs://127.0.0.1:1",
            "search", "-D", "fs.defaultFS=hdfs://127.0.0.1:1", TARGET, "--bits", "8", "--cluster", "conf", "--output", out.toString());
        assertFalse(Files.exists(out));
    }

    @Test
    void nodeTypesThatDoNotMakeACluster() {
        assertUsageError("--nodes: a node type is one of x86, fpga, arm, arm-fpga, with an optional count (x86:2); got 'risc-v'",
            "search", TARGET, "--nodes", "x86,risc-v");
        assertUsageError("--nodes: the count of x86 nodes must be in 1..16, got '0'", "search", TARGET, "--nodes", "x86:0");
        assertUsageError("--nodes: an embedded cluster needs an x86 node (it runs the job's ApplicationMaster and reducers)",
            "search", TARGET, "--nodes", "arm:2");
        assertUsageError("--nodes: fpga nodes need simulated FPGAs: --fpga-devices must be at least 1",
            "search", TARGET, "--nodes", "x86,fpga", "--fpga-devices", "0");
    }

    /**
     * A design package that is a FIFO (nobody ever writes to it), or whose zip end record declares a
     * central directory of 65535 entries in 200 MiB (a sparse file: the directory is a hole): each
     * refused in one line, exit 2, before any cluster, without waiting on the FIFO or reading the
     * directory.
     */
    @Test
    void aDesignThatIsAFifoOrHasAHugeCentralDirectory() throws Exception {
        Path fifo = tmp.resolve("design.zip");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        Path huge = tmp.resolve("huge.zip");
        long cd = 200L << 20;
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(huge, java.nio.file.StandardOpenOption.CREATE_NEW,
            java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(22).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0x06054b50).putInt(0)
                .putShort((short) 0xffff).putShort((short) 0xffff).putInt((int) cd).putInt(0).putShort((short) 0).flip(), cd);
        }
        // a guard against the hang this test is about, not a timed assertion
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofMinutes(2), () -> {
            assertUsageError("--design: " + fifo + ": not a regular file (a FIFO, socket or device) (a design package is a regular "
                + "file of at most 268435456 bytes)", "search", TARGET, "--accel", "fpga", "--design", fifo.toString());
            assertUsageError("--design: " + huge + ": its zip end record declares a central directory of 65535 entries in "
                + "209715200 bytes, more than a design package may have (64 entries, 65536 bytes)",
                "search", TARGET, "--accel", "fpga", "--design", huge.toString());
            assertUsageError("--design: " + tmp.resolve("absent.zip") + ": no such file",
                "search", TARGET, "--accel", "fpga", "--design", tmp.resolve("absent.zip").toString());
        });
    }

    @Test
    void unknownOptionsAndCommands() {
        assertUsageError("Unrecognized option: --bogus", "search", TARGET, "--bogus");
        assertUsageError("unknown command 'find'", "find", TARGET);
        assertUsageError("--cluster must be embedded, local or conf", "search", TARGET, "--cluster", "mars");
        assertUsageError("--accel must be cpu, fpga, auto or java", "search", TARGET, "--accel", "gpu");
        assertUsageError("--reducers applies to bench mode only", "search", TARGET, "--reducers", "3");
        assertUsageError("--summary-json: no such directory", "search", TARGET, "--summary-json", tmp.resolve("a/b.json").toString());
    }

    @Test
    void helpIsRealAndExitsZero() {
        Result r = run("search", "--help");
        assertEquals(0, r.code());
        for (String flag : List.of("--hash-list", "--bits", "--ppk", "--records-per-split", "--maps", "--cluster", "--output",
            "--summary-json", "--accel", "--device", "$HEX[")) {
            assertTrue(r.out().contains(flag), "help mentions " + flag);
        }
        assertEquals(2, run().code());
    }
}
