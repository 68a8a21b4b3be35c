package io.fpgamr.md5;

/** Job counters. */
public enum Md5Counters {
    VALUES_HASHED,
    PREIMAGES_FOUND,
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
