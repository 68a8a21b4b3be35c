package io.fpgamr.md5;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * The map and reduce side's figures in a run's summary, from the job's counters (Hadoop's own and
 * {@link Md5Counters}): {@code engine_cpu_s}, the maps' CPU time inside the engine; and for a job
 * with reduces {@code shuffle}: {@code map_output_records}, {@code reduce_input_records},
 * {@code map_output_bytes}, {@code bytes_per_record} (map output bytes over records: 1 + 4 + 16 = 21
 * at 28 bits, the thesis's layout), {@code materialized_bytes} (the map output files, IFile framing
 * included), {@code spilled_records}, {@code collector_maps} (maps whose output {@link ByteKeyCollector}
 * wrote), {@code failed_map_attempts}.
 */
public final class TaskFigures {
    private TaskFigures() {
    }

    public static Map<String, Object> of(Counters c) throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("engine_cpu_s", c.findCounter(Md5Counters.ENGINE_CPU_US).getValue() / 1e6);
        long reduceInput = c.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue();
        long mapOutput = c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue();
        if (mapOutput > 0 || reduceInput > 0) {
            long bytes = c.findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue();
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("map_output_records", mapOutput);
            s.put("reduce_input_records", reduceInput);
            s.put("map_output_bytes", bytes);
            s.put("bytes_per_record", mapOutput > 0 ? (double) bytes / mapOutput : 0.0);
            s.put("materialized_bytes", c.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue());
            s.put("spilled_records", c.findCounter(TaskCounter.SPILLED_RECORDS).getValue());
            s.put("collector_maps", c.findCounter(Md5Counters.COLLECTOR_MAPS).getValue());
            s.put("failed_map_attempts", c.findCounter(JobCounter.NUM_FAILED_MAPS).getValue());
            out.put("shuffle", s);
        }
        return out;
    }
}
