package io.fpgamr.md5.cli;

import io.fpgamr.energy.JobEnergy;
import io.fpgamr.energy.Repetitions;
import java.nio.file.Path;
import java.util.List;

/**
 * What a run of the launcher gives, read by every printer and by the JSON writer: each job run,
 * and over repeated runs their statistics ({@code repetitions}, null for one run) and the summary
 * that covers them all.
 */
public record RunReport(List<JobRun> runs, Repetitions repetitions, JobSummary summary) {

    /**
     * One job, done and checked: its preimages (sorted), its figures, its energy, the maps that fell
     * back to pure Java, and where its energy report is.
     */
    public record JobRun(List<String> preimages, JobSummary summary, JobEnergy energy, long javaFallbackMaps, Path energyDir) {
        boolean simulated() {
            return energy.simulated();
        }
    }

    static RunReport of(JobRun run) {
        return new RunReport(List.of(run), null, run.summary());
    }

    static RunReport of(List<JobRun> runs, Repetitions repetitions, String sharedOutput) {
        JobSummary last = runs.get(runs.size() - 1).summary();
        return new RunReport(List.copyOf(runs), repetitions,
            last.over(sharedOutput, repetitions.toMap(), runs.stream().map(JobRun::summary).toList()));
    }

    List<String> preimages() {
        return runs.get(0).preimages();
    }

    boolean simulated() {
        return runs.stream().anyMatch(JobRun::simulated);
    }
}
