package io.fpgamr.energy;

import java.util.List;

/**
 * What the job hands to energy once it finished: its id, how many values its engines hashed (the
 * transformations of TpW) and its {@link Timeline}.
 */
public record JobRecord(String jobId, long valuesHashed, Timeline timeline) {
    public JobRecord {
        if (valuesHashed < 0) {
            throw new IllegalArgumentException("values hashed must not be negative");
        }
    }

    public JobRecord(String jobId, long submitMs, long doneMs, long valuesHashed, List<TaskSpan> spans) {
        this(jobId, valuesHashed, new Timeline(submitMs, doneMs, spans));
    }

    public long submitMs() {
        return timeline.submitMs();
    }

    public long doneMs() {
        return timeline.doneMs();
    }

    public List<TaskSpan> spans() {
        return timeline.spans();
    }

    public double seconds() {
        return timeline.seconds();
    }

    /** Whether maps hashed on a simulated FPGA: the job's times, joules and TpW are then a simulation's (modelled). */
    public boolean simulated() {
        return timeline.simulated();
    }
}
