package io.fpgamr.md5.experiment;

import io.fpgamr.energy.sample.CsvTable;

/**
 * One run of one point: a row of {@code results.csv}. Times are the job's stage table (thesis table
 * 9.1); energy, mean power, TpW and ED²P are energy's, null where it had no figure; {@code basis}
 * says whether the energy was measured or modelled and {@code flags} why ({@code declared-power},
 * {@code simulated-fpga}, {@code no-power-source}). The last columns are where a map's time went
 * (summed over the job's maps): the map tasks' whole time (JVM start to the end of the map
 * function), of which the task's start (its JVM's start to its setup), the engine's calls (wall; also its CPU time,
 * and on an FPGA the modelled device time and the driver's host time), reading records, writing
 * output and spilling; and writing and merging the output after the map function ({@code sort_s}). Then how the work fell
 * on the nodes: the job's {@code balance} design (stream, static), its straggler (the last node's last map end minus the
 * earliest node's) and the values each node type's engines hashed ({@code x86/cpu=...;fpga/fpga=...}). A failed run has its
 * {@code error} and no figures.
 */
public record ResultRow(String point, String job, String nodeType, int bits, int ppk, int maps, int reducers, int nodes, int run,
                        String status, String error, Long valuesHashed, Long valuesExpected, Double mapS, Double shuffleS, Double reduceS,
                        Double totalS, Double energyJ, Double meanW, Double tpw, Double ed2pJs2, String energyStatus, String basis,
                        String flags, Double engineCpuS, Long fpgaDeviceCycles, Double fpgaDeviceS, Double fpgaHostS, Double mapTasksS,
                        Double startupS, Double engineS, Double readS, Double writeS, Double spillS, Double sortS, String energyDir,
                        String balance, Double stragglerS, String valuesByEngine) {
    public static final String OK = "ok";
    public static final String FAILED = "failed";

    public static final CsvTable<ResultRow> CSV = new CsvTable<>(ResultRow.class, "point", "job", "node_type", "bits", "ppk", "maps",
        "reducers", "nodes", "run", "status", "error", "values_hashed", "values_expected", "map_s", "shuffle_s", "reduce_s", "total_s",
        "energy_j", "mean_w", "tpw", "ed2p_js2", "energy_status", "basis", "flags", "engine_cpu_s", "fpga_device_cycles", "fpga_device_s",
        "fpga_host_s", "map_tasks_s", "startup_s", "engine_s", "read_s", "write_s", "spill_s", "sort_s", "energy_dir",
        "balance", "straggler_s", "values_by_engine");

    public boolean ok() {
        return OK.equals(status);
    }

    /** A failed run of {@code p}: recorded, never hidden. */
    public static ResultRow failed(Point p, int run, String error) {
        return new ResultRow(p.id(), p.job(), p.nodeType(), p.bits(), p.ppk(), p.maps(), p.reducers(), p.nodes(), run, FAILED, error,
            null, 1L << p.bits(), null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null, null);
    }
}
