package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fpgamr.energy.sample.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnergyCalculatorTest {
    static final long SUBMIT = 10_000;
    static final long DONE = 14_500;

    /** Two maps and one reduce on n1, spans named as YARN names nodes (host:port). */
    static final List<TaskSpan> SPANS;

    static {
        List<TaskSpan> s = new ArrayList<>();
        s.add(TaskSpan.ofMap("n1:8042", 10_200, 12_300));
        s.add(TaskSpan.ofMap("n1:8042", 10_300, 12_800));
        s.add(TaskSpan.ofReduce("n1:8042", 12_000, 13_000, 14_300));
        SPANS = List.copyOf(s);
    }

    static Sample ups(long from, long to, double w) {
        return Sample.ok("n1", "x86", "apcupsd", "backups", from, to, w, true, true);
    }

    /** A UPS read once a second (the node's total) and RAPL beside it (reference only). */
    static List<Sample> complete() {
        List<Sample> rows = new ArrayList<>(List.of(
            ups(9_500, 10_500, 100), ups(10_500, 11_500, 120), ups(11_500, 12_500, 140), ups(12_500, 13_500, 110), ups(13_500, 14_600, 90)));
        for (long t = 9_500; t < 14_600; t += 1000) {
            rows.add(Sample.ok("n1", "x86", "rapl", "package-0", t, Math.min(t + 1000, 14_600), 50, true, false));
        }
        return rows;
    }

    @Test
    void joulesAreWattsTimesTheTimeEachRowCoversInsideTheWindow() {
        JobEnergy e = EnergyCalculator.compute(new JobRecord("job_1", SUBMIT, DONE, 1L << 20, SPANS), complete(), 1000, false);
        assertEquals("measured", e.status());
        // 100 W * 0.5 s + 120 + 140 + 110 + 90 W * 1.0 s (the last row runs past the end)
        assertEquals(510.0, e.energyJ(), 1e-9);
        assertEquals(510.0 / 4.5, e.meanW(), 1e-9);
        assertEquals((1 << 20) / 510.0, e.tpw(), 1e-9);
        assertEquals(510.0 * 4.5 * 4.5, e.ed2p(), 1e-9);

        NodeEnergy n = e.nodes().get(0);
        assertEquals("n1", n.node());
        assertEquals("apcupsd", n.source());
        assertEquals(List.of("backups"), n.domains());
        assertEquals(1.0, n.coverage());
        assertEquals(Map.of("rapl", 225.0), n.otherSources());

        // map 10.2-12.8 s: 100*0.3 + 120 + 140 + 110*0.3; shuffle 12.8-13.0: 110*0.2; reduce 13.0-14.3: 110*0.5 + 90*0.8
        List<StageEnergy> st = e.stages();
        assertEquals(List.of("map", "shuffle", "reduce", "total"), st.stream().map(StageEnergy::stage).toList());
        assertEquals(2.6, st.get(0).seconds(), 1e-12);
        assertEquals(323.0, st.get(0).energyJ(), 1e-9);
        assertEquals(0.2, st.get(1).seconds(), 1e-12);
        assertEquals(22.0, st.get(1).energyJ(), 1e-9);
        assertEquals(1.3, st.get(2).seconds(), 1e-12);
        assertEquals(127.0, st.get(2).energyJ(), 1e-9);
        assertEquals(510.0, st.get(3).energyJ(), 1e-9);

        PerSecond t = e.perSecond();
        assertEquals(5, t.seconds());
        assertArrayEquals(new double[] {110, 130, 125, 100, 90}, t.nodeWatts().get("n1"), 1e-9);
        assertArrayEquals(new int[] {2, 2, 2, 0, 0}, t.maps());
        assertArrayEquals(new int[] {0, 0, 1, 0, 0}, t.shuffles());
        assertArrayEquals(new int[] {0, 0, 0, 1, 1}, t.reduces());
    }

    @Test
    void aFailedReadIsAGapAndTheJobFiguresAreWithheld() {
        List<Sample> rows = new ArrayList<>(complete());
        rows.removeIf(s -> s.source().equals("apcupsd") && s.startMs() == 11_500);
        rows.add(Sample.gap("n1", "x86", "apcupsd", 11_500, 12_500, true, true, "apcupsd at 127.0.0.1:3551 did not answer"));
        JobEnergy e = EnergyCalculator.compute(new JobRecord("job_2", SUBMIT, DONE, 1L << 20, SPANS), rows, 1000, false);
        assertEquals("incomplete", e.status());
        assertEquals("n1 was not measured for 1.000 s (apcupsd at 127.0.0.1:3551 did not answer)", e.unavailable());
        assertNull(e.energyJ());
        assertNull(e.tpw());
        assertNull(e.ed2p());
        assertEquals(370.0, e.measuredEnergyJ(), 1e-9);
        NodeEnergy n = e.nodes().get(0);
        assertEquals(3.5 / 4.5, n.coverage(), 1e-12);
        assertEquals(List.of(new NodeEnergy.Gap("apcupsd", 11_500, 12_500, "apcupsd at 127.0.0.1:3551 did not answer")), n.gaps());
        assertEquals(370.0 / 3.5, n.meanW(), 1e-9);
        assertNull(e.stages().get(0).energyJ());
        // the plot shows the second without a reading as missing, not as a guess
        double[] w = e.perSecond().nodeWatts().get("n1");
        assertEquals(120.0, w[1], 1e-9); // 11-12 s: only 11.0-11.5 s measured: 60 J over 0.5 s
        assertEquals(110.0, w[2], 1e-9); // 12-13 s: only 12.5-13.0 s measured: 55 J over 0.5 s
    }

    @Test
    void timeBeforeTheFirstSampleIsReportedAsNotSampled() {
        List<Sample> rows = complete().stream().filter(s -> s.startMs() >= 10_500).toList();
        JobEnergy e = EnergyCalculator.compute(new JobRecord("job_3", SUBMIT, DONE, 1000, SPANS), rows, 1000, false);
        assertEquals(List.of(new NodeEnergy.Gap("apcupsd", 10_000, 10_500, "not sampled")), e.nodes().get(0).gaps());
        assertEquals("incomplete", e.status());
    }

    @Test
    void noPowerSourceGivesTimesOnly() {
        JobEnergy e = EnergyCalculator.compute(new JobRecord("job_4", SUBMIT, DONE, 1000, SPANS), List.of(), 1000, true);
        assertEquals(JobEnergy.NO_SOURCE, e.status());
        assertNull(e.energyJ());
        assertNull(e.tpw());
        assertEquals("n1:8042", e.nodes().get(0).node());
        assertEquals(JobEnergy.NO_SOURCE, e.toMap().get("status"));
        assertEquals(2.6, e.stages().get(0).seconds(), 1e-12);
        assertNull(e.stages().get(0).energyJ());
        assertArrayEquals(new int[] {2, 2, 2, 0, 0}, e.perSecond().maps());
        assertEquals(0, e.perSecond().nodeWatts().size());
    }

    @Test
    void aDeclaredWattageIsLabelledDeclared() {
        List<Sample> rows = new ArrayList<>();
        for (long t = 9_000; t < 15_000; t += 1000) {
            rows.add(Sample.ok("worker", "arm", "declared", "declared", t, t + 1000, 7.5, false, true));
        }
        // the local runner names the node by host; the sampler by its configured name: one machine
        JobEnergy e = EnergyCalculator.compute(new JobRecord("job_5", SUBMIT, DONE, 4500, SPANS), rows, 1000, true);
        assertEquals("declared", e.status());
        assertEquals(7.5 * 4.5, e.energyJ(), 1e-9);
        assertEquals(4500 / (7.5 * 4.5), e.tpw(), 1e-9);
        assertEquals(false, ((Map<?, ?>) ((List<?>) e.toMap().get("nodes")).get(0)).get("measured"));
        assertEquals("worker", e.nodes().get(0).node());
    }

    @Test
    void aNodeThatRanTasksWithoutASourceMakesTheJobIncomplete() {
        List<TaskSpan> spans = new ArrayList<>(SPANS);
        spans.add(TaskSpan.ofMap("n2:8042", 10_100, 12_000));
        JobEnergy e = EnergyCalculator.compute(new JobRecord("job_6", SUBMIT, DONE, 1000, spans), complete(), 1000, false);
        assertEquals("incomplete", e.status());
        assertEquals("n2:8042 has no power source", e.unavailable());
        assertEquals(510.0, e.measuredEnergyJ(), 1e-9);
        assertEquals(2, e.nodes().size());
    }
}
