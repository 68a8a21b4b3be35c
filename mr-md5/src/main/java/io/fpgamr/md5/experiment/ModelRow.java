package io.fpgamr.md5.experiment;

import io.fpgamr.energy.sample.CsvTable;

/**
 * One run of the modelled ARM-FPGA node ({@code DIR/arm-fpga-model.csv}): a run of the FPGA node's
 * job, its device cycles (exact, counted by the simulated RTL) at the design clock and the board's
 * declared power. Every figure is modelled ({@code basis}), none measured.
 */
public record ModelRow(String point, int run, long valuesHashed, long deviceCycles, double clockMhz, String clockSource, double boardWatts,
                       String boardWattsSource, double deviceS, double energyJ, double tpw, String basis) {
    public static final String FILE = "arm-fpga-model.csv";
    public static final CsvTable<ModelRow> CSV = new CsvTable<>(ModelRow.class, "point", "run", "values_hashed", "device_cycles", "clock_mhz",
        "clock_source", "board_watts", "board_watts_source", "device_s", "energy_j", "tpw", "basis");

    public static ModelRow of(ResultRow r, double clockMhz, String clockSource, double boardWatts, String boardWattsSource) {
        double s = r.fpgaDeviceCycles() / (clockMhz * 1e6);
        double j = boardWatts * s;
        return new ModelRow(r.point(), r.run(), r.valuesHashed(), r.fpgaDeviceCycles(), clockMhz, clockSource, boardWatts, boardWattsSource, s,
            j, r.valuesHashed() / j, "modelled");
    }
}
