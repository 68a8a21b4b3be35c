package io.fpgamr.accel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole files or the old ones, never a part, and nothing left behind. */
class AtomicFilesTest {
    @TempDir
    Path tmp;

    private long siblings() throws IOException {
        try (Stream<Path> s = Files.list(tmp.resolve("d"))) {
            return s.count();
        }
    }

    @Test
    void writesReplacesAndLeavesOnlyTheFile() throws Exception {
        Path f = tmp.resolve("d/out.json");
        AtomicFiles.writeString(f, "{\"a\": 1}\n");
        assertEquals("{\"a\": 1}\n", Files.readString(f));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        AtomicFiles.write(f, new byte[] {1, 2, 3});
        assertEquals(3, Files.size(f));
        assertEquals(1, siblings());
        // a writer that fails leaves the old file as it was, and no temporary file
        assertThrows(IOException.class, () -> AtomicFiles.write(f, out -> {
            out.write(new byte[100]);
            throw new IOException("disk full");
        }));
        assertEquals(3, Files.size(f));
        assertEquals(1, siblings());
    }

    @Test
    void concurrentWritersOfOneFileAllSucceedAndReadersSeeWholeFiles() throws Exception {
        Path f = tmp.resolve("d/lib.so");
        byte[] a = new byte[1 << 20];
        byte[] b = new byte[1 << 20];
        java.util.Arrays.fill(b, (byte) 7);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            byte[] content = i % 2 == 0 ? a : b;
            done.add(pool.submit(() -> {
                AtomicFiles.write(f, content);
                byte[] seen = Files.readAllBytes(f);
                assertTrue(java.util.Arrays.equals(seen, a) || java.util.Arrays.equals(seen, b), "a whole file");
                return null;
            }));
        }
        for (Future<?> d : done) {
            d.get();
        }
        pool.shutdown();
        assertEquals(1, siblings());
    }
}
