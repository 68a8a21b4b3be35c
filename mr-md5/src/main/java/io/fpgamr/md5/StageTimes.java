package io.fpgamr.md5;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The thesis's stage table (its table 9.1) from the tasks' own spans: map = first map start to last
 * map end; shuffle = last map end to the last reducer's input being ready; reduce = from there to
 * the last reduce end; total = submission to completion.
 */
record StageTimes(double mapS, double shuffleS, double reduceS, double totalS) {

    static StageTimes of(List<TaskSpan> spans, long submitMs, long doneMs) {
        long mapStart = Long.MAX_VALUE;
        long mapEnd = submitMs;
        long ready = 0;
        long reduceEnd = 0;
        for (TaskSpan s : spans) {
            if (s.kind().equals("map")) {
                mapStart = Math.min(mapStart, s.startMs());
                mapEnd = Math.max(mapEnd, s.endMs());
            } else {
                ready = Math.max(ready, s.readyMs());
                reduceEnd = Math.max(reduceEnd, s.endMs());
            }
        }
        if (mapStart == Long.MAX_VALUE) {
            mapStart = mapEnd;
        }
        double shuffle = ready == 0 ? 0 : Math.max(0, ready - mapEnd) / 1000.0;
        double reduce = reduceEnd == 0 ? 0 : Math.max(0, reduceEnd - Math.max(ready, mapEnd)) / 1000.0;
        return new StageTimes((mapEnd - mapStart) / 1000.0, shuffle, reduce, (doneMs - submitMs) / 1000.0);
    }

    /** Per node, how many maps ran on each kind of hardware: {@code {node: {cpu: n, fpga: m}}}. */
    static Map<String, Map<String, Integer>> mapsByNode(List<TaskSpan> spans) {
        Map<String, Map<String, Integer>> byNode = new TreeMap<>();
        for (TaskSpan s : spans) {
            if (s.kind().equals("map")) {
                Map<String, Integer> counts = byNode.computeIfAbsent(s.node(), n -> new TreeMap<>(Map.of("cpu", 0, "fpga", 0)));
                counts.merge(s.hardware(), 1, Integer::sum);
            }
        }
        return byNode;
    }
}
