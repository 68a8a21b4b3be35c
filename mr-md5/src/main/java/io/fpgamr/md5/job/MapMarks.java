package io.fpgamr.md5.job;

/**
 * When a map's own work happened, on the wall clock of its span ({@link System#currentTimeMillis()}):
 * its engine open (the device opened and, on a simulated FPGA, its model loaded), its first batch's
 * start and its last batch's end. Hadoop's reports know the task but not these; the job's timeline
 * ({@code cli/JobTimeline}) puts them between the task's set-up and its end. Each map writes them
 * beside its span ({@link TaskSpans}). A map that hashed nothing has its hashing at its engine open.
 */
public record MapMarks(long engineOpenMs, long hashStartMs, long hashEndMs) {
    public MapMarks {
        if (hashStartMs < engineOpenMs || hashEndMs < hashStartMs) {
            throw new IllegalArgumentException("map marks out of order: engine open " + engineOpenMs + ", hashing " + hashStartMs + " to "
                + hashEndMs);
        }
    }

    /** A map's marks as it kept them: {@code hashStartMs} 0 when it hashed nothing (then its hashing is at its engine open). */
    static MapMarks of(long engineOpenMs, long hashStartMs, long hashEndMs) {
        long start = hashStartMs == 0 ? engineOpenMs : hashStartMs;
        return new MapMarks(engineOpenMs, start, Math.max(start, hashEndMs));
    }

    /** {@code engineOpenMs,hashStartMs,hashEndMs}: the side file's one line. */
    public String line() {
        return engineOpenMs + "," + hashStartMs + "," + hashEndMs;
    }

    /** Parses {@link #line()}; an IllegalArgumentException names what is wrong. */
    public static MapMarks parse(String line) {
        String[] f = line.strip().split(",", -1);
        try {
            if (f.length == 3) {
                return new MapMarks(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]));
            }
        } catch (NumberFormatException e) {
            // falls through to the one message below
        }
        throw new IllegalArgumentException("a map marks line is engine open,hash start,hash end in ms; got '" + line.strip() + "'");
    }
}
