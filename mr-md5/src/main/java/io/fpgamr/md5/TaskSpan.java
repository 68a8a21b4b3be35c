package io.fpgamr.md5;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * When and where one task ran, written by the task itself as a side file of the job output
 * ({@code _span-<task>}) and committed with it, so the local runner, the embedded cluster and a
 * real cluster give the launcher the same timeline. For a reduce, {@code readyMs} is when its
 * input was shuffled and merged; for a map it equals {@code startMs}.
 */
public record TaskSpan(String kind, String task, String node, String hardware, long startMs, long readyMs, long endMs) {
    static final String PREFIX = "_span-";

    /** The NodeManager's id inside a YARN container, the host name elsewhere. */
    static String nodeName() throws IOException {
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
    static long taskStart(long fallback) {
        return System.getenv("CONTAINER_ID") != null ? ManagementFactory.getRuntimeMXBean().getStartTime() : fallback;
    }

    String line() {
        return String.join("\t", kind, task, node, hardware, Long.toString(startMs), Long.toString(readyMs), Long.toString(endMs));
    }

    static TaskSpan parse(String line) {
        String[] f = line.trim().split("\t");
        return new TaskSpan(f[0], f[1], f[2], f[3], Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]));
    }

    /** Writes this span into the task attempt's work output, committed with the task. */
    void write(TaskInputOutputContext<?, ?, ?, ?> context) throws IOException, InterruptedException {
        Path dir = FileOutputFormat.getWorkOutputPath(context);
        Path file = new Path(dir, PREFIX + task);
        try (OutputStream out = file.getFileSystem(context.getConfiguration()).create(file, true)) {
            out.write((line() + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The spans committed into a job's output directory. */
    static List<TaskSpan> readAll(FileSystem fs, Path outputDir) throws IOException {
        List<TaskSpan> spans = new ArrayList<>();
        for (FileStatus st : fs.listStatus(outputDir, p -> p.getName().startsWith(PREFIX))) {
            try (InputStream in = fs.open(st.getPath())) {
                spans.add(parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            }
        }
        return spans;
    }
}
