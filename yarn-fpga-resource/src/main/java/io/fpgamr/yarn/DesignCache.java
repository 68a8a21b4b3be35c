package io.fpgamr.yarn;

import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.accel.design.DesignPackage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;

/**
 * The node's copies of the designs it loaded ({@code <state>/designs/<sha256>.zip}), so that a
 * device can be reloaded when it recovers, and the packages containers brought, opened once per
 * file version rather than hashed per container.
 */
final class DesignCache {
    private final Path dir;
    private final Map<String, DesignPackage> bySha = new HashMap<>();
    private final Map<String, DesignPackage> byFile = new HashMap<>();

    DesignCache(Path dir) {
        this.dir = dir;
    }

    /** Opens a package a container brought (checked and hashed on first sight) and keeps a copy. */
    synchronized DesignPackage open(Path file) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        String key = file.toRealPath() + "|" + a.size() + "|" + a.lastModifiedTime().toMillis();
        DesignPackage d = byFile.get(key);
        if (d == null) {
            d = DesignPackage.open(file);
            byFile.put(key, d);
        }
        keep(d);
        return d;
    }

    /** Keeps a copy of a design, for reloading a device that recovers. */
    synchronized void keep(DesignPackage d) throws IOException {
        if (bySha.containsKey(d.sha256())) {
            return;
        }
        Path copy = dir.resolve(d.sha256() + ".zip");
        if (!Files.isRegularFile(copy) || !DesignPackage.sha256(copy).equals(d.sha256())) {
            AtomicFiles.write(copy, out -> Files.copy(d.file(), out));
        }
        bySha.put(d.sha256(), DesignPackage.open(copy));
    }

    /** A design this node loaded before, or null. */
    synchronized DesignPackage get(String sha256) throws IOException {
        DesignPackage d = bySha.get(sha256);
        if (d == null) {
            Path copy = dir.resolve(sha256 + ".zip");
            if (Files.isRegularFile(copy)) {
                d = DesignPackage.open(copy);
                if (d.sha256().equals(sha256)) {
                    bySha.put(sha256, d);
                } else {
                    d = null;
                }
            }
        }
        return d;
    }
}
