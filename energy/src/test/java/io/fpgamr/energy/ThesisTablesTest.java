package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.source.ShuntFormula;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calculator against inputs it did not produce. The thesis publishes its stage times (tables
 * 9.1, 9.3 and 12.1, section 9.1.3) but not its powers, only their ranges (section 6.3: x86 100-300 W,
 * peaking near 280 W in figure 9.1; the ARM boards 5-10 W) and how it measured them (a UPS for x86;
 * for the ARM boards a 1 ohm shunt read by a scope, the Novena supplied at 16.30 V and the MCVEVK at
 * 9.28 V, P = (Us - dU) * dU / R). So each job is rebuilt from its published stage times with a
 * power per stage chosen within those ranges, and its energy, mean power, TpW and ED²P were worked
 * out by hand from those numbers alone; the calculator must give the same.
 *
 * <pre>
 * x86 (UPS):                map 270 W, shuffle 150 W, reduce 180 W
 * Novena (16.30 V, 1 ohm):  map dU 0.60 V: 15.70 * 0.60 = 9.42 W; shuffle 0.40 V: 15.90 * 0.40 = 6.36 W;
 *                           reduce 0.55 V: 15.75 * 0.55 = 8.6625 W
 * ARM-FPGA (9.28 V, 1 ohm): map dU 0.70 V: 8.58 * 0.70 = 6.006 W; shuffle 0.60 V: 8.68 * 0.60 = 5.208 W;
 *                           reduce 0.72 V: 8.56 * 0.72 = 6.1632 W
 * </pre>
 *
 * A second test checks the thesis's own formula (figure 6.2), TpW = 2^28 / sum of the per-second
 * powers P_t, on a one-second trace whose sum the test adds up itself.
 */
class ThesisTablesTest {
    static final long TRANSFORMATIONS = 1L << 28;
    static final long SUBMIT = 1_400_000_000_000L;

    /** A job of the thesis: its stage times, the power of each stage, and the figures worked out by hand. */
    record Job(String table, String nodeType, double[] stageS, double[] stageW, double[] stageJ, double energyJ, double meanW,
               double tpw, double ed2p) {
    }

    static double[] x86() {
        return new double[] {270, 150, 180};
    }

    static double[] shunt(double supplyVolts, double... dropVolts) {
        ShuntFormula f = new ShuntFormula(supplyVolts, 1.0);
        double[] w = new double[dropVolts.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = f.watts(dropVolts[i]);
        }
        return w;
    }

    static final double[] NOVENA = shunt(16.30, 0.60, 0.40, 0.55);
    static final double[] MCVEVK = shunt(9.28, 0.70, 0.60, 0.72);

    // energy per stage = its published seconds times its watts; TpW = 2^28 / energy; ED²P = energy * t_total²
    static final List<Job> JOBS = List.of(
        // 411 * 270 = 110970, 15 * 150 = 2250, 195.8 * 180 = 35244; 148464 J over 621.8 s
        new Job("table 9.1, x86, 1 PpK", "x86", new double[] {411, 15, 195.8}, x86(), new double[] {110970, 2250, 35244},
            148464, 238.764876166, 1808.084492, 5.740141e10),
        // 317.8 * 270 = 85806, 16 * 150 = 2400, 187.2 * 180 = 33696; 121902 J over 521 s
        new Job("table 9.1, x86, 2^18 PpK", "x86", new double[] {317.8, 16, 187.2}, x86(), new double[] {85806, 2400, 33696},
            121902, 233.976967370, 2202.059490, 3.308920e10),
        // 6423.8 * 9.42 = 60512.196, 844.2 * 6.36 = 5369.112, 1647.6 * 8.6625 = 14272.335; 80153.643 J over 8915.6 s
        new Job("table 9.3, ARM Novena, 1 PpK", "arm", new double[] {6423.8, 844.2, 1647.6}, NOVENA,
            new double[] {60512.196, 5369.112, 14272.335}, 80153.643, 8.990269079, 3349.011298, 6.371247e12),
        // 4665 * 9.42 = 43944.3, 800.2 * 6.36 = 5089.272, 1643.2 * 8.6625 = 14234.22; 63267.792 J over 7108.4 s
        new Job("table 9.3, ARM Novena, 2^18 PpK", "arm", new double[] {4665, 800.2, 1643.2}, NOVENA,
            new double[] {43944.3, 5089.272, 14234.22}, 63267.792, 8.900426538, 4242.845333, 3.196880e12),
        // 27117 * 6.006 = 162864.702, 875 * 5.208 = 4557, 4325 * 6.1632 = 26655.84; 194077.542 J over 32317 s
        new Job("section 9.1.3, ARM-FPGA, one run", "arm-fpga", new double[] {27117, 875, 4325}, MCVEVK,
            new double[] {162864.702, 4557, 26655.84}, 194077.542, 6.005431878, 1383.135077, 2.026924e14),
        // 5351.4 * 6.006 = 32140.5084, 869.6 * 5.208 = 4528.8768, 4197.6 * 6.1632 = 25870.64832; 62540.03352 J over 10418.6 s
        new Job("table 12.1, ARM-FPGA", "arm-fpga", new double[] {5351.4, 869.6, 4197.6}, MCVEVK,
            new double[] {32140.5084, 4528.8768, 25870.64832}, 62540.03352, 6.002729111, 4292.217974, 6.788547e12),
        // 1808.4 * 9.42 = 17035.128, 856.6 * 6.36 = 5447.976, 1561.6 * 8.6625 = 13527.36; 36010.464 J over 4226.6 s
        new Job("table 12.1, ARM Novena", "arm", new double[] {1808.4, 856.6, 1561.6}, NOVENA,
            new double[] {17035.128, 5447.976, 13527.36}, 36010.464, 8.519960252, 7454.373706, 6.432962e11),
        // 115.4 * 270 = 31158, 18.4 * 150 = 2760, 113 * 180 = 20340; 54258 J over 246.8 s
        new Job("table 12.1, x86", "x86", new double[] {115.4, 18.4, 113}, x86(), new double[] {31158, 2760, 20340},
            54258, 219.846029173, 4947.389436, 3.304868e9));

