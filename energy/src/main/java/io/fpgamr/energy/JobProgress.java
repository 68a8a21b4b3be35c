package io.fpgamr.energy;

/**
 * How far a running job has got on one node, as one writer (the job launcher, or one task) sees
 * it. The node exporter reads these from its spool folder (see {@link ProgressSpool}) to export
 * values hashed, energy and TpW per running job. A count that the writer does not know is -1 and
 * is not exported.
 *
 * @param job               the job's id
 * @param writer            "launcher", or the task attempt's id
 * @param node              the node the work was done on
 * @param valuesHashed      values hashed so far by this writer's share of the job
 * @param valuesTotal       the job's whole domain (2^bits), or -1
 * @param startedMs         when the job was submitted (the start of its energy window)
 * @param updatedMs         when this was written
 * @param runningMaps       maps running now, or -1
 * @param runningShuffles   reduces still fetching their input now, or -1
 * @param runningReduces    reduces past their shuffle now, or -1
 * @param runningContainers YARN containers (task JVMs) of the job running now, or -1
 * @param fpgaDevicesInUse  FPGA devices this writer's tasks hold now, or -1
 * @param state             running, succeeded or failed
 * @param simulated         whether this writer's maps ran on a simulated FPGA (a CPU running the
 *                          device's model): its figures are then modelled, not the FPGA's own
 */
public record JobProgress(
    String job,
    String writer,
    String node,
    long valuesHashed,
    long valuesTotal,
    long startedMs,
    long updatedMs,
    int runningMaps,
    int runningShuffles,
    int runningReduces,
    int runningContainers,
    int fpgaDevicesInUse,
    String state,
    boolean simulated) {

    public static final String RUNNING = "running";
    public static final String SUCCEEDED = "succeeded";
    public static final String FAILED = "failed";

    public JobProgress {
        if (job == null || job.isBlank() || writer == null || writer.isBlank()) {
            throw new IllegalArgumentException("progress needs the job and the writer");
        }
        if (!state.equals(RUNNING) && !state.equals(SUCCEEDED) && !state.equals(FAILED)) {
            throw new IllegalArgumentException("state must be running, succeeded or failed, got " + state);
        }
    }

    /** Progress of a writer whose maps ran on no simulated device. */
    public JobProgress(String job, String writer, String node, long valuesHashed, long valuesTotal, long startedMs, long updatedMs,
                       int runningMaps, int runningShuffles, int runningReduces, int runningContainers, int fpgaDevicesInUse, String state) {
        this(job, writer, node, valuesHashed, valuesTotal, startedMs, updatedMs, runningMaps, runningShuffles, runningReduces,
            runningContainers, fpgaDevicesInUse, state, false);
    }

    /** The launcher's view while the job runs; counts it does not know are -1. */
    public static JobProgress launcher(String job, String node, long valuesHashed, long valuesTotal, long startedMs,
                                       int runningMaps, int runningShuffles, int runningReduces,
                                       int runningContainers, int fpgaDevicesInUse) {
        return new JobProgress(job, "launcher", node, valuesHashed, valuesTotal, startedMs, System.currentTimeMillis(),
            runningMaps, runningShuffles, runningReduces, runningContainers, fpgaDevicesInUse, RUNNING);
    }

    public JobProgress withState(String newState, long nowMs) {
        return new JobProgress(job, writer, node, valuesHashed, valuesTotal, startedMs, nowMs, 0, 0, 0, 0, 0, newState, simulated);
    }

    /** The same progress, saying whether the maps ran on a simulated FPGA. */
    public JobProgress withSimulated(boolean sim) {
        return new JobProgress(job, writer, node, valuesHashed, valuesTotal, startedMs, updatedMs, runningMaps, runningShuffles,
            runningReduces, runningContainers, fpgaDevicesInUse, state, sim);
    }

    public boolean running() {
        return state.equals(RUNNING);
    }
}
