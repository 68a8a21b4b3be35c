package io.fpgamr.yarn;

import io.fpgamr.accel.RegularFiles;
import io.fpgamr.accel.design.DesignPackage;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The node's copies of the designs containers brought ({@code <state>/designs/<sha256>.zip}): a
 * package is copied in (within {@link DesignPackage#MAX_PACKAGE_BYTES}) and read only from the
 * copy, so a container cannot change it after it was checked; the copy also reloads a device that
 * recovers. Copies no device holds go when unused for {@link FpgaConf#DESIGN_CACHE_MAX_AGE_MS} or,
 * oldest use first, while they take more than {@link FpgaConf#DESIGN_CACHE_MAX_BYTES}; staging
 * folders a load left behind (a NodeManager stopped mid-load) go after {@value #STAGING_GRACE_MS} ms.
 */
final class DesignCache {
    static final long STAGING_GRACE_MS = 10 * 60_000;
    private static final long TRIM_EVERY_MS = 60_000;
    private static final String SUFFIX = ".zip";
    private static final int MAX_FILES_KNOWN = 1024;

    private final Path dir;
    private final Path staging;
    private final long maxBytes;
    private final long maxAgeMs;
    private final Map<String, DesignPackage> bySha = new HashMap<>();
    private final Map<String, String> shaByFile = new HashMap<>();
    private long lastTrimMs;

    DesignCache(Path dir, Path staging, long maxBytes, long maxAgeMs) {
        this.dir = dir;
        this.staging = staging;
        this.maxBytes = maxBytes;
        this.maxAgeMs = maxAgeMs;
    }

    /**
     * Opens a package a container brought: copied in and checked on first sight of this file
     * version. The container's file is opened without following a link and without blocking
     * ({@link DesignPackage#openRegular}: a link, a FIFO, anything but a regular file of bounded
     * size is refused in one line), its central directory bounded before anything allocates for it,
     * and it is read with no lock held: a container's file never holds up another's launch or the
     * health checks.
     */
    DesignPackage open(Path file) throws IOException {
        try (RegularFiles.Open f = DesignPackage.openRegular(file, false)) {
            String key = f.identity();
            String sha;
            synchronized (this) {
                sha = shaByFile.get(key);
            }
            DesignPackage d = sha == null ? null : get(sha);
            if (d != null) {
                return d;
            }
            DesignPackage.checkCentralDirectory(f, file);
            d = copyIn(f, file);
            synchronized (this) {
                if (shaByFile.size() >= MAX_FILES_KNOWN) {
                    shaByFile.clear(); // only a shortcut: a file seen again is copied and checked again
                }
                shaByFile.put(key, d.sha256());
            }
            return d;
        }
    }

    /**
     * Of the packages a container brought, the one this node loads: a job whose maps may land on
     * nodes of different platforms ships a simulated design once per platform (an x86 FPGA node's
     * containers load the x86 model, an ARM-FPGA node's the armhf one), and the node takes the
     * model built for its containers' {@code platform} ({@link FpgaConf#CONTAINER_PLATFORM}); a
     * hardware design has no platform. Each package is copied in and checked ({@link #open}); a
     * single one is the container's whatever its platform (loading it says what does not fit).
     */
    DesignPackage openFor(List<Path> files, String platform) throws IOException {
        List<DesignPackage> brought = new ArrayList<>();
        for (Path f : files) {
            brought.add(open(f));
        }
        if (brought.size() == 1) {
            return brought.get(0);
        }
        for (DesignPackage d : brought) {
            if (d.kind() == DesignPackage.Kind.RBF || d.platform().equals(platform)) {
                return d;
            }
        }
        throw new IOException("the container brought simulated designs for " + String.join(", ", brought.stream()
            .map(DesignPackage::platform).toList()) + ", none for this node's containers (" + platform + ")");
    }

    /** The node's copy of a design (made now if there is none): {@code d} is a package the node made or copied already. */
    DesignPackage keep(DesignPackage d) throws IOException {
        DesignPackage copy = get(d.sha256());
        if (copy != null) {
            return copy;
        }
        try (RegularFiles.Open f = DesignPackage.openRegular(d.file(), false)) {
            return copyIn(f, d.file());
        }
    }

    /**
     * Copies an open package into the cache (no lock: the source may be a container's) and puts the
     * copy in place under its SHA-256 ({@link #place}).
     */
    private DesignPackage copyIn(RegularFiles.Open from, Path named) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".incoming-", SUFFIX);
        try {
            return place(tmp, DesignPackage.copy(from, named, tmp), named);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Moves a copy ({@code tmp}, of SHA-256 {@code sha}) into place and checks it there ({@link
     * DesignPackage#open}); a copy that fails its check goes at once. Under the lock, and only when
     * no sound copy of that SHA-256 is there yet: two containers that bring the same design at once
     * (a job's maps starting together) both copy it, and the second one's copy, moved over the
     * first, made the first's check see another file and remove the copy the second had just
     * checked (its device was then lent no design).
     */
    private synchronized DesignPackage place(Path tmp, String sha, Path named) throws IOException {
        DesignPackage have;
        try {
            have = get(sha);
        } catch (DesignPackage.InvalidDesignException e) {
            have = null; // a damaged copy: replaced by this one
        }
        if (have != null) {
            return have;
        }
        Path copy = dir.resolve(sha + SUFFIX);
        Files.move(tmp, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        DesignPackage d;
        try {
            d = DesignPackage.open(copy);
        } catch (DesignPackage.InvalidDesignException e) {
            Files.deleteIfExists(copy);
            // name the container's file, not the node's copy
            throw new DesignPackage.InvalidDesignException(e.getMessage().replace(copy.toString(), named.toString()));
        }
        bySha.put(d.sha256(), d);
        return d;
    }

    /** A design this node has a copy of, or null; its use keeps it (the copy's time is its last use). */
    synchronized DesignPackage get(String sha256) throws IOException {
        Path copy = dir.resolve(sha256 + SUFFIX);
        if (!Files.isRegularFile(copy, LinkOption.NOFOLLOW_LINKS)) {
            bySha.remove(sha256);
            return null;
        }
        DesignPackage d = bySha.get(sha256);
        if (d == null) {
            d = DesignPackage.open(copy);
            if (!d.sha256().equals(sha256)) {
                return null;
            }
            bySha.put(sha256, d);
        }
        Files.setLastModifiedTime(copy, FileTime.fromMillis(System.currentTimeMillis()));
        return d;
    }

    /**
     * Removes copies that no device holds ({@code held}: their SHA-256) once unused for too long,
     * then the least recently used while the copies take too much room, and stale staging folders;
     * at most once a minute.
     */
    synchronized void trim(Set<String> held) {
        long now = System.currentTimeMillis();
        if (now - lastTrimMs < TRIM_EVERY_MS) {
            return;
        }
        lastTrimMs = now;
        try {
            trimCopies(held, now);
            removeOlderThan(staging, now - STAGING_GRACE_MS);
        } catch (IOException e) {
            // Tried again at the next trim; nothing depends on it now.
        }
    }

    private void trimCopies(Set<String> held, long now) throws IOException {
        record Copy(Path file, String sha, long size, long usedMs) {
        }
        List<Copy> copies = new ArrayList<>();
        long total = 0;
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path f : s) {
                BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                String name = f.getFileName().toString();
                if (name.startsWith(".incoming-") && a.lastModifiedTime().toMillis() < now - STAGING_GRACE_MS) {
                    Files.deleteIfExists(f);
                } else if (name.endsWith(SUFFIX) && !name.startsWith(".")) {
                    copies.add(new Copy(f, name.substring(0, name.length() - SUFFIX.length()), a.size(), a.lastModifiedTime().toMillis()));
                    total += a.size();
                }
            }
        }
        copies.sort(Comparator.comparingLong(Copy::usedMs));
        for (Copy c : copies) {
            if (held.contains(c.sha()) || (now - c.usedMs() <= maxAgeMs && total <= maxBytes)) {
                continue;
            }
            Files.deleteIfExists(c.file());
            total -= c.size();
            bySha.remove(c.sha());
            shaByFile.values().removeIf(c.sha()::equals);
        }
    }

    /** Removes the entries of {@code folder} (whole trees, links themselves) last changed before {@code beforeMs}. */
    private static void removeOlderThan(Path folder, long beforeMs) throws IOException {
        if (folder == null || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> old = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(folder)) {
            for (Path p : s) {
                if (Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis() < beforeMs) {
                    old.add(p);
                }
            }
        }
        for (Path p : old) {
            removeTree(p);
        }
    }

    /** Removes a file or a whole folder, never following a link (a link is removed itself). */
    static void removeTree(Path top) throws IOException {
        try (Stream<Path> tree = Files.walk(top)) {
            for (Path q : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }
}
