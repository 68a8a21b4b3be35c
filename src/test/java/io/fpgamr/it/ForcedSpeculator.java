package io.fpgamr.it;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;

/**
 * Test only, loaded by the MR ApplicationMaster through Hadoop's own extension point
 * ({@code yarn.app.mapreduce.am.job.speculator.class}, with {@code mapreduce.map.speculative=true}):
 * Hadoop's speculator with one speculative attempt only, map 0's, as soon as its first attempt
 * reports that it runs, whatever its speed: a second attempt of a task running beside the first.
 */
public class ForcedSpeculator extends DefaultSpeculator {
    private final AtomicBoolean launched = new AtomicBoolean();

    public ForcedSpeculator(Configuration conf, AppContext context) {
        super(conf, context);
    }

    @Override
    protected void statusUpdate(TaskAttemptStatus status, long timestamp) {
        super.statusUpdate(status, timestamp);
        TaskAttemptId a = status.id;
        if (a.getTaskId().getTaskType() == TaskType.MAP && a.getTaskId().getId() == 0 && a.getId() == 0 && launched.compareAndSet(false, true)) {
            super.addSpeculativeAttempt(a.getTaskId());
        }
    }

    /**
     * None of the attempts Hadoop's own estimates would add: on a loaded machine one of them (of
     * the other map, it can only be) was killed before it launched, once its task had ended, and
     * the job counted it a killed map (2 killed of 3 launched, in a CI run of 2026-12-06).
     */
    @Override
    protected void addSpeculativeAttempt(TaskId task) {
    }
}
