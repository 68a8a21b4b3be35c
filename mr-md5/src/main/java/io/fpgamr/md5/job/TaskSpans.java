package io.fpgamr.md5.job;

import io.fpgamr.energy.TaskSpan;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The job's timeline as its tasks record it: each task attempt writes its {@link TaskSpan} (in
 * {@link TaskSpan#CSV}'s form), and a map also its platform ({@link MapPlatform}) and its own marks
 * ({@link MapMarks}), into a folder of its own under the job's output folder,
 * {@code <output>/_attempts/<attempt id>/} ({@code span}, {@code platform}, {@code marks}), created
 * directly, not through the output committer: a task with nothing else to write then has nothing to
 * commit and ends without the commit's round trip to the ApplicationMaster (issue 40's fifth cut,
 * mr-md5/README.md). Every attempt leaves its folder, a killed or failed one too, so the readers take
 * the attempts they are given: each task's succeeded attempt, from the job's task completion events
 * on YARN ({@link #succeeded}) or, on the local runner, which retries nothing, each task's one
 * attempt ({@link #onlyAttempts}). The leading {@code _} keeps the folder out of what
 * {@code FileInputFormat}-style readers of the output take. The local runner, the embedded cluster
 * and a real cluster so give the launcher the same timeline, with only the attempts that succeeded.
 */
public final class TaskSpans {
    /** The folder under the job's output that holds a folder per task attempt. */
    public static final String ATTEMPTS_DIR = "_attempts";
    static final String SPAN = "span";
    /** A map's platform ({@link MapPlatform}), beside its span. */
    static final String PLATFORM = "platform";
    /** A map's own marks ({@link MapMarks}), beside its span. */
    static final String MARKS = "marks";
    /** Task completion events asked for at a time. */
    private static final int EVENTS_PAGE = 1000;

    private TaskSpans() {
    }

    /**
     * Records a map that began at {@code setupMs} (its JVM's start in a YARN container) and ends now,
     * having hashed {@code values} (as its engine counted them) on {@code hardware} (cpu, fpga), on
     * {@code platform} (as the map saw it), its own work at {@code marks}.
     */
    static void writeMap(TaskInputOutputContext<?, ?, ?, ?> context, String hardware, boolean simulated, long setupMs, long values,
        MapPlatform platform, MapMarks marks) throws IOException {
        write(context, new TaskSpan(taskId(context), TaskSpan.MAP, nodeName(), hardware, simulated, taskStart(setupMs), setupMs,
            System.currentTimeMillis(), values));
        writeLine(context, PLATFORM, platform.line());
        writeLine(context, MARKS, marks.line());
    }

    /** A one-line side file {@code name} in the task attempt's own folder. */
    private static void writeLine(TaskInputOutputContext<?, ?, ?, ?> context, String name, String line) throws IOException {
        Path file = attemptFile(context, name);
        try (Writer out = new OutputStreamWriter(file.getFileSystem(context.getConfiguration()).create(file, true), StandardCharsets.UTF_8)) {
            out.write(line + "\n");
        }
    }

    /** Records a reduce whose input was shuffled and merged at {@code readyMs} and that ends now. */
    static void writeReduce(TaskInputOutputContext<?, ?, ?, ?> context, long readyMs) throws IOException {
        write(context, new TaskSpan(taskId(context), TaskSpan.REDUCE, nodeName(), "cpu", false, taskStart(readyMs), readyMs,
            System.currentTimeMillis()));
    }

    private static String taskId(TaskInputOutputContext<?, ?, ?, ?> context) {
        return context.getTaskAttemptID().getTaskID().toString();
    }

    /** The NodeManager's host inside a YARN container, the host name elsewhere: how node attributes and the balance plan name a node. */
    static String host() throws IOException {
        String host = System.getenv("NM_HOST");
        return host != null ? host : InetAddress.getLocalHost().getHostName();
    }

    /** The NodeManager's id inside a YARN container, the host name elsewhere. */
    private static String nodeName() throws IOException {
        String host = System.getenv("NM_HOST");
        String port = System.getenv("NM_PORT");
        if (host != null && port != null) {
            return host + ":" + port;
        }
        return InetAddress.getLocalHost().getHostName();
    }

    /**
     * When this task began: in a YARN container its JVM's start; in the local runner, where tasks
     * share the launcher's JVM, the given fallback.
     */
    private static long taskStart(long fallback) {
        return System.getenv("CONTAINER_ID") != null ? ManagementFactory.getRuntimeMXBean().getStartTime() : fallback;
    }

    /** Writes the span into the task attempt's own folder. */
    private static void write(TaskInputOutputContext<?, ?, ?, ?> context, TaskSpan span) throws IOException {
        Path file = attemptFile(context, SPAN);
        try (Writer out = new OutputStreamWriter(file.getFileSystem(context.getConfiguration()).create(file, true), StandardCharsets.UTF_8)) {
            TaskSpan.CSV.write(out, List.of(span));
        }
    }

    /** A side file in the task attempt's own folder under the job's output. */
    private static Path attemptFile(TaskInputOutputContext<?, ?, ?, ?> context, String name) {
        return new Path(attemptDir(FileOutputFormat.getOutputPath(context), context.getTaskAttemptID()), name);
    }

    private static Path attemptDir(Path outputDir, TaskAttemptID attempt) {
        return new Path(new Path(outputDir, ATTEMPTS_DIR), attempt.toString());
    }

    /**
     * Each task's succeeded attempt, from a YARN job's task completion events: read while the
     * ApplicationMaster still answers (the launcher reads them with the counters). A killed or failed
     * attempt's event is not SUCCEEDED; a succeeded map attempt whose output was lost later (its node
     * gone) has its event turned OBSOLETE by the AM when the task's next attempt succeeds.
     */
    public static List<TaskAttemptID> succeeded(Job job) throws IOException, InterruptedException {
        Map<TaskID, TaskAttemptID> byTask = new TreeMap<>();
        for (int from = 0;;) {
            TaskCompletionEvent[] events = job.getTaskCompletionEvents(from, EVENTS_PAGE);
            for (TaskCompletionEvent e : events) {
                if (e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
                    byTask.put(e.getTaskAttemptId().getTaskID(), e.getTaskAttemptId());
                }
            }
            from += events.length;
            if (events.length < EVENTS_PAGE) {
                return List.copyOf(byTask.values());
            }
        }
    }

    /**
     * The attempts that left a folder under a local runner job's output: the local runner keeps no
     * completion events and retries nothing, so each task has one attempt, and two of one task are an
     * error (an output folder written by something else).
     */
    public static List<TaskAttemptID> onlyAttempts(FileSystem fs, Path outputDir) throws IOException {
        Path dir = new Path(outputDir, ATTEMPTS_DIR);
        Map<TaskID, TaskAttemptID> byTask = new TreeMap<>();
        if (!fs.exists(dir)) {
            return List.of();
        }
        FileStatus[] folders = fs.listStatus(dir);
        Arrays.sort(folders);
        for (FileStatus st : folders) {
            TaskAttemptID attempt;
            try {
                attempt = TaskAttemptID.forName(st.getPath().getName());
            } catch (IllegalArgumentException e) {
                throw new IOException(st.getPath() + ": not a task attempt's folder");
            }
            TaskAttemptID other = byTask.put(attempt.getTaskID(), attempt);
            if (other != null) {
                throw new IOException(dir + ": task " + attempt.getTaskID() + " has two attempts, " + other + " and " + attempt
                    + ", where the local runner makes one");
            }
        }
        return List.copyOf(byTask.values());
    }

    /** The platforms of {@code attempts}' maps under a job's output folder, by task. */
    public static Map<String, MapPlatform> readPlatforms(FileSystem fs, Path outputDir, Collection<TaskAttemptID> attempts) throws IOException {
        return readLines(fs, outputDir, attempts, PLATFORM, MapPlatform::parse);
    }

    /** The own marks of {@code attempts}' maps under a job's output folder, by task. */
    public static Map<String, MapMarks> readMarks(FileSystem fs, Path outputDir, Collection<TaskAttemptID> attempts) throws IOException {
        return readLines(fs, outputDir, attempts, MARKS, MapMarks::parse);
    }

    /** The one-line side file {@code name} of each of {@code attempts}' maps, parsed, by task. */
    private static <T> Map<String, T> readLines(FileSystem fs, Path outputDir, Collection<TaskAttemptID> attempts, String name,
        Function<String, T> parse) throws IOException {
        Map<String, T> byTask = new TreeMap<>();
        for (TaskAttemptID attempt : attempts) {
            if (attempt.getTaskType() != TaskType.MAP) {
                continue;
            }
            Path file = new Path(attemptDir(outputDir, attempt), name);
            try (BufferedReader in = new BufferedReader(new InputStreamReader(open(fs, file, attempt), StandardCharsets.UTF_8))) {
                String line = in.readLine();
                byTask.put(attempt.getTaskID().toString(), parse.apply(line == null ? "" : line));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ": " + e.getMessage(), e);
            }
        }
        return byTask;
    }

    /** The spans of {@code attempts} (each task's succeeded one) under a job's output folder. */
    public static List<TaskSpan> read(FileSystem fs, Path outputDir, Collection<TaskAttemptID> attempts) throws IOException {
        List<TaskSpan> spans = new ArrayList<>();
        for (TaskAttemptID attempt : attempts) {
            Path file = new Path(attemptDir(outputDir, attempt), SPAN);
            try (Reader in = new InputStreamReader(open(fs, file, attempt), StandardCharsets.UTF_8)) {
                List<TaskSpan> one = TaskSpan.CSV.read(in, file.toString());
                if (one.size() != 1) {
                    throw new IOException(file + ": " + one.size() + " task spans, not one");
                }
                spans.addAll(one);
            }
        }
        return spans;
    }

    /** Opens a succeeded attempt's side file, which every attempt that succeeded wrote. */
    private static FSDataInputStream open(FileSystem fs, Path file, TaskAttemptID attempt) throws IOException {
        try {
            return fs.open(file);
        } catch (FileNotFoundException e) {
            throw new IOException("attempt " + attempt + " succeeded but left no " + file.getName() + " (" + file + ")", e);
        }
    }
}
