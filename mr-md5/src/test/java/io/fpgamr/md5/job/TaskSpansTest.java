package io.fpgamr.md5.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.TaskSpan;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The side files' folders per attempt, read back on the local file system: only the attempts given count. */
class TaskSpansTest {
    @TempDir
    Path out;

    private static TaskAttemptID attempt(String kind, int task, int attempt) {
        return TaskAttemptID.forName(String.format("attempt_1700000000000_0001_%s_%06d_%d", kind, task, attempt));
    }

    /** What a task attempt leaves: its span, and a map's platform and marks, in one file. */
    private void leave(TaskAttemptID a, long values) throws IOException {
        Path dir = Files.createDirectories(out.resolve(TaskSpans.ATTEMPTS_DIR));
        boolean map = a.getTaskType() == org.apache.hadoop.mapreduce.TaskType.MAP;
        StringWriter span = new StringWriter();
        TaskSpan.CSV.write(span, List.of(new TaskSpan(a.getTaskID().toString(), map ? TaskSpan.MAP : TaskSpan.REDUCE, "node:1", "cpu", false,
            1000, 1100, 2000, values)));
        Files.writeString(dir.resolve(a.toString()), span + (map ? "platform amd64,linux-x86_64,false\nmarks 1100,1200," + (1300 + values) + "\n" : ""));
    }

    private static FileSystem local() throws IOException {
        return FileSystem.getLocal(new Configuration());
    }

    private org.apache.hadoop.fs.Path outPath() {
        return new org.apache.hadoop.fs.Path(out.toUri());
    }

    @Test
    void onlyTheGivenAttemptsCount() throws IOException {
        TaskAttemptID killed = attempt("m", 0, 0);
        TaskAttemptID retried = attempt("m", 0, 1);
        TaskAttemptID other = attempt("m", 1, 0);
        TaskAttemptID reduce = attempt("r", 0, 0);
        leave(killed, 7);
        leave(retried, 5);
        leave(other, 3);
        leave(reduce, 0);
        List<TaskAttemptID> succeeded = List.of(retried, other, reduce);
        List<AttemptFile> files = TaskSpans.read(local(), outPath(), succeeded);
        List<TaskSpan> spans = TaskSpans.spans(files);
        assertEquals(3, spans.size(), spans.toString());
        assertEquals(8, spans.stream().mapToLong(TaskSpan::values).sum(), "the killed attempt's 7 values do not count: " + spans);
        assertEquals(Map.of("task_1700000000000_0001_m_000000", new MapMarks(1100, 1200, 1305),
            "task_1700000000000_0001_m_000001", new MapMarks(1100, 1200, 1303)), TaskSpans.marks(files));
        assertEquals(Map.of("task_1700000000000_0001_m_000000", new MapPlatform("amd64", "linux-x86_64", false),
            "task_1700000000000_0001_m_000001", new MapPlatform("amd64", "linux-x86_64", false)), TaskSpans.platforms(files));
    }

    @Test
    void theLocalRunnersAttemptsAreOnePerTaskAndTwoAreRefused() throws IOException {
        assertEquals(List.of(), TaskSpans.onlyAttempts(local(), outPath()));
        leave(attempt("m", 1, 0), 3);
        leave(attempt("m", 0, 0), 5);
        leave(attempt("r", 0, 0), 0);
        assertEquals(List.of(attempt("m", 0, 0), attempt("m", 1, 0), attempt("r", 0, 0)), TaskSpans.onlyAttempts(local(), outPath()));
        leave(attempt("m", 1, 1), 3);
        String message = assertThrows(IOException.class, () -> TaskSpans.onlyAttempts(local(), outPath())).getMessage();
        assertTrue(message.endsWith(": task task_1700000000000_0001_m_000001 has two attempts, attempt_1700000000000_0001_m_000001_0 and "
            + "attempt_1700000000000_0001_m_000001_1, where the local runner makes one"), message);
    }

    @Test
    void aSucceededAttemptWithoutItsSpanIsNamed() throws IOException {
        TaskAttemptID a = attempt("m", 2, 0);
        String message = assertThrows(IOException.class, () -> TaskSpans.read(local(), outPath(), List.of(a))).getMessage();
        assertTrue(message.startsWith("attempt " + a + " succeeded but left no file ("), message);
    }

    @Test
    void aMapsFileWithoutItsMarksIsNamed() throws IOException {
        TaskAttemptID a = attempt("m", 3, 0);
        leave(a, 1);
        Path file = out.resolve(TaskSpans.ATTEMPTS_DIR).resolve(a.toString());
        List<String> lines = Files.readAllLines(file);
        Files.write(file, lines.subList(0, 3));
        String message = assertThrows(IOException.class, () -> TaskSpans.read(local(), outPath(), List.of(a))).getMessage();
        assertTrue(message.endsWith(a + ": not a map attempt's file: expected the task span's header, its row, a platform line and a marks line "
            + "(4 lines), got 3 lines"), message);
        Files.write(file, List.of(lines.get(0), lines.get(1), lines.get(3), lines.get(2)));
        message = assertThrows(IOException.class, () -> TaskSpans.read(local(), outPath(), List.of(a))).getMessage();
        assertTrue(message.endsWith(a + ": expected a 'platform ...' line, got 'marks 1100,1200,1301'"), message);
    }
}
