package io.fpgamr.md5;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.fpgamr.energy.Timeline;
import java.util.List;
import java.util.Map;

/**
 * A run's figures as {@code --summary-json} writes them (one object per job, and over repeated
 * runs the last run's with {@code repetitions} and every run's in {@code runs}). Fields that do not
 * apply are left out: the bench mode's shuffle figures in search mode, {@code design} without one,
 * {@code fpga} when no map used an FPGA.
 *
 * @param mapsByNode per node, its maps on the CPU and on an FPGA, and whether that FPGA was simulated
 * @param energy     energy's figures of the job ({@code JobEnergy}): joules, TpW, status
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
record JobSummary(String mode, int bits, int ppk, String cluster, String engine, String output, long valuesHashed, long valuesExpected,
                  long preimagesRejected, Long mapOutputRecords, Long reduceInputRecords, Double bytesPerRecord,
                  Stages stages, double valuesPerS, double mapValuesPerS, Map<String, Timeline.NodeMaps> mapsByNode, String jobId,
                  String design, Map<String, Object> energy, FpgaFigures fpga, Map<String, Object> repetitions, List<JobSummary> runs) {

    /** The thesis's stage table (its table 9.1), from the job's timeline; 0 for a stage that did not happen. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Stages(double mapS, double shuffleS, double reduceS, double totalS) {
        static Stages of(Timeline t) {
            return new Stages(t.seconds("map"), t.seconds("shuffle"), t.seconds("reduce"), t.seconds("total"));
        }
    }

    static JobSummary of(RunConfig config, String output, String jobId, String design, WorkCounts counts, Timeline timeline,
                         Map<String, Object> energy, FpgaFigures fpga) {
        Stages st = Stages.of(timeline);
        boolean bench = config.mode() == Md5Job.Mode.BENCH;
        long hashed = counts.valuesHashed();
        return new JobSummary(config.mode().label(), config.domain().bits(), config.ppk(), config.cluster().name(), config.engine().toString(),
            output, hashed, config.domain().size(), counts.preimagesRejected(),
            bench ? counts.mapOutputRecords() : null, bench ? counts.reduceInputRecords() : null, bench ? counts.bytesPerRecord() : null,
            st, st.totalS() > 0 ? hashed / st.totalS() : 0.0, st.mapS() > 0 ? hashed / st.mapS() : 0.0, timeline.mapsByNode(), jobId, design,
            energy, fpga, null, null);
    }

    /** The summary over repeated runs: the last run's figures, the output they share, the statistics and every run. */
    JobSummary over(String sharedOutput, Map<String, Object> stats, List<JobSummary> all) {
        return new JobSummary(mode, bits, ppk, cluster, engine, sharedOutput, valuesHashed, valuesExpected, preimagesRejected,
            mapOutputRecords, reduceInputRecords, bytesPerRecord, stages, valuesPerS, mapValuesPerS, mapsByNode, jobId, design, energy,
            fpga, stats, all);
    }
}
