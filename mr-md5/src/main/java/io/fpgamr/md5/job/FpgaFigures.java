package io.fpgamr.md5.job;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.fpga.FpgaEngine;
import java.util.Locale;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;

/**
 * The FPGA driver's figures in the job: each FPGA map adds its device's to the job counters when it
 * ends, and the summary reports their sums. The device time is modelled (the device's cycle count at
 * its clock), never measured; on a simulated device ({@code simulated}) the cycles are the HDL
 * model's, counted by Verilator on a CPU; from an emulated node ({@code emulated}: an ARM-FPGA node's
 * armhf driver under QEMU) the driver's host time is the emulation's.
 *
 * @param hostPerDevice host time over modelled device time
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record FpgaFigures(long batches, long deviceCycles, double modelledDeviceS, double hostS, double hostPerDevice, long zeroCopyBatches,
                   boolean simulated, boolean emulated) {

    /** Adds an FPGA engine's figures to the task's counters; nothing for other engines. */
    static void count(Md5Engine engine, TaskInputOutputContext<?, ?, ?, ?> context) {
        if (!(engine instanceof FpgaEngine f)) {
            return;
        }
        FpgaEngine.Stats s;
        try {
            s = f.stats();
        } catch (IllegalStateException e) {
            return; // already closed
        }
        context.getCounter(Md5Counters.FPGA_BATCHES).increment(s.batches());
        context.getCounter(Md5Counters.FPGA_DEVICE_CYCLES).increment(s.deviceCycles());
        context.getCounter(Md5Counters.FPGA_DEVICE_US).increment(Math.round(s.modelledDeviceSeconds() * 1e6));
        context.getCounter(Md5Counters.FPGA_HOST_US).increment(Math.round(s.hostSeconds() * 1e6));
        context.getCounter(Md5Counters.FPGA_ZERO_COPY_BATCHES).increment(s.zeroCopyBatches());
    }

    /**
     * The job's figures, or null when no map used an FPGA; {@code simulated}: whether its FPGA maps ran on a
     * simulated device, {@code emulated}: whether some ran in an emulated JVM.
     */
    public static FpgaFigures of(Counters counters, boolean simulated, boolean emulated) {
        long batches = counters.findCounter(Md5Counters.FPGA_BATCHES).getValue();
        if (batches == 0) {
            return null;
        }
        double device = counters.findCounter(Md5Counters.FPGA_DEVICE_US).getValue() / 1e6;
        double host = counters.findCounter(Md5Counters.FPGA_HOST_US).getValue() / 1e6;
        return new FpgaFigures(batches, counters.findCounter(Md5Counters.FPGA_DEVICE_CYCLES).getValue(), device, host,
            device > 0 ? host / device : 0.0, counters.findCounter(Md5Counters.FPGA_ZERO_COPY_BATCHES).getValue(), simulated,
            emulated);
    }

    /** One line for the summary on stderr. */
    public String line() {
        return String.format(Locale.ROOT, "fpga: %d batches, %d device cycles, %.3f ms modelled device time (cycles at the device's clock), "
                + "%.3f ms driver host time (%.1f%% of it)%s", batches, deviceCycles, 1e3 * modelledDeviceS, 1e3 * hostS, 100 * hostPerDevice,
            simulated ? "; SIMULATED device: a CPU ran the HDL model, the cycles are the model's" : "")
            + (emulated ? "; EMULATED host: the driver ran in an armhf JVM under QEMU" : "");
    }
}
