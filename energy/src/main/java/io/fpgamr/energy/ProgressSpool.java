package io.fpgamr.energy;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The hand-over of a running job's progress to the node exporter: a folder on each node (default
 * {@code /var/lib/fpgamr/spool}, or {@code $FPGAMR_ENERGY_SPOOL}) where each writer keeps one small
 * JSON file (a {@link JobProgress}), {@code <job>~<writer>.progress}, replaced atomically (write to
 * a temporary file, then rename) about once a second. The launcher writes one for the whole job on the machine it
 * runs on; a task may write its own on the node that runs it. The exporter, for each job, sums the
 * task files when there are any on its node and otherwise takes the launcher's file.
 *
 * <p>The writers are other users (the job's tasks), so the reader trusts nothing but what it
 * checks: it takes only regular files, never through a link, of at most {@value #MAX_FILE_BYTES}
 * bytes, whose content names the job and writer their file name says; anything else is skipped
 * and reported once (to the {@code skipped} consumer: the exporter's log). Then {@link JobOwners}
 * decides whether the file's owner may speak for the job it names (the exporter: the user YARN says
 * submitted it). Files are removed by their own name, never by a name their content gives.
 */
public final class ProgressSpool {
    public static final String ENV = "FPGAMR_ENERGY_SPOOL";
    public static final Path DEFAULT_DIR = Path.of("/var/lib/fpgamr/spool");
    private static final String SUFFIX = ".progress";
    static final int MAX_FILE_BYTES = 64 * 1024;
    private static final int MAX_REPORTED = 10_000;

    private final Path dir;
    private final Consumer<String> skipped;
    private final JobOwners owners;
    private final Set<String> reported = new HashSet<>();

    public ProgressSpool(Path dir) {
        this(dir, why -> { });
    }

    /** A spool whose reader reports each file it skips, once, to {@code skipped}, and takes any owner's file. */
    public ProgressSpool(Path dir, Consumer<String> skipped) {
        this(dir, skipped, JobOwners.ANYONE);
    }

    /** A spool whose reader keeps a file only when {@code owners} says its owner may speak for its job. */
    public ProgressSpool(Path dir, Consumer<String> skipped, JobOwners owners) {
        this.dir = dir;
        this.skipped = skipped;
        this.owners = owners;
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
        // Readable by the exporter, which runs as a user of its own.
        Path tmp = Files.createTempFile(dir, ".progress-", ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
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

    /** Every progress file that is what it should be; one being replaced is skipped this time, anything else reported. */
    public List<JobProgress> readAll() {
        return entries().stream().map(Entry::progress).toList();
    }

    private record Entry(Path file, JobProgress progress) {
    }

    /** A file read whole and well formed, but not one to keep: the message says why. */
    private static final class Unfit extends IOException {
        Unfit(String why) {
            super(why);
        }
    }

    private synchronized List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        } catch (IOException e) {
            return out;
        }
        Set<String> seen = new HashSet<>();
        for (Path f : files) {
            String name = f.getFileName().toString();
            seen.add(name);
            try {
                SmallFiles.Content c = SmallFiles.read(f, MAX_FILE_BYTES);
                JobProgress p = Mappers.JSON.readValue(c.bytes(), JobProgress.class);
                if (!f.equals(fileOf(p.job(), p.writer()))) {
                    throw new Unfit("its content is job " + p.job() + ", writer " + p.writer() + ": not what its name says");
                }
                JobOwners.Verdict v = owners.check(p.job(), c.owner());
                switch (v.kind()) {
                    case OWNER -> {
                        out.add(new Entry(f, p));
                        reported.remove(name);
                    }
                    case HELD -> {
                        // asked again at the next read; neither shown nor reported until the authority answers
                    }
                    case REFUSED -> throw new Unfit(v.why());
                }
            } catch (NoSuchFileException e) {
                // replaced or removed meanwhile
            } catch (IOException | RuntimeException e) {
                report(name, e);
            }
        }
        reported.retainAll(seen);
        return out;
    }

    private void report(String name, Exception e) {
        if (reported.size() < MAX_REPORTED && reported.add(name)) {
            String why = e instanceof io.fpgamr.accel.RegularFiles.Refused || e instanceof Unfit
                ? e.getMessage() : "malformed: " + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            skipped.accept("skipped " + dir.resolve(name) + ": " + why);
        }
    }

    /** Removes one writer's file. */
    public void remove(String job, String writer) throws IOException {
        Files.deleteIfExists(fileOf(job, writer));
    }

    /** Removes the files not updated since {@code beforeMs}; one that cannot be removed stays for the next time. */
    public void removeUpdatedBefore(long beforeMs) {
        for (Entry e : entries()) {
            if (e.progress().updatedMs() < beforeMs) {
                try {
                    Files.deleteIfExists(e.file());
                } catch (IOException x) {
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
