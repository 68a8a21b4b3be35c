package io.fpgamr.md5.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.fpgamr.energy.TaskSpan;
import io.fpgamr.energy.Timeline;
import io.fpgamr.md5.job.MapMarks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;

/**
 * Where a job's fixed cost goes (issue 40): its phases in the order a job goes through them, each in
 * seconds since the launcher submitted it, with over the tasks the first and the last and how many
 * tasks had it, and per node where the tasks ran on more than one. Each figure comes from who knows
 * it: the launcher (submitted, done), Hadoop's job history (the ResourceManager's submission, the
 * ApplicationMaster's start, its job launch, each successful attempt's container launch and finish
 * (after its commit, where it had one to make), the job's finish; YARN only), the tasks' spans (a task's start: its JVM's in a
 * container, its set-up's in the local runner; a map's set-up done; a reduce's input shuffled; a
 * task's end, before its commit) and the maps' own marks (engine open, hashing). All are wall-clock
 * times of one machine's clock (the embedded cluster) or of the cluster's nodes.
 *
 * @param history whether Hadoop's job history gave its phases ({@code read}), or why not
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record JobTimeline(String history, List<Phase> phases) {
    static final String LAUNCHER = "launcher";
    static final String HISTORY = "job history";
    static final String SPAN = "task span";
    static final String MARKS = "map marks";

    /** One phase: over its tasks (or once for the job) the first and last time, per node when its tasks ran on more than one. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Phase(String phase, String source, int count, double firstS, double lastS, Map<String, OnNode> byNode) {
    }

    /** A phase on one node: how many of its tasks, first and last. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record OnNode(int count, double firstS, double lastS) {
    }

    /**
     * The timeline of a job: {@code t} (submission, completion, the succeeded attempts' spans), the maps'
     * marks by task, and its job history ({@code history} null when there is none, {@code why} then says why).
     */
    static JobTimeline of(Timeline t, Map<String, MapMarks> marks, JobHistoryParser.JobInfo history, String why) {
        Builder b = new Builder(t.submitMs());
        Map<String, JobHistoryParser.TaskAttemptInfo> attempts = history == null ? Map.of() : committedAttempts(history);
        List<TaskSpan> maps = t.spans().stream().filter(TaskSpan::isMap).toList();
        List<TaskSpan> reduces = t.spans().stream().filter(s -> !s.isMap()).toList();
        b.once("submitted", LAUNCHER, t.submitMs());
        if (history != null) {
            b.once("application_submitted", HISTORY, history.getSubmitTime());
            if (history.getAMInfos() != null && !history.getAMInfos().isEmpty()) {
                b.once("am_started", HISTORY, history.getAMInfos().get(0).getStartTime());
            }
            b.once("job_launched", HISTORY, history.getLaunchTime());
            b.tasks("map_container_launched", HISTORY, maps, s -> start(attempts.get(s.task())));
        }
        b.tasks("map_started", SPAN, maps, TaskSpan::startMs);
        b.tasks("map_setup_done", SPAN, maps, TaskSpan::readyMs);
        b.tasks("engine_opened", MARKS, maps, s -> marks.containsKey(s.task()) ? marks.get(s.task()).engineOpenMs() : 0);
        b.tasks("hashing_started", MARKS, maps, s -> marks.containsKey(s.task()) ? marks.get(s.task()).hashStartMs() : 0);
        b.tasks("hashing_ended", MARKS, maps, s -> marks.containsKey(s.task()) ? marks.get(s.task()).hashEndMs() : 0);
        b.tasks("map_ended", SPAN, maps, TaskSpan::endMs);
        if (history != null) {
            b.tasks("map_committed", HISTORY, maps, s -> finish(attempts.get(s.task())));
            b.tasks("reduce_container_launched", HISTORY, reduces, s -> start(attempts.get(s.task())));
        }
        b.tasks("reduce_started", SPAN, reduces, TaskSpan::startMs);
        b.tasks("shuffle_done", SPAN, reduces, TaskSpan::readyMs);
        b.tasks("reduce_ended", SPAN, reduces, TaskSpan::endMs);
        if (history != null) {
            b.tasks("reduce_committed", HISTORY, reduces, s -> finish(attempts.get(s.task())));
            b.once("job_finished", HISTORY, history.getFinishTime());
        }
        b.once("done", LAUNCHER, t.doneMs());
        return new JobTimeline(history != null ? "read" : why, List.copyOf(b.phases));
    }

    /** Each task's successful attempt in the history, by task id (as the tasks' spans name them). */
    private static Map<String, JobHistoryParser.TaskAttemptInfo> committedAttempts(JobHistoryParser.JobInfo history) {
        Map<String, JobHistoryParser.TaskAttemptInfo> byTask = new HashMap<>();
        history.getAllTasks().forEach((id, task) -> {
            JobHistoryParser.TaskAttemptInfo a = task.getSuccessfulAttemptId() == null ? null
                : task.getAllTaskAttempts().get(task.getSuccessfulAttemptId());
            if (a == null) {
                // a history whose task-finished event does not name the attempt: the one that succeeded
                a = task.getAllTaskAttempts().values().stream().filter(x -> "SUCCEEDED".equals(x.getTaskStatus())).findFirst().orElse(null);
            }
            if (a != null) {
                byTask.put(id.toString(), a);
            }
        });
        return byTask;
    }

    private static long start(JobHistoryParser.TaskAttemptInfo a) {
        return a == null ? 0 : a.getStartTime();
    }

    private static long finish(JobHistoryParser.TaskAttemptInfo a) {
        return a == null ? 0 : a.getFinishTime();
    }

    /** Collects the phases in order; a time of 0 or less is one the source did not give, and is left out. */
    private static final class Builder {
        private final long submitMs;
        private final List<Phase> phases = new ArrayList<>();

        Builder(long submitMs) {
            this.submitMs = submitMs;
        }

        private double s(long ms) {
            return (ms - submitMs) / 1000.0;
        }

        void once(String name, String source, long ms) {
            if (ms > 0) {
                phases.add(new Phase(name, source, 1, s(ms), s(ms), null));
            }
        }

        void tasks(String name, String source, List<TaskSpan> tasks, ToLongFunction<TaskSpan> ms) {
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            int count = 0;
            Map<String, long[]> byNode = new TreeMap<>();
            for (TaskSpan task : tasks) {
                long at = ms.applyAsLong(task);
                if (at <= 0) {
                    continue;
                }
                count++;
                first = Math.min(first, at);
                last = Math.max(last, at);
                long[] n = byNode.computeIfAbsent(task.node(), k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
                n[0]++;
                n[1] = Math.min(n[1], at);
                n[2] = Math.max(n[2], at);
            }
            if (count == 0) {
                return;
            }
            Map<String, OnNode> nodes = null;
            if (byNode.size() > 1) {
                nodes = new TreeMap<>();
                for (Map.Entry<String, long[]> e : byNode.entrySet()) {
                    nodes.put(e.getKey(), new OnNode((int) e.getValue()[0], s(e.getValue()[1]), s(e.getValue()[2])));
                }
            }
            phases.add(new Phase(name, source, count, s(first), s(last), nodes));
        }
    }
}
