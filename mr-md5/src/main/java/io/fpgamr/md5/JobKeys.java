package io.fpgamr.md5;

/** Configuration keys the launcher sets and the tasks read. */
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

    /** Values per record in the accelerator's batch format ("2^18 PpK"). */
    public static final int BATCH = 1 << 18;

    private JobKeys() {
    }
}
