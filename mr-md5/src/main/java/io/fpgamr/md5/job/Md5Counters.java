package io.fpgamr.md5.job;

/** Job counters. */
public enum Md5Counters {
    /** Values the maps' engines hashed, as the engines count them ({@code Md5Engine.valuesHashed()}), summed. */
    VALUES_HASHED,
    /** Preimages written: values whose host re-check (a Java re-hash) is a target digest. */
    PREIMAGES_FOUND,
    /** Values an engine reported as preimages whose host re-check failed: never written. */
    PREIMAGES_REJECTED,
    /** CPU time of the maps' threads inside the engine's calls, microseconds (see {@code EngineMapper}). */
    ENGINE_CPU_US,
    /** Wall time of the maps inside the engine's calls, microseconds (one clock read each side of a batch). */
    MAP_ENGINE_US,
    /** Wall time of the maps between batches: the framework reading and handing over records, microseconds. */
    MAP_READ_US,
    /** Wall time of the maps emitting a batch's output, spills during it excepted, microseconds. */
    MAP_WRITE_US,
    /** Wall time of the one-byte-key collector spilling while the map runs, microseconds (Hadoop's collector spills on a thread of its own). */
    MAP_SPILL_US,
    /** Wall time of the map's collector (the one-byte-key one, or Hadoop's timed one) writing, sorting and merging the map's output after the map function, microseconds. */
    MAP_SORT_US,
    /** Bench maps whose output {@link ByteKeyCollector} wrote (the others fell back to Hadoop's MapOutputBuffer). */
    COLLECTOR_MAPS,
    /** Maps whose output Hadoop's own collector wrote, its flush timed ({@code TimedMapOutputBuffer}): the plain job's, fpgamr's on Hadoop's path. */
    HADOOP_COLLECTOR_MAPS,
    /** Of those maps, records Hadoop's spill thread spilled while the map ran (before its flush); 0: its one spill was the flush's. */
    HADOOP_SPILLED_IN_MAP,
    /** Map tasks that ended (only a succeeded attempt's counters count): each wrote one output segment per reducer. */
    MAP_TASKS,
    /** Bench mode: key bytes whose values a reducer checked against the domain ({@link KeyCheck}). */
    KEYS_CHECKED,
    /** Bench mode: key bytes whose values were not exactly the domain's (a value missing, twice, or under another key). */
    KEYS_WRONG,
    /** Map tasks that hashed with the pure-Java engine because no native kernel was available. */
    JAVA_FALLBACK_MAPS,
    /** FPGA maps: the driver's figures, summed over the maps that hashed on a device. */
    FPGA_BATCHES,
    FPGA_DEVICE_CYCLES,
    /** Modelled device time (cycles at the device's clock), microseconds. */
    FPGA_DEVICE_US,
    /** Driver time on the host outside the device (filling, draining, programming, confirming), microseconds. */
    FPGA_HOST_US,
    /** Hash batches the device wrote straight into the map's buffer (no copy). */
    FPGA_ZERO_COPY_BATCHES
}
