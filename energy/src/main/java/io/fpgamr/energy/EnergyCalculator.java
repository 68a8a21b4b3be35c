package io.fpgamr.energy;

import io.fpgamr.energy.sample.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Joins a job's task spans with the power samples of its nodes over the job's window
 * [submit, done]: every sample row stands for its interval, and its watts times the part of the
 * interval inside a window are that window's joules (the thesis's sum of per-second powers is the
 * same sum at a 1 s period). Time no row covers, and gap rows, are reported as gaps.
 */
public final class EnergyCalculator {
    private EnergyCalculator() {
    }

    /**
     * @param singleMachine the job ran on this machine only (local runner, embedded cluster): task
     *                      spans whose node name matches no sampled node belong to the one sampled node
     */
    public static JobEnergy compute(JobRecord job, List<Sample> samples, long periodMs, boolean singleMachine) {
        return compute(job, samples, periodMs, singleMachine, Map.of());
    }

    /**
     * @param knownNodes nodes that were watched (name to node type) even if they gave no sample, as
     *                   the launcher's own machine with no power source
     */
    public static JobEnergy compute(JobRecord job, List<Sample> samples, long periodMs, boolean singleMachine,
                                    Map<String, String> knownNodes) {
        long from = job.submitMs();
        long to = job.doneMs();
        List<Sample> inWindow = new ArrayList<>();
        Set<String> sampledNodes = new LinkedHashSet<>(new TreeMap<>(knownNodes).keySet());
        Map<String, String> nodeTypes = new LinkedHashMap<>(knownNodes);
        for (Sample s : samples) {
            sampledNodes.add(s.node());
            nodeTypes.putIfAbsent(s.node(), s.nodeType());
            if (s.endMs() > from && s.startMs() < to) {
                inWindow.add(s);
            }
        }
        Timeline timeline = job.timeline().withNodes(n -> nodeOf(n, sampledNodes, singleMachine));
        List<TaskSpan> spans = timeline.spans();
        Set<String> nodes = new TreeSet<>(sampledNodes);
        for (TaskSpan t : spans) {
            nodes.add(t.node());
        }

        List<NodeEnergy> perNode = new ArrayList<>();
        for (String node : nodes) {
            perNode.add(node(node, nodeTypes.getOrDefault(node, "unknown"), inWindow, from, to));
        }

        boolean anySource = perNode.stream().anyMatch(NodeEnergy::hasSource);
        boolean allSources = !perNode.isEmpty() && perNode.stream().allMatch(NodeEnergy::hasSource);
        boolean complete = allSources && perNode.stream().allMatch(NodeEnergy::complete);
        long declared = perNode.stream().filter(n -> n.hasSource() && !n.measured()).count();
        String status;
        String unavailable = null;
        if (!anySource) {
            status = JobEnergy.NO_SOURCE;
            unavailable = perNode.isEmpty() ? "no node ran a task" : JobEnergy.NO_SOURCE;
        } else if (!complete) {
            status = "incomplete";
            List<String> why = new ArrayList<>();
            for (NodeEnergy n : perNode) {
                if (!n.hasSource()) {
                    why.add(n.node() + " has no power source");
                } else if (!n.gaps().isEmpty()) {
                    double s = n.gaps().stream().mapToDouble(NodeEnergy.Gap::seconds).sum();
                    why.add(String.format(java.util.Locale.ROOT, "%s was not measured for %.3f s (%s)", n.node(), s, n.gaps().get(0).reason()));
                }
            }
            unavailable = String.join("; ", why);
        } else if (declared == perNode.size()) {
            status = "declared";
        } else if (declared > 0) {
            status = "partly declared";
        } else {
            status = "measured";
        }
        Double energy = complete ? perNode.stream().mapToDouble(NodeEnergy::energyJ).sum() : null;

        List<StageEnergy> stages = new ArrayList<>();
        for (Timeline.Stage stage : timeline.stages()) {
            long a = stage.startMs();
            long b = stage.endMs();
            Double j = null;
            if (complete) {
                double sum = 0;
                for (Sample s : inWindow) {
                    if (s.primary()) {
                        sum += s.joulesWithin(a, b);
                    }
                }
                j = sum;
            }
            stages.add(new StageEnergy(stage.name(), a, b, j));
        }
        PerSecond perSecond = perSecond(from, to, nodes, inWindow, spans);
        return new JobEnergy(new JobRecord(job.jobId(), job.valuesHashed(), timeline), periodMs, perNode, stages,
            perSecond, samples, energy, status, unavailable, nodeTypes);
    }

    /** The sampled node a span's node name stands for. */
    static String nodeOf(String spanNode, Set<String> sampled, boolean singleMachine) {
        if (sampled.contains(spanNode)) {
            return spanNode;
        }
        String host = TaskSpan.host(spanNode);
        for (String n : sampled) {
            if (n.equals(host) || TaskSpan.host(n).equals(host)) {
                return n;
            }
        }
        if (singleMachine && sampled.size() == 1) {
            return sampled.iterator().next();
        }
        return spanNode;
    }

