package io.fpgamr.md5.experiment;

import io.fpgamr.accel.AtomicFiles;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code DIR/results.csv}: every run done so far, rewritten whole and atomically after each run, so
 * that an interrupted study leaves the runs it finished and nothing half-written; a resumed study
 * reads it and skips them.
 */
public final class Results {
    public static final String FILE = "results.csv";

    private final Path file;
    private final List<ResultRow> rows;

    private Results(Path file, List<ResultRow> rows) {
        this.file = file;
        this.rows = new ArrayList<>(rows);
    }

    /** The results in {@code dir}, none when it has no results file yet. */
    public static Results open(Path dir) throws IOException {
        Path f = dir.resolve(FILE);
        return new Results(f, Files.exists(f) ? ResultRow.CSV.read(f) : List.of());
    }

    public List<ResultRow> rows() {
        return Collections.unmodifiableList(rows);
    }

    /** Whether run {@code run} of the point is recorded (done or failed). */
    public boolean has(Point p, int run) {
        return rows.stream().anyMatch(r -> r.point().equals(p.id()) && r.run() == run);
    }

    /** The rows of one point, in run order. */
    public List<ResultRow> of(Point p) {
        return rows.stream().filter(r -> r.point().equals(p.id())).sorted((a, b) -> Integer.compare(a.run(), b.run())).toList();
    }

    /** Forgets the failed runs, so that they run again; returns how many. */
    public int forgetFailed() throws IOException {
        int before = rows.size();
        rows.removeIf(r -> !r.ok());
        if (rows.size() != before) {
            write();
        }
        return before - rows.size();
    }

    /** Records a run and writes the file. */
    public void add(ResultRow row) throws IOException {
        rows.add(row);
        write();
    }

    private void write() throws IOException {
        StringWriter w = new StringWriter();
        ResultRow.CSV.write(w, rows);
        AtomicFiles.write(file, w.toString().getBytes(StandardCharsets.UTF_8));
    }
}
