package io.fpgamr.energy;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The hand-over of a running job's progress to the node exporter: a folder on each node (default
 * {@code /var/lib/fpgamr/spool}, or {@code $FPGAMR_ENERGY_SPOOL}) where each writer keeps one small
 * JSON file (a {@link JobProgress}), {@code <job>~<writer>.progress}, replaced atomically (write to
 * a temporary file, then rename) about once a second. The launcher writes one for the whole job on the machine it
 * runs on; a task may write its own on the node that runs it. The exporter, for each job, sums the
 * task files when there are any on its node and otherwise takes the launcher's file.
 */
public final class ProgressSpool {
    public static final String ENV = "FPGAMR_ENERGY_SPOOL";
    public static final Path DEFAULT_DIR = Path.of("/var/lib/fpgamr/spool");
    private static final String SUFFIX = ".progress";

    private final Path dir;

    public ProgressSpool(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    public Path fileOf(String job, String writer) {
        return dir.resolve(safe(job) + "~" + safe(writer) + SUFFIX);
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    public void write(JobProgress p) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".progress-", ".tmp");
        try {
            Mappers.JSON.writeValue(tmp.toFile(), p);
            try {
                Files.move(tmp, fileOf(p.job(), p.writer()), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, fileOf(p.job(), p.writer()), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Every readable progress file; a file being replaced or malformed is skipped this time. */
    public List<JobProgress> readAll() {
        List<JobProgress> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        } catch (IOException e) {
            return out;
        }
        for (Path f : files) {
            try {
                out.add(read(f));
            } catch (NoSuchFileException e) {
                // replaced or removed meanwhile
            } catch (IOException | RuntimeException e) {
                // malformed: not exported
            }
        }
        return out;
    }

    static JobProgress read(Path f) throws IOException {
        return Mappers.JSON.readValue(f.toFile(), JobProgress.class);
    }

    /** Removes one writer's file. */
    public void remove(String job, String writer) throws IOException {
        Files.deleteIfExists(fileOf(job, writer));
    }

    /** Removes the files not updated since {@code beforeMs}; one that cannot be removed stays for the next time. */
    public void removeUpdatedBefore(long beforeMs) {
        for (JobProgress p : readAll()) {
            if (p.updatedMs() < beforeMs) {
                try {
                    remove(p.job(), p.writer());
                } catch (IOException e) {
                    // left for the next pass
                }
            }
        }
    }

    /** One job's progress on one node: the task files summed, or the launcher's file alone; -1 where no writer knows. */
    public record NodeJob(String job, long valuesHashed, long valuesTotal, long startedMs, long updatedMs,
                          int runningMaps, int runningShuffles, int runningReduces, int runningContainers,
                          int fpgaDevicesInUse, boolean running, boolean simulated) {
    }

    /**
     * Groups the files per job. A job is kept while any writer says running (and wrote within
     * {@code staleMs}), and for {@code lingerMs} after its last update once finished, so that the
     * final values get scraped.
     */
    public static List<NodeJob> perJob(List<JobProgress> files, long nowMs, long staleMs, long lingerMs) {
        java.util.Map<String, List<JobProgress>> byJob = new java.util.TreeMap<>();
        for (JobProgress p : files) {
            byJob.computeIfAbsent(p.job(), k -> new ArrayList<>()).add(p);
        }
        List<NodeJob> out = new ArrayList<>();
        for (java.util.Map.Entry<String, List<JobProgress>> e : byJob.entrySet()) {
            List<JobProgress> tasks = e.getValue().stream().filter(p -> !p.writer().equals("launcher")).toList();
            List<JobProgress> use = tasks.isEmpty() ? e.getValue() : tasks;
            long hashed = -1;
            long total = -1;
            long started = Long.MAX_VALUE;
            long updated = 0;
            int[] counts = {-1, -1, -1, -1, -1};
            boolean running = false;
            // any writer's word that maps ran on a simulated device marks the job's figures here as modelled
            boolean simulated = e.getValue().stream().anyMatch(JobProgress::simulated);
            for (JobProgress p : use) {
                hashed = p.valuesHashed() < 0 ? hashed : Math.max(0, hashed) + p.valuesHashed();
                total = Math.max(total, p.valuesTotal());
                started = Math.min(started, p.startedMs());
                updated = Math.max(updated, p.updatedMs());
                int[] c = {p.runningMaps(), p.runningShuffles(), p.runningReduces(), p.runningContainers(), p.fpgaDevicesInUse()};
                for (int i = 0; i < c.length; i++) {
                    if (c[i] >= 0) {
                        counts[i] = Math.max(0, counts[i]) + (p.running() ? c[i] : 0);
                    }
                }
                running |= p.running() && nowMs - p.updatedMs() <= staleMs;
            }
            if (!running && nowMs - updated > lingerMs) {
                continue;
            }
            out.add(new NodeJob(e.getKey(), hashed, total, started, updated, counts[0], counts[1], counts[2], counts[3], counts[4],
                running, simulated));
        }
        return out;
    }
}
