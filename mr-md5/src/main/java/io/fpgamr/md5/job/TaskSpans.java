package io.fpgamr.md5.job;

import io.fpgamr.energy.TaskSpan;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The job's timeline as its tasks record it: each task writes its {@link TaskSpan} as a side file of
 * the job output ({@code _span-<task>}, in {@link TaskSpan#CSV}'s form) that is committed with its output, so
 * the local runner, the embedded cluster and a real cluster give the launcher the same timeline,
 * with only the attempts that succeeded.
 */
public final class TaskSpans {
    static final String PREFIX = "_span-";
    /** A map's platform ({@link MapPlatform}), beside its span. */
    static final String PLATFORM_PREFIX = "_platform-";
    /** A map's own marks ({@link MapMarks}), beside its span. */
    static final String MARKS_PREFIX = "_marks-";

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
        writeLine(context, PLATFORM_PREFIX, platform.line());
        writeLine(context, MARKS_PREFIX, marks.line());
    }

    /** A one-line side file {@code <prefix><task>} in the task attempt's work output, committed with the task. */
    private static void writeLine(TaskInputOutputContext<?, ?, ?, ?> context, String prefix, String line) throws IOException {
        Path file = workFile(context, prefix + taskId(context));
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

    /** Writes the span into the task attempt's work output, committed with the task. */
    private static void write(TaskInputOutputContext<?, ?, ?, ?> context, TaskSpan span) throws IOException {
        Path file = workFile(context, PREFIX + span.task());
        try (Writer out = new OutputStreamWriter(file.getFileSystem(context.getConfiguration()).create(file, true), StandardCharsets.UTF_8)) {
            TaskSpan.CSV.write(out, List.of(span));
        }
    }

    /** A side file in the task attempt's work output, committed with the task. */
    private static Path workFile(TaskInputOutputContext<?, ?, ?, ?> context, String name) throws IOException {
        try {
            return new Path(FileOutputFormat.getWorkOutputPath(context), name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while finding the task's work output", e);
        }
    }

    /** The maps' platforms committed into a job's output directory, by task. */
    public static Map<String, MapPlatform> readPlatforms(FileSystem fs, Path outputDir) throws IOException {
        return readLines(fs, outputDir, PLATFORM_PREFIX, MapPlatform::parse);
    }

    /** The maps' own marks committed into a job's output directory, by task. */
    public static Map<String, MapMarks> readMarks(FileSystem fs, Path outputDir) throws IOException {
        return readLines(fs, outputDir, MARKS_PREFIX, MapMarks::parse);
    }

    /** The one-line side files {@code <prefix><task>} committed into a job's output directory, parsed, by task. */
    private static <T> Map<String, T> readLines(FileSystem fs, Path outputDir, String prefix, Function<String, T> parse) throws IOException {
        Map<String, T> byTask = new TreeMap<>();
        for (FileStatus st : fs.listStatus(outputDir, p -> p.getName().startsWith(prefix))) {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(st.getPath()), StandardCharsets.UTF_8))) {
                String line = in.readLine();
                try {
                    byTask.put(st.getPath().getName().substring(prefix.length()), parse.apply(line == null ? "" : line));
                } catch (IllegalArgumentException e) {
                    throw new IOException(st.getPath() + ": " + e.getMessage(), e);
                }
            }
        }
        return byTask;
    }

    /** The spans committed into a job's output directory. */
    public static List<TaskSpan> read(FileSystem fs, Path outputDir) throws IOException {
        List<TaskSpan> spans = new ArrayList<>();
        for (FileStatus st : fs.listStatus(outputDir, p -> p.getName().startsWith(PREFIX))) {
            try (Reader in = new InputStreamReader(fs.open(st.getPath()), StandardCharsets.UTF_8)) {
                List<TaskSpan> one = TaskSpan.CSV.read(in, st.getPath().toString());
                if (one.size() != 1) {
                    throw new IOException(st.getPath() + ": " + one.size() + " task spans, not one");
                }
                spans.addAll(one);
            }
        }
        return spans;
    }
}
