package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.sample.Sample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The thesis's TpW tables recomputed from their own times and mean powers. Its figure 6.2 defines
 * TpW = 2^28 / sum over t = 0..t_total of P_t, the per-second powers of the node, so a job's mean
 * power is P = 2^28 / (TpW * t_total). The tables publish t_total (tables 9.1, 12.1) and TpW
 * (tables 9.2, 12.2) but not P; the powers below are derived by that definition, rounded to the
 * microwatt:
 *
 * <pre>
 * table 9.2, x86, 1 PpK:        2^28 / (1717.5  *   621.8 s) = 251.357828 W
 * table 9.2, x86, 2^18 PpK:     2^28 / (2109.9  *   521.0 s) = 244.196977 W
 * table 12.2, ARM-FPGA:         2^28 / (4180.1  * 10418.6 s) =   6.163733 W
 * table 12.2, ARM Novena:       2^28 / (6625.02 *  4226.6 s) =   9.586532 W
 * table 12.2, x86:              2^28 / (4104.92 *   246.8 s) = 264.965924 W
 * section 9.1.3, ARM-FPGA once: 2^28 / (1306.98 * 32317 s)   =   6.355356 W
 * </pre>
 *
 * Each job is then rebuilt as a node sampled once a second at that power over t_total seconds and
 * run through the same calculator as a real job; the TpW it gives must round to the published one.
 */
class ThesisTablesTest {
    static final long TRANSFORMATIONS = 1L << 28;

    record Row(String table, String nodeType, double totalS, double meanW, double publishedTpw) {
    }

    static final List<Row> ROWS = List.of(
        new Row("9.2 x86 1 PpK", "x86", 621.8, 251.357828, 1717.5),
        new Row("9.2 x86 2^18 PpK", "x86", 521.0, 244.196977, 2109.9),
        new Row("12.2 ARM-FPGA", "arm-fpga", 10418.6, 6.163733, 4180.1),
        new Row("12.2 ARM Novena", "arm", 4226.6, 9.586532, 6625.02),
        new Row("12.2 x86", "x86", 246.8, 264.965924, 4104.92),
        new Row("9.1.3 ARM-FPGA single run", "arm-fpga", 32317, 6.355356, 1306.98));

    /** A node at {@code watts} for the job's whole window, read once a second. */
    static JobEnergy rebuild(Row r) {
        long submit = 1_700_000_000_000L;
        long done = submit + Math.round(r.totalS() * 1000);
        List<Sample> rows = new ArrayList<>();
        for (long t = submit; t < done; t += 1000) {
            rows.add(Sample.ok("node1", r.nodeType(), r.nodeType().equals("x86") ? "apcupsd" : "scope", "node", t, t + 1000,
                r.meanW(), true, true));
        }
        List<TaskSpan> spans = List.of(TaskSpan.ofMap("node1", submit, done));
        return EnergyCalculator.compute(new JobRecord(r.table(), submit, done, TRANSFORMATIONS, spans), rows, 1000, true);
    }

    @Test
    void theTpwTablesComeOutOfTheirTimesAndPowers() {
        for (Row r : ROWS) {
            JobEnergy e = rebuild(r);
            assertEquals("measured", e.status(), r.table());
            assertEquals(r.publishedTpw(), Math.round(e.tpw() * 100) / 100.0, r.table());
            assertEquals(r.meanW(), e.meanW(), 1e-9, r.table());
            assertEquals(r.totalS(), e.seconds(), 1e-9, r.table());
        }
    }

    @Test
    void theDerivedPowersLieInTheRangesTheThesisMeasured() {
        // Section 6.3: the x86 node draws 100-300 W (peaking near 280 W in figure 9.1), the ARM boards 5-10 W.
        for (Row r : ROWS) {
            if (r.nodeType().equals("x86")) {
                assertTrue(r.meanW() > 100 && r.meanW() < 280, r.table() + ": " + r.meanW());
            } else {
                assertTrue(r.meanW() > 5 && r.meanW() < 10, r.table() + ": " + r.meanW());
            }
        }
    }

    @Test
    void energyAndEd2pOfTheArmFpgaRowAndTheImprovementTheThesisReports() {
        JobEnergy fpga = rebuild(ROWS.get(2));
        // E = 2^28 / TpW = 64217.47 J; ED2P = E * t^2
        assertEquals(64217.47, Math.round(fpga.energyJ() * 100) / 100.0);
        assertEquals(fpga.energyJ() * 10418.6 * 10418.6, fpga.ed2p(), 1e-3);
        JobEnergy first = rebuild(ROWS.get(5));
        // section 12.3: "an improvement of more than factor three"
        assertEquals(3.20, Math.round(fpga.tpw() / first.tpw() * 100) / 100.0);
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
