package io.fpgamr.md5;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.fpgamr.energy.Timeline;
import java.util.List;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import java.util.Map;

/**
 * A run's figures as {@code --summary-json} writes them (one object per job, and over repeated
 * runs the last run's with {@code repetitions} and every run's in {@code runs}). Fields that do not
 * apply are left out: the bench mode's {@code shuffle} in search mode, {@code design} without one,
 * {@code fpga} when no map used an FPGA.
 *
 * @param engineCpuS the maps' CPU time inside the MD5 engine's calls
 * @param mapsByNode per node, its maps on the CPU and on an FPGA, and whether that FPGA was simulated
 * @param energy     energy's figures of the job ({@code JobEnergy}): joules, TpW, status
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
record JobSummary(String mode, int bits, int ppk, String cluster, String engine, String output, long valuesHashed, long valuesExpected,
                  long preimagesRejected, double engineCpuS, Shuffle shuffle, Stages stages, double valuesPerS, double mapValuesPerS, Map<String, Timeline.NodeMaps> mapsByNode, String jobId,
                  String design, Map<String, Object> energy, FpgaFigures fpga, Map<String, Object> repetitions, List<JobSummary> runs) {

    /** The thesis's stage table (its table 9.1), from the job's timeline; 0 for a stage that did not happen. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Stages(double mapS, double shuffleS, double reduceS, double totalS) {
        static Stages of(Timeline t) {
            return new Stages(t.seconds("map"), t.seconds("shuffle"), t.seconds("reduce"), t.seconds("total"));
        }
    }

    /**
     * What the bench mode's shuffle carried, from Hadoop's counters: records and bytes out of the
     * maps ({@code bytes_per_record}: 1 + 4 + 16 = 21 at 28 bits, the thesis's layout), the map
     * output files with their IFile framing, records spilled, the maps whose output the one-byte-key
     * collector wrote, and the map attempts that failed (their work not counted).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Shuffle(long mapOutputRecords, long reduceInputRecords, long mapOutputBytes, double bytesPerRecord, long materializedBytes,
                   long spilledRecords, long collectorMaps, long failedMapAttempts) {
        static Shuffle of(WorkCounts w, Counters c) {
            return new Shuffle(w.mapOutputRecords(), w.reduceInputRecords(), w.mapOutputBytes(),
                w.mapOutputRecords() == 0 ? 0 : (double) w.mapOutputBytes() / w.mapOutputRecords(),
                c.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue(), c.findCounter(TaskCounter.SPILLED_RECORDS).getValue(),
                c.findCounter(Md5Counters.COLLECTOR_MAPS).getValue(), c.findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
        }
    }

    static JobSummary of(RunConfig config, String output, String jobId, String design, WorkCounts counts, Counters counters,
                         Timeline timeline, Map<String, Object> energy, FpgaFigures fpga) {
        Stages st = Stages.of(timeline);
        long hashed = counts.valuesHashed();
        return new JobSummary(config.mode().label(), config.domain().bits(), config.ppk(), config.cluster().name(), config.engine().toString(),
            output, hashed, config.domain().size(), counts.preimagesRejected(), counters.findCounter(Md5Counters.ENGINE_CPU_US).getValue() / 1e6,
            config.mode() == Md5Job.Mode.BENCH ? Shuffle.of(counts, counters) : null, st, st.totalS() > 0 ? hashed / st.totalS() : 0.0, st.mapS() > 0 ? hashed / st.mapS() : 0.0, timeline.mapsByNode(), jobId, design,
            energy, fpga, null, null);
    }

    /** The summary over repeated runs: the last run's figures, the output they share, the statistics and every run. */
    JobSummary over(String sharedOutput, Map<String, Object> stats, List<JobSummary> all) {
        return new JobSummary(mode, bits, ppk, cluster, engine, sharedOutput, valuesHashed, valuesExpected, preimagesRejected, engineCpuS,
            shuffle, stages, valuesPerS, mapValuesPerS, mapsByNode, jobId, design, energy,
            fpga, stats, all);
    }
}
