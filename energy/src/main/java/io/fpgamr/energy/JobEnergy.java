package io.fpgamr.energy;

import io.fpgamr.energy.sample.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's energy figures: joules per node and for the job, mean power, TpW (values hashed per
 * joule: the thesis's 2^28 / sum of the per-second powers, for a domain of any size) and ED²P
 * (energy times the squared execution time), with the stage table and the per-second timeline.
 * A figure that was not measured is null, with the reason; nothing is estimated.
 */
public final class JobEnergy {
    /** A job on nodes none of which has a power source: times only. */
    public static final String NO_SOURCE = "no power source";

    private final JobRecord job;
    private final long periodMs;
    private final List<NodeEnergy> nodes;
    private final List<StageEnergy> stages;
    private final PerSecond perSecond;
    private final List<Sample> samples;
    private final Double energyJ;
    private final String status;
    private final String unavailable;
    private final Map<String, String> nodeTypes;

    JobEnergy(JobRecord job, long periodMs, List<NodeEnergy> nodes, List<StageEnergy> stages, PerSecond perSecond,
              List<Sample> samples, Double energyJ, String status, String unavailable, Map<String, String> nodeTypes) {
        this.job = job;
        this.periodMs = periodMs;
        this.nodes = List.copyOf(nodes);
        this.stages = List.copyOf(stages);
        this.perSecond = perSecond;
        this.samples = List.copyOf(samples);
        this.energyJ = energyJ;
        this.status = status;
        this.unavailable = unavailable;
        this.nodeTypes = Map.copyOf(nodeTypes);
    }

    /** The node types of every node that was watched or sampled. */
    public Map<String, String> nodeTypes() {
        return nodeTypes;
    }

    public JobRecord job() {
        return job;
    }

    public long periodMs() {
        return periodMs;
    }

    public List<NodeEnergy> nodes() {
        return nodes;
    }

    public List<StageEnergy> stages() {
        return stages;
    }

    public PerSecond perSecond() {
        return perSecond;
    }

    /**
     * Whether maps hashed on a simulated FPGA: the joules are then those of the CPU that simulated
     * it, and the TpW is modelled, not an FPGA's.
     */
    public boolean simulated() {
        return job.simulated();
    }

    public List<Sample> samples() {
        return samples;
    }

    public double seconds() {
        return job.seconds();
    }

    /**
     * "measured", "declared" (every node's figure is a declared wattage), "partly declared",
     * "incomplete" (a node has no source or gaps) or "no power source".
     */
    public String status() {
        return status;
    }

    /** Why the job's energy, TpW and ED²P are missing, or null when they are there. */
    public String unavailable() {
        return unavailable;
    }

    /** The job's joules: every node's, over the whole window; null when not all was measured. */
    public Double energyJ() {
        return energyJ;
    }

    /** The joules that were measured, whatever the gaps: the sum of the nodes' figures. */
    public Double measuredEnergyJ() {
        Double sum = null;
        for (NodeEnergy n : nodes) {
            if (n.energyJ() != null) {
                sum = (sum == null ? 0 : sum) + n.energyJ();
            }
        }
        return sum;
    }

    public Double meanW() {
        return energyJ == null || job.doneMs() == job.submitMs() ? null : energyJ / seconds();
    }

    /** Transformations per joule (the thesis's TpW): values hashed / joules. */
    public Double tpw() {
        return energyJ == null || energyJ <= 0 ? null : job.valuesHashed() / energyJ;
    }

    /**
     * Why the figures are modelled rather than measured: nodes whose power is a declared wattage,
     * maps that ran on a simulated FPGA. Empty when every figure is a measurement.
     */
    public List<String> modelled() {
        List<String> why = new ArrayList<>();
        for (NodeEnergy n : nodes) {
            if (n.hasSource() && !n.measured()) {
                why.add(n.node() + ": a declared wattage, not measured");
            }
        }
        if (simulated()) {
            why.add("the maps ran on a simulated FPGA (a CPU running the device's model), not on the device");
        }
        return why;
    }

    /** "measured", "modelled" (see {@link #modelled()}) or "none" (no power source). */
    public String basis() {
        return nodes.stream().noneMatch(NodeEnergy::hasSource) ? "none" : modelled().isEmpty() ? "measured" : "modelled";
    }

    /** Energy-delay-squared product in J·s². */
    public Double ed2p() {
        return energyJ == null ? null : energyJ * seconds() * seconds();
    }

    /** The {@code energy} object of the job summary JSON. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status);
        m.put("simulated", simulated());
        if (unavailable != null) {
            m.put("unavailable", unavailable);
        }
        m.put("job", job.jobId());
        m.put("submit_ms", job.submitMs());
        m.put("done_ms", job.doneMs());
        m.put("seconds", seconds());
        m.put("sample_period_ms", periodMs);
        m.put("values_hashed", job.valuesHashed());
        m.put("energy_j", energyJ);
        m.put("measured_energy_j", measuredEnergyJ());
        m.put("mean_w", meanW());
        m.put("tpw", tpw());
        m.put("ed2p_js2", ed2p());
        m.put("basis", basis());
        m.put("modelled", modelled());
        List<Object> ns = new ArrayList<>();
        for (NodeEnergy n : nodes) {
            Map<String, Object> nm = new LinkedHashMap<>();
            nm.put("node", n.node());
            nm.put("node_type", n.nodeType());
            nm.put("source", n.source() == null ? NO_SOURCE : n.source());
            nm.put("measured", n.hasSource() && n.measured());
            nm.put("domains", n.domains());
            nm.put("energy_j", n.energyJ());
            nm.put("mean_w", n.meanW());
            nm.put("coverage", n.coverage());
            List<Object> gaps = new ArrayList<>();
            for (NodeEnergy.Gap g : n.gaps()) {
                Map<String, Object> gm = new LinkedHashMap<>();
                gm.put("source", g.source());
                gm.put("from_ms", g.fromMs());
                gm.put("to_ms", g.toMs());
                gm.put("seconds", g.seconds());
                gm.put("reason", g.reason());
                gaps.add(gm);
            }
            nm.put("gaps", gaps);
            nm.put("other_sources_j", n.otherSources());
            ns.add(nm);
        }
        m.put("nodes", ns);
        List<Object> st = new ArrayList<>();
        for (StageEnergy s : stages) {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("stage", s.stage());
            sm.put("start_ms", s.startMs());
            sm.put("end_ms", s.endMs());
            sm.put("seconds", s.seconds());
            sm.put("energy_j", s.energyJ());
            sm.put("mean_w", s.meanW());
            st.add(sm);
        }
        m.put("stages", st);
        return m;
    }
}
