package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster without a single FPGA (the embedded cluster with {@code --fpga-devices 0}: two CPU-only
 * NodeManagers): a job that needs one is refused before it is submitted, in one line, exit 2,
 * rather than left waiting for a container that can never be placed.
 */
class NoFpgaInTheClusterTest {
    @TempDir
    Path tmp;

    @Test
    void accelFpgaFailsAtSubmissionInOneLine() throws Exception {
        Fpgamr.Result r = Fpgamr.run(tmp, "search", Fpgamr.md5Hex(5, 16), "--bits", "16", "--accel", "fpga", "--fpga-devices", "0",
            "--output", tmp.resolve("out").toString());

        assertEquals(2, r.code(), r.err());
        assertEquals("", r.out());
        List<String> lines = r.err().lines().filter(l -> !l.startsWith("fpgamr: starting the embedded cluster")).toList();
        assertEquals(List.of("fpgamr: --accel fpga: no FPGA in the cluster: none of its 2 running nodes offers yarn.io/fpga"), lines,
            r.err());
        assertFalse(Files.exists(tmp.resolve("out")));
    }
}
