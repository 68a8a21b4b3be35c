package io.fpgamr.md5.job;

import io.fpgamr.energy.TaskSpan;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
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
 * The job's timeline as its tasks record it: each task attempt writes one file of its own under the
 * job's output folder, {@code <output>/_attempts/<attempt id>}: its {@link TaskSpan} (the header and
 * row of {@link TaskSpan#CSV}'s form), and a map also its platform ({@link MapPlatform}) and its own
 * marks ({@link MapMarks}), a line each after the span, named ({@code platform ...}, {@code marks
 * ...}). One file, not three: each is a create and a close on the job's file system at the task's
 * end (issue 40's eighth cut, mr-md5/README.md). It is created directly, not through the output committer: a task
 * with nothing else to write then has nothing to commit and ends without the commit's round trip to
 * the ApplicationMaster (issue 40's fifth cut). Every attempt leaves its file, a killed or failed one
 * too, so the readers take the attempts they are given: each task's succeeded attempt, from the job's
 * task completion events on YARN ({@link #succeeded}) or, on the local runner, which retries nothing,
 * each task's one attempt ({@link #onlyAttempts}). The leading {@code _} keeps the folder out of what
 * {@code FileInputFormat}-style readers of the output take. The local runner, the embedded cluster
 * and a real cluster so give the launcher the same timeline, with only the attempts that succeeded.
 */
public final class TaskSpans {
    /** The folder under the job's output that holds a file per task attempt. */
    public static final String ATTEMPTS_DIR = "_attempts";
    /** The name of a map's platform's line ({@link MapPlatform}), after its span. */
    static final String PLATFORM = "platform";
    /** The name of a map's own marks' line ({@link MapMarks}), after its span. */
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
        write(context, new AttemptFile(new TaskSpan(taskId(context), TaskSpan.MAP, nodeName(), hardware, simulated, taskStart(setupMs), setupMs,
            System.currentTimeMillis(), values), platform, marks));
    }

    /** Records a reduce whose input was shuffled and merged at {@code readyMs} and that ends now. */
    static void writeReduce(TaskInputOutputContext<?, ?, ?, ?> context, long readyMs) throws IOException {
        write(context, new AttemptFile(new TaskSpan(taskId(context), TaskSpan.REDUCE, nodeName(), "cpu", false, taskStart(readyMs), readyMs,
            System.currentTimeMillis()), null, null));
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

    /** Writes the task attempt's own file. */
    private static void write(TaskInputOutputContext<?, ?, ?, ?> context, AttemptFile content) throws IOException {
        Path file = attemptFile(FileOutputFormat.getOutputPath(context), context.getTaskAttemptID());
        try (Writer out = new OutputStreamWriter(file.getFileSystem(context.getConfiguration()).create(file, true), StandardCharsets.UTF_8)) {
            out.write(content.text());
        }
    }

    private static Path attemptFile(Path outputDir, TaskAttemptID attempt) {
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
     * The attempts that left a file under a local runner job's output: the local runner keeps no
     * completion events and retries nothing, so each task has one attempt, and two of one task are an
     * error (an output folder written by something else).
     */
    public static List<TaskAttemptID> onlyAttempts(FileSystem fs, Path outputDir) throws IOException {
        Path dir = new Path(outputDir, ATTEMPTS_DIR);
        Map<TaskID, TaskAttemptID> byTask = new TreeMap<>();
        if (!fs.exists(dir)) {
            return List.of();
        }
        FileStatus[] files = fs.listStatus(dir);
        Arrays.sort(files);
        for (FileStatus st : files) {
            TaskAttemptID attempt;
            try {
                attempt = TaskAttemptID.forName(st.getPath().getName());
            } catch (IllegalArgumentException e) {
                throw new IOException(st.getPath() + ": not a task attempt's file");
            }
            TaskAttemptID other = byTask.put(attempt.getTaskID(), attempt);
            if (other != null) {
                throw new IOException(dir + ": task " + attempt.getTaskID() + " has two attempts, " + other + " and " + attempt
                    + ", where the local runner makes one");
            }
        }
        return List.copyOf(byTask.values());
    }

    /** What {@code attempts} (each task's succeeded one) left under a job's output folder, in their order. */
    public static List<AttemptFile> read(FileSystem fs, Path outputDir, Collection<TaskAttemptID> attempts) throws IOException {
        List<AttemptFile> files = new ArrayList<>();
        for (TaskAttemptID attempt : attempts) {
            Path file = attemptFile(outputDir, attempt);
            List<String> lines;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(open(fs, file, attempt), StandardCharsets.UTF_8))) {
                lines = in.lines().toList();
            }
            try {
                files.add(AttemptFile.parse(lines, attempt.getTaskType() == TaskType.MAP));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ": " + e.getMessage(), e);
            }
        }
        return files;
    }

    /** The spans of {@code files}. */
    public static List<TaskSpan> spans(List<AttemptFile> files) {
        return files.stream().map(AttemptFile::span).toList();
    }

    /** The platforms of {@code files}' maps, by task. */
    public static Map<String, MapPlatform> platforms(List<AttemptFile> files) {
        return byMap(files, AttemptFile::platform);
    }

    /** The own marks of {@code files}' maps, by task. */
    public static Map<String, MapMarks> marks(List<AttemptFile> files) {
        return byMap(files, AttemptFile::marks);
    }

    private static <T> Map<String, T> byMap(List<AttemptFile> files, Function<AttemptFile, T> field) {
        Map<String, T> byTask = new TreeMap<>();
        for (AttemptFile f : files) {
            if (f.span().kind().equals(TaskSpan.MAP)) {
                byTask.put(f.span().task(), field.apply(f));
            }
        }
        return byTask;
    }

    /** Opens a succeeded attempt's file, which every attempt that succeeded wrote. */
    private static FSDataInputStream open(FileSystem fs, Path file, TaskAttemptID attempt) throws IOException {
        try {
            return fs.open(file);
        } catch (FileNotFoundException e) {
            throw new IOException("attempt " + attempt + " succeeded but left no file (" + file + ")", e);
        }
    }
}