    /**
     * The job as a launcher records it (one map span, one reduce split at its input being ready, as
     * the thesis times its stages) and its node read five times a second: every published stage
     * boundary falls on a reading.
     */
    static JobEnergy rebuild(Job j) {
        long mapEnd = SUBMIT + Math.round(j.stageS()[0] * 1000);
        long ready = mapEnd + Math.round(j.stageS()[1] * 1000);
        long done = ready + Math.round(j.stageS()[2] * 1000);
        String source = j.nodeType().equals("x86") ? "apcupsd" : "scope";
        List<Sample> rows = new ArrayList<>();
        for (long t = SUBMIT; t < done; t += 200) {
            int stage = t < mapEnd ? 0 : t < ready ? 1 : 2;
            rows.add(Sample.ok("node1", j.nodeType(), source, "node", t, t + 200, j.stageW()[stage], true, true));
        }
        List<TaskSpan> spans = new ArrayList<>(List.of(TaskSpan.ofMap("node1", SUBMIT, mapEnd)));
        spans.add(TaskSpan.ofReduce("node1", mapEnd, ready, done));
        return EnergyCalculator.compute(new JobRecord(j.table(), SUBMIT, done, TRANSFORMATIONS, spans), rows, 200, true);
    }

    @Test
    void thePublishedStageTimesWithHandWorkedPowersGiveHandWorkedEnergyAndTpw() {
        for (Job j : JOBS) {
            JobEnergy e = rebuild(j);
            assertEquals("measured", e.status(), j.table());
            assertEquals("measured", e.basis(), j.table());
            List<StageEnergy> st = e.stages();
            assertEquals(List.of("map", "shuffle", "reduce", "total"), st.stream().map(StageEnergy::stage).toList(), j.table());
            for (int i = 0; i < 3; i++) {
                assertEquals(j.stageS()[i], st.get(i).seconds(), 1e-9, j.table() + " " + st.get(i).stage());
                assertEquals(j.stageJ()[i], st.get(i).energyJ(), 1e-6, j.table() + " " + st.get(i).stage());
            }
            assertEquals(j.energyJ(), e.energyJ(), 1e-6, j.table());
            assertEquals(j.energyJ(), st.get(3).energyJ(), 1e-6, j.table());
            assertEquals(j.meanW(), e.meanW(), 1e-8, j.table());
            assertEquals(j.tpw(), e.tpw(), 1e-6, j.table());
            assertEquals(j.ed2p(), e.ed2p(), j.ed2p() * 1e-6, j.table());
        }
    }

    /** Figure 6.2 literally: P_t is the node's power in the t-th second, and TpW = 2^28 / sum of P_t. */
    @Test
    void tpwIsTwoToThe28OverTheSumOfThePerSecondPowers() {
        int seconds = 521; // table 9.1's t_total at 2^18 PpK
        List<Sample> rows = new ArrayList<>();
        double sum = 0;
        for (int t = 0; t < seconds; t++) {
            // busy maps for 318 s, then a quieter shuffle and reduce; a meter with 1 W steps
            double p = (t < 318 ? 260 : 160) + t % 11;
            sum += p;
            rows.add(Sample.ok("x86-1", "x86", "apcupsd", "backups", SUBMIT + t * 1000L, SUBMIT + (t + 1) * 1000L, p, true, true));
        }
        // 318 * 260 + 203 * 160 + the steps: 47 full runs of 0..10 (55 each) plus 0..3 (6): 82680 + 32480 + 2591
        assertEquals(117751.0, sum);
        JobEnergy e = EnergyCalculator.compute(new JobRecord("figure 6.2", SUBMIT, SUBMIT + seconds * 1000L, TRANSFORMATIONS,
            List.of(TaskSpan.ofMap("x86-1", SUBMIT, SUBMIT + 318_000))), rows, 1000, true);
        assertEquals(TRANSFORMATIONS / sum, e.tpw(), 1e-9);
        assertEquals(2279.69, Math.round(e.tpw() * 100) / 100.0);
    }

    @Test
    void repeatedRunsGiveMeanAndSampleStandardDeviation() {
        Stats s = Stats.of(List.of(411.0, 405.0, 414.0, 409.0, 416.0));
        assertEquals(411.0, s.mean(), 1e-12);
        // deviations -0, -6, 3, -2, 5: squares 0 + 36 + 9 + 4 + 25 = 74; 74 / 4 = 18.5
        assertEquals(Math.sqrt(18.5), s.sd(), 1e-12);
        assertEquals("411.00 ± 4.30", s.format(2));
        assertEquals("15.00 ± 0.00", Stats.of(List.of(15.0, 15.0, 15.0, 15.0, 15.0)).format(2));
        assertEquals("7.00 ± n/a", Stats.of(List.of(7.0)).format(2));
    }
}
