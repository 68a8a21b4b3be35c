package io.fpgamr.energy;

import java.util.List;

/**
 * What the job launcher knows once a job finished: its id, when it was submitted and when it was
 * done (the thesis's t = 0 and t_total), how many values it hashed (the transformations of TpW) and
 * its tasks' spans; {@code simulated} when its maps ran on a simulated FPGA (a CPU running the
 * device's model), whose energy and TpW are then modelled, not the FPGA's.
 */
public record JobRecord(String jobId, long submitMs, long doneMs, long valuesHashed, List<TaskSpan> spans, boolean simulated) {
    public JobRecord {
        if (doneMs < submitMs) {
            throw new IllegalArgumentException("job done (" + doneMs + ") before it was submitted (" + submitMs + ")");
        }
        if (valuesHashed < 0) {
            throw new IllegalArgumentException("values hashed must not be negative");
        }
        spans = List.copyOf(spans);
    }

    /** A job whose maps ran on no simulated device. */
    public JobRecord(String jobId, long submitMs, long doneMs, long valuesHashed, List<TaskSpan> spans) {
        this(jobId, submitMs, doneMs, valuesHashed, spans, false);
    }

    public double seconds() {
        return (doneMs - submitMs) / 1000.0;
    }
}
