package io.fpgamr.energy;

import io.fpgamr.energy.sample.CsvTable;
import java.util.List;

/**
 * One task of a job as the task itself recorded it: where it ran, on which hardware, and when, on
 * the wall clock of the power samples ({@link System#currentTimeMillis()}). The job's
 * {@link Timeline} is made of these. {@code kind} is map or reduce; {@code hardware} is cpu or fpga
 * (what hashed a map's values; a reduce's is cpu), {@code simulated} true when that FPGA was a
 * simulated device (a CPU running the Verilated design: its times are the simulation's, not an
 * FPGA's). A reduce's {@code readyMs} is when its input was shuffled and merged: its shuffle phase
 * is start to ready, its reduce phase ready to end; a map's is when its setup was done. A map's
 * {@code values} are the values its engine hashed, as the engine counted them (0 for a reduce):
 * what each node did of the job.
 */
public record TaskSpan(String task, String kind, String node, String hardware, boolean simulated, long startMs, long readyMs,
                       long endMs, long values) {
    public static final String MAP = "map";
    public static final String REDUCE = "reduce";
    /** The CSV form (the tasks' side files and the energy folder's spans.csv), through Jackson's CSV module. */
    public static final CsvTable<TaskSpan> CSV = new CsvTable<>(TaskSpan.class,
        "task", "kind", "node", "hardware", "simulated", "start_ms", "ready_ms", "end_ms", "values");
    /** The header of the CSV form. */
    public static final String CSV_HEADER = CSV.header();

    /** One phase of a task: a map's map phase, a reduce's shuffle or reduce phase. */
    public record Phase(String name, String node, long startMs, long endMs) {
        public static final List<String> NAMES = List.of("map", "shuffle", "reduce");

        /** Whether this phase runs during any part of [{@code fromMs}, {@code toMs}). */
        public boolean overlaps(long fromMs, long toMs) {
            return startMs < toMs && endMs > fromMs;
        }
    }

    public TaskSpan {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("a task span needs its node");
        }
        if (!kind.equals(MAP) && !kind.equals(REDUCE)) {
            throw new IllegalArgumentException("kind must be map or reduce, got '" + kind + "'");
        }
        if (endMs < startMs) {
            throw new IllegalArgumentException(kind + " span on " + node + " ends (" + endMs + ") before it starts (" + startMs + ")");
        }
        readyMs = Math.max(startMs, Math.min(readyMs, endMs));
    }

    /** A task that hashed no values of its own (a reduce), or whose count is not known. */
    public TaskSpan(String task, String kind, String node, String hardware, boolean simulated, long startMs, long readyMs, long endMs) {
        this(task, kind, node, hardware, simulated, startMs, readyMs, endMs, 0);
    }

    public static TaskSpan ofMap(String node, long startMs, long endMs) {
        return new TaskSpan(MAP, MAP, node, "cpu", false, startMs, startMs, endMs);
    }

    public static TaskSpan ofReduce(String node, long startMs, long readyMs, long endMs) {
        return new TaskSpan(REDUCE, REDUCE, node, "cpu", false, startMs, readyMs, endMs);
    }

    public boolean isMap() {
        return kind.equals(MAP);
    }

    /** A map on an FPGA, simulated or not. */
    public boolean onFpga() {
        return isMap() && hardware.equals("fpga");
    }

    public TaskSpan withNode(String newNode) {
        return new TaskSpan(task, kind, newNode, hardware, simulated, startMs, readyMs, endMs, values);
    }

    /** A map is one map phase; a reduce its shuffle (start to ready) and its reduce (ready to end). */
    public List<Phase> phases() {
        if (isMap()) {
            return List.of(new Phase("map", node, startMs, endMs));
        }
        return List.of(new Phase("shuffle", node, startMs, readyMs), new Phase("reduce", node, readyMs, endMs));
    }

    /** The CSV row under {@link #CSV_HEADER}. */
    public String toCsv() {
        return CSV.row(this);
    }

    /** Parses a row written by {@link #toCsv()}; an IllegalArgumentException names what is wrong. */
    public static TaskSpan parseCsv(String row) {
        return CSV.parseRow(row.strip());
    }

    /** The host part of the node name ({@code host:port} inside YARN). */
    public static String host(String node) {
        int colon = node.lastIndexOf(':');
        return colon > 0 && node.indexOf(':') == colon ? node.substring(0, colon) : node;
    }
}