    private static NodeEnergy node(String node, String nodeType, List<Sample> rows, long from, long to) {
        String source = null;
        boolean measured = true;
        Set<String> domains = new LinkedHashSet<>();
        Map<String, Double> other = new TreeMap<>();
        List<Sample> primary = new ArrayList<>();
        for (Sample s : rows) {
            if (!s.node().equals(node)) {
                continue;
            }
            if (s.primary() && (source == null || source.equals(s.source()))) {
                source = s.source();
                measured = s.measured();
                primary.add(s);
                if (!s.isGap()) {
                    domains.add(s.domain());
                }
            } else if (!s.isGap()) {
                other.merge(s.source(), s.joulesWithin(from, to), Double::sum);
            }
        }
        if (source == null) {
            return new NodeEnergy(node, nodeType, null, false, List.of(), null, null, 0, List.of(), other);
        }
        double joules = 0;
        // Each distinct interval once, whatever the number of domains read in it.
        TreeMap<Long, long[]> intervals = new TreeMap<>();
        Map<Long, String> gapReason = new TreeMap<>();
        for (Sample s : primary) {
            joules += s.joulesWithin(from, to);
            long a = Math.max(s.startMs(), from);
            long b = Math.min(s.endMs(), to);
            if (b <= a) {
                continue;
            }
            intervals.putIfAbsent(a, new long[] {a, b, s.isGap() ? 1 : 0});
            if (s.isGap()) {
                gapReason.put(a, s.gap());
            }
        }
        List<NodeEnergy.Gap> gaps = new ArrayList<>();
        long covered = 0;
        long cursor = from;
        for (long[] iv : intervals.values()) {
            if (iv[0] > cursor) {
                gaps.add(new NodeEnergy.Gap(source, cursor, iv[0], "not sampled"));
            }
            long a = Math.max(iv[0], cursor);
            if (iv[1] > a) {
                if (iv[2] == 1) {
                    gaps.add(new NodeEnergy.Gap(source, a, iv[1], gapReason.get(iv[0])));
                } else {
                    covered += iv[1] - a;
                }
            }
            cursor = Math.max(cursor, iv[1]);
        }
        if (cursor < to) {
            gaps.add(new NodeEnergy.Gap(source, cursor, to, "not sampled"));
        }
        long window = to - from;
        double coverage = window == 0 ? 1.0 : (double) covered / window;
        Double mean = covered == 0 ? null : joules / (covered / 1000.0);
        return new NodeEnergy(node, nodeType, source, measured, List.copyOf(domains), joules, mean, coverage, merge(gaps), other);
    }

    /** Joins touching gaps with the same reason. */
    private static List<NodeEnergy.Gap> merge(List<NodeEnergy.Gap> gaps) {
        List<NodeEnergy.Gap> out = new ArrayList<>();
        for (NodeEnergy.Gap g : gaps) {
            if (!out.isEmpty()) {
                NodeEnergy.Gap last = out.get(out.size() - 1);
                if (last.toMs() == g.fromMs() && last.reason().equals(g.reason())) {
                    out.set(out.size() - 1, new NodeEnergy.Gap(g.source(), last.fromMs(), g.toMs(), g.reason()));
                    continue;
                }
            }
            out.add(g);
        }
        return out;
    }

    static PerSecond perSecond(long from, long to, Set<String> nodes, List<Sample> rows, List<TaskSpan> spans) {
        int seconds = (int) Math.max(0, (to - from + 999) / 1000);
        Map<String, double[]> watts = new LinkedHashMap<>();
        for (String node : nodes) {
            double[] joules = new double[seconds];
            long[] coveredMs = new long[seconds];
            Set<String> seen = new java.util.HashSet<>(); // covered time counts each interval once, whatever its domains
            for (Sample s : rows) {
                if (!s.node().equals(node) || !s.primary() || s.isGap()) {
                    continue;
                }
                boolean first = seen.add(s.startMs() + "-" + s.endMs());
                int k0 = (int) Math.max(0, (s.startMs() - from) / 1000);
                int k1 = (int) Math.min(seconds - 1, (Math.min(s.endMs(), to) - 1 - from) / 1000);
                for (int k = k0; k <= k1; k++) {
                    long a = from + 1000L * k;
                    long b = Math.min(to, a + 1000);
                    joules[k] += s.joulesWithin(a, b);
                    coveredMs[k] += first ? s.overlapMs(a, b) : 0;
                }
            }
            if (seen.isEmpty()) {
                continue;
            }
            double[] w = new double[seconds];
            for (int k = 0; k < seconds; k++) {
                w[k] = coveredMs[k] == 0 ? Double.NaN : joules[k] / (coveredMs[k] / 1000.0);
            }
            watts.put(node, w);
        }
        int[] maps = new int[seconds];
        int[] shuffles = new int[seconds];
        int[] reduces = new int[seconds];
        for (int k = 0; k < seconds; k++) {
            long a = from + 1000L * k;
            long b = a + 1000;
            for (TaskSpan t : spans) {
                for (TaskSpan.Phase p : t.phases()) {
                    if (p.overlaps(a, b)) {
                        switch (p.name()) {
                            case "map" -> maps[k]++;
                            case "shuffle" -> shuffles[k]++;
                            default -> reduces[k]++;
                        }
                    }
                }
            }
        }
        return new PerSecond(from, seconds, watts, maps, shuffles, reduces);
    }
}
