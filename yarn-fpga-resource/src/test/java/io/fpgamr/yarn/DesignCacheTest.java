package io.fpgamr.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.accel.design.DesignPackage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
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
}
