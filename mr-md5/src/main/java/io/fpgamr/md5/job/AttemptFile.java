package io.fpgamr.md5.job;

import io.fpgamr.energy.TaskSpan;
import java.util.List;

/**
 * What one task attempt leaves for the launcher ({@link TaskSpans}): its span, and a map's platform
 * and own marks ({@code null} for a reduce). As text: the span's CSV header and row, then a map's
 * {@code platform <line>} and {@code marks <line>}, each line ended by a newline.
 */
public record AttemptFile(TaskSpan span, MapPlatform platform, MapMarks marks) {
    /** The file's text. */
    String text() {
        StringBuilder b = new StringBuilder(TaskSpan.CSV_HEADER).append('\n').append(span.toCsv()).append('\n');
        if (platform != null) {
            b.append(TaskSpans.PLATFORM).append(' ').append(platform.line()).append('\n');
        }
        if (marks != null) {
            b.append(TaskSpans.MARKS).append(' ').append(marks.line()).append('\n');
        }
        return b.toString();
    }

    /**
     * Parses {@link #text()}'s lines, a map's ({@code map}) with its platform and marks; an
     * IllegalArgumentException names what is wrong.
     */
    static AttemptFile parse(List<String> lines, boolean map) {
        int expected = map ? 4 : 2;
        if (lines.size() != expected || !lines.get(0).equals(TaskSpan.CSV_HEADER)) {
            throw new IllegalArgumentException("not a " + (map ? "map" : "reduce") + " attempt's file: expected the task span's header, its row"
                + (map ? ", a platform line and a marks line" : "") + " (" + expected + " lines), got " + lines.size() + " lines");
        }
        TaskSpan span = TaskSpan.parseCsv(lines.get(1));
        if (!map) {
            return new AttemptFile(span, null, null);
        }
        return new AttemptFile(span, MapPlatform.parse(named(lines.get(2), TaskSpans.PLATFORM)), MapMarks.parse(named(lines.get(3), TaskSpans.MARKS)));
    }

    /** The value of a {@code name value} line. */
    private static String named(String line, String name) {
        if (!line.startsWith(name + " ")) {
            throw new IllegalArgumentException("expected a '" + name + " ...' line, got '" + line + "'");
        }
        return line.substring(name.length() + 1);
    }
}
