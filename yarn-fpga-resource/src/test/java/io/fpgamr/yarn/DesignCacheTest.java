package io.fpgamr.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.accel.design.DesignPackage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node's design copies: read from the copy, removed by age and by room unless a device holds them; stale staging removed. */
class DesignCacheTest {
    private static final long HOUR = 3600_000;

    @TempDir
    Path tmp;

    private DesignPackage design(String name, int bytes) throws Exception {
        Path lib = Files.createDirectories(tmp.resolve("lib-" + name)).resolve("libfpgamr-vsim-p1.so");
        byte[] b = new byte[bytes]; // random, so the packages keep their size
        new java.util.Random(name.hashCode()).nextBytes(b);
        Files.write(lib, b);
        return DesignPackage.createVsim(tmp.resolve(name + ".zip"), 1, lib);
    }

    private List<String> copies() throws Exception {
        try (Stream<Path> s = Files.list(tmp.resolve("designs"))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private void usedAgo(DesignPackage copy, long ms) throws Exception {
        Files.setLastModifiedTime(copy.file(), FileTime.fromMillis(System.currentTimeMillis() - ms));
    }

    @Test
    void aContainersPackageIsReadFromTheNodesCopy() throws Exception {
        DesignPackage brought = design("a", 1000);
        DesignCache cache = new DesignCache(tmp.resolve("designs"), tmp.resolve("staging"), 1L << 30, HOUR);
        DesignPackage d = cache.open(brought.file());
        assertEquals(tmp.resolve("designs/" + brought.sha256() + ".zip"), d.file());
        Files.writeString(brought.file(), "changed by the container afterwards");
        assertEquals(brought.sha256(), DesignPackage.sha256(d.file()));
        assertEquals(List.of(brought.sha256() + ".zip"), copies());
    }

    @Test
    void ofADesignShippedPerPlatformTheNodeTakesItsContainersBuild() throws Exception {
        Path lib = Files.createDirectories(tmp.resolve("lib")).resolve("libfpgamr-vsim-p4.so");
        Files.writeString(lib, "a model");
        DesignPackage x86 = DesignPackage.createVsim(tmp.resolve("x86.zip"), 4, lib, "linux-x86_64");
        DesignPackage armhf = DesignPackage.createVsim(tmp.resolve("armhf.zip"), 4, lib, "linux-armhf");
        DesignCache cache = new DesignCache(tmp.resolve("designs"), tmp.resolve("staging"), 1L << 30, HOUR);
        List<Path> brought = List.of(x86.file(), armhf.file());
        assertEquals(armhf.sha256(), cache.openFor(brought, "linux-armhf").sha256());
        assertEquals("linux-armhf", cache.openFor(brought, "linux-armhf").platform());
        assertEquals(x86.sha256(), cache.openFor(brought, "linux-x86_64").sha256());
        assertEquals("the container brought simulated designs for linux-x86_64, linux-armhf, none for this node's containers "
            + "(linux-aarch64)", org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> cache.openFor(brought, "linux-aarch64")).getMessage());
        // one package is the container's, whatever its platform: loading it onto a device says what does not fit
        assertEquals(x86.sha256(), cache.openFor(List.of(x86.file()), "linux-armhf").sha256());
    }

    @Test
    void copiesGoByAgeThenByRoomButNotWhileADeviceHoldsThem() throws Exception {
        DesignCache cache = new DesignCache(tmp.resolve("designs"), tmp.resolve("staging"), 0, HOUR);
        DesignPackage old = cache.keep(design("old", 20_000));
        DesignPackage used = cache.keep(design("used", 20_000));
        DesignPackage recent = cache.keep(design("recent", 20_000));
        long room = Files.size(old.file()) + Files.size(recent.file()) + 100; // held copies take room too
        cache = new DesignCache(tmp.resolve("designs"), tmp.resolve("staging"), room, HOUR);
        usedAgo(old, 2 * HOUR);
        usedAgo(used, HOUR / 2);
        usedAgo(recent, 60_000);
        cache.trim(Set.of(old.sha256()));
        assertEquals(List.of(old.sha256() + ".zip", recent.sha256() + ".zip").stream().sorted().toList(), copies(),
            "the held one stays however old; of the others the least recently used goes for room");

        cache = new DesignCache(tmp.resolve("designs"), tmp.resolve("staging"), 1L << 30, HOUR);
        cache.trim(Set.of());
        assertEquals(List.of(recent.sha256() + ".zip"), copies(), "unheld and unused for two hours: gone");
        assertNotEquals(null, cache.get(recent.sha256()));
    }

    @Test
    void stagingLeftByAnInterruptedLoadGoesWithoutFollowingLinks() throws Exception {
        Path staging = Files.createDirectories(tmp.resolve("staging"));
        Path outside = Files.writeString(tmp.resolve("outside"), "not the cache's");
        Path stale = Files.createDirectories(staging.resolve("0123456789ab-1"));
        Files.writeString(stale.resolve("a.rbf"), "bits");
        Files.createSymbolicLink(stale.resolve("link"), outside);
        Path fresh = Files.createDirectories(staging.resolve("0123456789ab-2"));
        for (Path p : List.of(stale.resolve("a.rbf"), stale)) {
            Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - DesignCache.STAGING_GRACE_MS - 60_000));
        }
        new DesignCache(tmp.resolve("designs"), staging, 1L << 30, HOUR).trim(Set.of());
        assertTrue(Files.notExists(stale));
        assertTrue(Files.isDirectory(fresh), "a load may be using it");
        assertEquals("not the cache's", Files.readString(outside));
    }

    /**
     * A package whose zip end record declares a central directory of 65535 entries in 200 MiB, the
     * directory itself a hole (a sparse file: nothing on disk), as a job could ship: opening it the
     * way {@link java.util.zip.ZipFile} does would allocate 200 MiB of the NodeManager's heap.
     */
    private Path hugeCentralDirectory() throws Exception {
        Path p = tmp.resolve("huge-cd.zip");
        long cd = 200L << 20;
        java.nio.ByteBuffer end = java.nio.ByteBuffer.allocate(22).order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) 0xffff).putShort((short) 0xffff)
            .putInt((int) cd).putInt(0).putShort((short) 0);
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.CREATE_NEW,
            java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(end.flip(), cd);
        }
        return p;
    }

    /**
     * A FIFO, a link and a package with a huge central directory as a container's localized
     * package: each refused in one line, and meanwhile another container's package, opened on
     * another thread, is checked and copied in (before, a FIFO held the cache's lock forever).
     */
    @Test
    void aFifoALinkAndAHugeCentralDirectoryAreRefusedWhileAnotherContainersPackageIsCopiedIn() throws Exception {
        DesignCache cache = new DesignCache(tmp.resolve("designs"), tmp.resolve("staging"), 1L << 30, HOUR);
        Path fifo = tmp.resolve("fifo.zip");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        DesignPackage real = design("real", 1000);
        Path link = Files.createSymbolicLink(tmp.resolve("link.zip"), real.file());
        Path huge = hugeCentralDirectory();
        String limits = " (a design package is a regular file of at most " + DesignPackage.MAX_PACKAGE_BYTES + " bytes)";
        Map<Path, String> refusals = Map.of(
            fifo, fifo + ": not a regular file (a FIFO, socket or device)" + limits,
            link, link + ": a symbolic link" + limits,
            huge, huge + ": its zip end record declares a central directory of 65535 entries in 209715200 bytes, more than a "
                + "design package may have (64 entries, 65536 bytes)");
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true); // a hung open (the bug) must not keep the test's JVM
            return t;
        });
        try {
            for (Map.Entry<Path, String> bad : refusals.entrySet()) {
                var refused = threads.submit(() -> cache.open(bad.getKey()));
                DesignPackage other = design("other-" + bad.getKey().getFileName(), 1000);
                var launched = threads.submit(() -> cache.open(other.file()));
                // a bound on a hang, not a timed assertion: each completes in milliseconds
                assertEquals(tmp.resolve("designs/" + other.sha256() + ".zip"), launched.get(60, TimeUnit.SECONDS).file(),
                    "another container's package while " + bad.getKey().getFileName() + " is refused");
                var e = assertThrows(java.util.concurrent.ExecutionException.class, () -> refused.get(60, TimeUnit.SECONDS));
                assertEquals(DesignPackage.InvalidDesignException.class, e.getCause().getClass(), String.valueOf(e.getCause()));
                assertEquals(bad.getValue(), e.getCause().getMessage());
                assertEquals(1, e.getCause().getMessage().lines().count());
            }
        } finally {
            threads.shutdownNow();
        }
        assertTrue(copies().stream().noneMatch(n -> n.startsWith(".incoming-")), "nothing half-copied: " + copies());
        assertEquals(3, copies().size(), "the three other packages only: " + copies());
    }

    /**
     * A job's maps start together: its containers bring the same design at once, each in a file
     * of its own, and each gets the node's copy, there when its device loads it ({@link
     * DesignCache#keep}). Before, a second copy moved over the first made the first's check see
     * another file, and the first removed the copy the second had just checked.
     */
    @Test
    void containersBringingTheSameDesignAtOnceAllGetTheCopy() throws Exception {
        DesignPackage brought = design("same", 1000);
        DesignCache cache = new DesignCache(tmp.resolve("designs"), tmp.resolve("staging"), 1L << 30, HOUR);
        Path copy = tmp.resolve("designs/" + brought.sha256() + ".zip");
        int containers = 4;
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(containers);
        try {
            for (int round = 0; round < 100; round++) {
                Files.deleteIfExists(copy); // each round copies the design in afresh
                java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(containers);
                List<java.util.concurrent.Future<DesignPackage>> opened = new java.util.ArrayList<>();
                for (int c = 0; c < containers; c++) {
                    Path own = Files.copy(brought.file(), tmp.resolve("container-" + round + "-" + c + ".zip"));
                    opened.add(threads.submit(() -> {
                        together.await();
                        return cache.keep(cache.open(own));
                    }));
                }
                for (var f : opened) {
                    // a bound on a hang, not a timed assertion
                    assertEquals(copy, f.get(60, TimeUnit.SECONDS).file(), "round " + round);
                }
                assertEquals(List.of(copy.getFileName().toString()), copies(), "round " + round);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
