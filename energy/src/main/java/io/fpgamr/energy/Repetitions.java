package io.fpgamr.energy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Repeated runs of one job configuration (the thesis ran each five times) summarised as
 * mean ± standard deviation: stage times always; energy, mean power, TpW and ED²P only when every
 * run has them, since a mean over the measured runs alone would hide the others.
 */
public final class Repetitions {
    /** The thesis's number of runs per configuration. */
    public static final int DEFAULT_RUNS = 5;

    private final List<JobEnergy> runs;
    private final Map<String, Stats> stats = new LinkedHashMap<>();

    public Repetitions(List<JobEnergy> runs) {
        this.runs = List.copyOf(runs);
        put("map_s", e -> stage(e, "map"));
        put("shuffle_s", e -> stage(e, "shuffle"));
        put("reduce_s", e -> stage(e, "reduce"));
        put("total_s", JobEnergy::seconds);
        put("energy_j", JobEnergy::energyJ);
        put("mean_w", JobEnergy::meanW);
        put("tpw", JobEnergy::tpw);
        put("ed2p_js2", JobEnergy::ed2p);
    }

    private static Double stage(JobEnergy e, String name) {
        for (StageEnergy s : e.stages()) {
            if (s.stage().equals(name)) {
                return s.seconds();
            }
        }
        return 0.0;
    }

    private void put(String key, Function<JobEnergy, Double> f) {
        List<Double> values = new ArrayList<>();
        for (JobEnergy e : runs) {
            Double v = f.apply(e);
            if (v == null) {
                return;
            }
            values.add(v);
        }
        if (!values.isEmpty()) {
            stats.put(key, Stats.of(values));
        }
    }

    public List<JobEnergy> runs() {
        return runs;
    }

    /** "modelled" when any run's figures are (a declared wattage, a simulated FPGA), else its runs' basis. */
    public String basis() {
        return runs.stream().anyMatch(e -> e.basis().equals("modelled")) ? "modelled" : runs.isEmpty() ? "none" : runs.get(0).basis();
    }

    /** Whether any run had maps on a simulated FPGA (its figures are then modelled). */
    public boolean simulated() {
        return runs.stream().anyMatch(JobEnergy::simulated);
    }

    /** The statistic of one figure, or null when some run lacks it. */
    public Stats stat(String key) {
        return stats.get(key);
    }

    /** {@code {"runs": n, "mean": {...}, "sd": {...}}} for the job summary. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runs", runs.size());
        m.put("simulated", simulated());
        Map<String, Object> mean = new LinkedHashMap<>();
        Map<String, Object> sd = new LinkedHashMap<>();
        for (Map.Entry<String, Stats> e : stats.entrySet()) {
            mean.put(e.getKey(), e.getValue().mean());
            sd.put(e.getKey(), Double.isNaN(e.getValue().sd()) ? null : e.getValue().sd()); // one run has no sd
        }
        m.put("basis", basis());
        m.put("mean", mean);
        m.put("sd", sd);
        List<Object> each = new ArrayList<>();
        for (JobEnergy e : runs) {
            each.add(e.toMap());
        }
        m.put("each", each);
        return m;
    }
}
