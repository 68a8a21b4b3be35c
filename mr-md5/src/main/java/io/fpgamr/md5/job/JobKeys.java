package io.fpgamr.md5.job;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.TargetSet;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;

/** Configuration keys the launcher sets and the tasks read, with their defaults: the one place for each. */
public final class JobKeys {
    public static final String BITS = "fpgamr.bits";
    public static final String PPK = "fpgamr.ppk";
    public static final String RECORDS_PER_SPLIT = "fpgamr.records.per.split";
    /** Splits to aim for when records per split is not set (the local runner pins mapreduce.job.maps to 1). */
    public static final String MAPS = "fpgamr.maps";
    /** Comma-separated lower-case hex digests. */
    public static final String TARGETS = "fpgamr.targets";
    /** Engine spec handed to {@code io.fpgamr.accel.Engines}. */
    public static final String ENGINE = "fpgamr.engine";
    /** The class that opens the maps' engines ({@link EngineOpener}); unset: {@code io.fpgamr.accel.Engines}. */
    public static final String ENGINE_OPENER = "fpgamr.engine.opener";

    /** The domain of the thesis's benchmark: [0, 2^28). */
    public static final int DEFAULT_BITS = 28;
    /** Values per record in the accelerator's batch format ("2^18 PpK"). */
    public static final int BATCH = 1 << 18;
    /** Bench mode's reducers: the thesis's Disco setup. */
    public static final int DEFAULT_REDUCERS = 4;
    /** The engine a task opens when the job names none: the FPGA when the task has one, else the CPU. */
    public static final String DEFAULT_ENGINE = "auto";

    private JobKeys() {
    }

    /** The job's domain, as the tasks read it. */
    public static Domain domain(Configuration conf) {
        return new Domain(conf.getInt(BITS, DEFAULT_BITS));
    }

    public static int ppk(Configuration conf) {
        return conf.getInt(PPK, BATCH);
    }

    /** The targets, as the engines and the host's re-check look them up. */
    public static TargetSet targets(Configuration conf) {
        return TargetSet.of(Arrays.asList(conf.getStrings(TARGETS, new String[0])));
    }

    /** The engine the tasks open (before a container's own device replaces the job's). */
    public static EngineSpec engine(Configuration conf) {
        return EngineSpec.parse(conf.get(ENGINE, DEFAULT_ENGINE));
    }
}
