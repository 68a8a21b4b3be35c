package io.fpgamr.md5.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.fpgamr.energy.Timeline;
import io.fpgamr.md5.balance.Balance;
import io.fpgamr.md5.job.FpgaFigures;
import io.fpgamr.md5.job.Md5Counters;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * A run's figures as {@code --summary-json} writes them (one object per job, and over repeated
 * runs the last run's with {@code repetitions} and every run's in {@code runs}). Fields that do not
 * apply are left out: the bench mode's {@code shuffle} in search mode, {@code design} without one,
 * {@code fpga} when no map used an FPGA.
 *
 * @param engineCpuS the maps' CPU time inside the MD5 engine's calls
 * @param mapTime    where the maps' wall time went (the thesis's chapter 12), summed over the maps
 * @param mapsByNode per node, its type, its maps on the CPU and on an FPGA, whether that FPGA was simulated, and the
 *                   platform its maps saw ({@link MapsOnNode}: os.arch, native library, emulated)
 * @param energy     energy's figures of the job ({@code JobEnergy}): joules, TpW, status
 * @param mapAttempts the map attempts the framework launched, and of those failed and killed (a retried or speculative attempt's work counts once)
 * @param balance    how the work fell on the nodes: per node the speed given, the values hashed, the last map's end; the straggler
 * @param timeline   where the job's time went, phase by phase from submission to done ({@link JobTimeline})
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobSummary(String mode, int bits, int ppk, String cluster, String engine, String output, long valuesHashed, long valuesExpected,
                  long preimagesRejected, double engineCpuS, MapTime mapTime, Shuffle shuffle, Stages stages, double valuesPerS, double mapValuesPerS, Map<String, MapsOnNode> mapsByNode, MapAttempts mapAttempts, String jobId,
                  String design, Map<String, Object> energy, FpgaFigures fpga, Balance balance, JobTimeline timeline, Map<String, Object> repetitions, List<JobSummary> runs) {

    /** The thesis's stage table (its table 9.1), from the job's timeline; 0 for a stage that did not happen. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Stages(double mapS, double shuffleS, double reduceS, double totalS) {
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
    public record Shuffle(long mapOutputRecords, long reduceInputRecords, long mapOutputBytes, double bytesPerRecord, long materializedBytes,
                   long spilledRecords, long collectorMaps, long failedMapAttempts) {
        static Shuffle of(WorkCounts w, Counters c) {
            return new Shuffle(w.mapOutputRecords(), w.reduceInputRecords(), w.mapOutputBytes(),
                w.mapOutputRecords() == 0 ? 0 : (double) w.mapOutputBytes() / w.mapOutputRecords(),
                c.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue(), c.findCounter(TaskCounter.SPILLED_RECORDS).getValue(),
                c.findCounter(Md5Counters.COLLECTOR_MAPS).getValue(), c.findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
        }
    }

    /** Map attempts launched, failed and killed (Hadoop's job counters): more launched than maps means retried or speculative attempts. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record MapAttempts(long launched, long failed, long killed) {
        static MapAttempts of(Counters c) {
            return new MapAttempts(c.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(), c.findCounter(JobCounter.NUM_FAILED_MAPS).getValue(),
                c.findCounter(JobCounter.NUM_KILLED_MAPS).getValue());
        }
    }

    /**
     * The maps' wall time, summed over the maps, by where it went: in the engine's calls, between
     * batches (the framework reading records), emitting output, spilling while the map runs, and
     * writing, sorting and merging the output after the map function (the one-byte-key collector's,
     * or Hadoop's with its flush timed; a map on Hadoop's untimed buffer leaves it out). Spilling on
     * Hadoop's collector is its spill thread's, beside the map: {@code spillS} is then 0 where no
     * record was spilled before a flush (derived from {@code HADOOP_SPILLED_IN_MAP}), else null (not
     * measured: the map's waits for a full buffer are in its write time).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record MapTime(double engineS, double readS, double writeS, Double spillS, double sortS) {
        static MapTime of(Counters c) {
            return new MapTime(us(c, Md5Counters.MAP_ENGINE_US), us(c, Md5Counters.MAP_READ_US), us(c, Md5Counters.MAP_WRITE_US),
                spill(c), us(c, Md5Counters.MAP_SORT_US));
        }

        private static Double spill(Counters c) {
            if (c.findCounter(Md5Counters.HADOOP_COLLECTOR_MAPS).getValue() == 0) {
                return us(c, Md5Counters.MAP_SPILL_US);
            }
            boolean onlyHadoops = c.findCounter(Md5Counters.COLLECTOR_MAPS).getValue() == 0;
            return onlyHadoops && c.findCounter(Md5Counters.HADOOP_SPILLED_IN_MAP).getValue() == 0 ? 0.0 : null;
        }

        private static double us(Counters c, Md5Counters counter) {
            return c.findCounter(counter).getValue() / 1e6;
        }
    }

    static JobSummary of(RunConfig config, String output, String jobId, String design, WorkCounts counts, Counters counters,
                         Timeline timeline, Map<String, MapsOnNode> mapsByNode, Map<String, Object> energy, FpgaFigures fpga, Balance balance,
                         JobTimeline phases) {
        Stages st = Stages.of(timeline);
        long hashed = counts.valuesHashed();
        return new JobSummary(config.mode().label(), config.domain().bits(), config.ppk(), config.cluster().name(), config.engine().toString(),
            output, hashed, config.domain().size(), counts.preimagesRejected(), counters.findCounter(Md5Counters.ENGINE_CPU_US).getValue() / 1e6, MapTime.of(counters),
            config.mode().shuffles() ? Shuffle.of(counts, counters) : null, st, st.totalS() > 0 ? hashed / st.totalS() : 0.0, st.mapS() > 0 ? hashed / st.mapS() : 0.0, mapsByNode, MapAttempts.of(counters), jobId, design,
            energy, fpga, balance, phases, null, null);
    }

    /** The summary over repeated runs: the last run's figures, the output they share, the statistics and every run. */
    JobSummary over(String sharedOutput, Map<String, Object> stats, List<JobSummary> all) {
        return new JobSummary(mode, bits, ppk, cluster, engine, sharedOutput, valuesHashed, valuesExpected, preimagesRejected, engineCpuS,
            mapTime, shuffle, stages, valuesPerS, mapValuesPerS, mapsByNode, mapAttempts, jobId, design, energy,
            fpga, balance, timeline, stats, all);
    }
}
