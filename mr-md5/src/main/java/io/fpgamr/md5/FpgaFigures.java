package io.fpgamr.md5;

import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.fpga.FpgaEngine;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;

/**
 * The FPGA driver's figures in the job: each FPGA map adds its device's to the job counters when
 * it ends, and the summary reports their sums (device cycles, modelled device time at the device's
 * clock, host time of the driver).
 */
final class FpgaFigures {
    private FpgaFigures() {
    }

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
     * The summary's {@code fpga} entry: {@code batches}, {@code device_cycles}, {@code device_s},
     * {@code host_s}, {@code host_per_device} (host time over device time), {@code zero_copy_batches};
     * null when no map used an FPGA.
     */
    static Map<String, Object> summary(Counters counters) {
        long batches = counters.findCounter(Md5Counters.FPGA_BATCHES).getValue();
        if (batches == 0) {
            return null;
        }
        double device = counters.findCounter(Md5Counters.FPGA_DEVICE_US).getValue() / 1e6;
        double host = counters.findCounter(Md5Counters.FPGA_HOST_US).getValue() / 1e6;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("batches", batches);
        m.put("device_cycles", counters.findCounter(Md5Counters.FPGA_DEVICE_CYCLES).getValue());
        m.put("device_s", device);
        m.put("host_s", host);
        m.put("host_per_device", device > 0 ? host / device : 0.0);
        m.put("zero_copy_batches", counters.findCounter(Md5Counters.FPGA_ZERO_COPY_BATCHES).getValue());
        return m;
    }

    /** One line for the summary on stderr. */
    static String line(Map<String, Object> m) {
        return String.format("fpga: %d batches, %d device cycles, %.3f ms modelled device time, %.3f ms driver host time (%.1f%% of it)",
            (Long) m.get("batches"), (Long) m.get("device_cycles"), 1e3 * (Double) m.get("device_s"), 1e3 * (Double) m.get("host_s"),
            100 * (Double) m.get("host_per_device"));
    }
}
