package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fpgamr.energy.source.ScopeTrace;
import io.fpgamr.energy.source.ShuntFormula;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shunt traces whose power and energy are worked out by hand with P = (Us - dU) * dU / R. */
class ScopeTraceTest {
    @TempDir
    Path tmp;

    /**
     * 9.28 V supply (the thesis's MCVEVK), 1 ohm, 4 samples/s for 2 s. First second dU = 0.5 V:
     * P = 8.78 * 0.5 = 4.39 W. Second second dU = 0.7 V: P = 8.58 * 0.7 = 6.006 W. Each second is
     * 4 samples of 0.25 s, so E = 4.39 + 6.006 = 10.396 J over 2 s, a mean of 5.198 W.
     */
    static final String TWO_SECONDS = String.join("\n",
        "time_s,du_v",
        "0.00,0.5", "0.25,0.5", "0.50,0.5", "0.75,0.5",
        "1.00,0.7", "1.25,0.7", "1.50,0.7", "1.75,0.7", "");

    @Test
    void averagesEachSecondThenSumsTheSeconds() throws IOException {
        ScopeTrace t = ScopeTrace.parse(new StringReader(TWO_SECONDS), new ShuntFormula(9.28, 1.0), "trace");
        assertEquals(8, t.samples());
        assertEquals(0.25, t.periodS(), 1e-12);
        assertEquals(2.0, t.durationS(), 1e-12);
        List<ScopeTrace.Second> s = t.perSecond();
        assertEquals(2, s.size());
        assertEquals(4.39, s.get(0).meanWatts(), 1e-12);
        assertEquals(6.006, s.get(1).meanWatts(), 1e-12);
        assertEquals(1.0, s.get(1).coveredS(), 1e-12);
        assertEquals(10.396, t.energyJoules(), 1e-12);
        assertEquals(5.198, t.meanWatts(), 1e-12);
    }

    /**
     * 16.30 V (the thesis's Novena), 1 ohm, semicolons, 10 samples/s for 1.5 s: ten samples of
     * 0.5 V (P = 15.8 * 0.5 = 7.9 W) then five of 0.6 V (P = 15.7 * 0.6 = 9.42 W). The last second
     * is half covered: E = 7.9 * 1 + 9.42 * 0.5 = 12.61 J, mean 12.61 / 1.5 = 8.406666... W.
     */
    @Test
    void aPartSecondCountsForTheTimeItsSamplesCover() throws IOException {
        StringBuilder sb = new StringBuilder("# uni-t export\n");
        for (int i = 0; i < 15; i++) {
            sb.append(String.format(java.util.Locale.ROOT, "%.1f;%s%n", i / 10.0, i < 10 ? "0.5" : "0.6"));
        }
        ScopeTrace t = ScopeTrace.parse(new StringReader(sb.toString()), new ShuntFormula(16.30, 1.0), "novena");
        assertEquals(1.5, t.durationS(), 1e-12);
        assertEquals(0.5, t.perSecond().get(1).coveredS(), 1e-12);
        assertEquals(12.61, t.energyJoules(), 1e-9);
        assertEquals(12.61 / 1.5, t.meanWatts(), 1e-9);
    }

    /** A 0.1 ohm shunt on 5 V: dU = 0.05 V gives P = 4.95 * 0.05 / 0.1 = 2.475 W; tabs, no header. */
    @Test
    void dividesByTheShuntResistance() throws IOException {
        ScopeTrace t = ScopeTrace.parse(new StringReader("0\t0.05\n0.5\t0.05\n"), new ShuntFormula(5.0, 0.1), "t");
        assertEquals(2.475, t.meanWatts(), 1e-12);
        assertEquals(2.475, t.energyJoules(), 1e-12);
    }

    @Test
    void theCommandPrintsMeanPowerAndEnergy() throws IOException {
        Path f = tmp.resolve("mcvevk.csv");
        Files.writeString(f, TWO_SECONDS);
        Cli c = Cli.run("scope", f.toString(), "--supply-volts", "9.28", "--shunt-ohms", "1");
        assertEquals(0, c.code, c.err);
        assertEquals("mean power 5.1980 W\nenergy 10.3960 J\nduration 2.0000 s (8 samples, 4 samples/s)\n", c.out);
        Cli perSecond = Cli.run("scope", f.toString(), "--supply-volts=9.28", "--shunt-ohms=1", "--per-second");
        assertEquals(List.of("second,mean_w,covered_s,samples", "0,4.390000,1.000000,4", "1,6.006000,1.000000,4"),
            perSecond.out.lines().skip(3).toList());
    }

    @Test
    void badTracesAndOptionsAreOneLineUsageErrors() throws IOException {
        Path f = tmp.resolve("bad.csv");
        Files.writeString(f, "t,du\n0,0.5\noops\n");
        Cli bad = Cli.run("scope", f.toString(), "--supply-volts", "9.28", "--shunt-ohms", "1");
        assertEquals(2, bad.code);
        assertEquals("fpgamr energy scope: " + f + ":3: expected 'seconds,volts', got 'oops'\n", bad.err);

        Files.writeString(f, "0,0.5\n0,0.6\n");
        assertEquals("fpgamr energy scope: " + f + ":2: time 0.0 s does not increase\n",
            Cli.run("scope", f.toString(), "--supply-volts", "9.28", "--shunt-ohms", "1").err);
        Files.writeString(f, "0,0.5\n1,9.5\n");
        assertEquals("fpgamr energy scope: " + f + ":2: dU 9.5 V is not below the supply 9.28 V\n",
            Cli.run("scope", f.toString(), "--supply-volts", "9.28", "--shunt-ohms", "1").err);
        Files.writeString(f, "0,0.5\n");
        assertEquals("fpgamr energy scope: " + f + ": needs at least two samples, has 1\n",
            Cli.run("scope", f.toString(), "--supply-volts", "9.28", "--shunt-ohms", "1").err);

        Cli missing = Cli.run("scope", tmp.resolve("absent.csv").toString(), "--supply-volts", "9.28", "--shunt-ohms", "1");
        assertEquals(2, missing.code);
        assertEquals("fpgamr energy scope: " + tmp.resolve("absent.csv") + ": no such file\n", missing.err);
        Cli noVolts = Cli.run("scope", f.toString(), "--shunt-ohms", "1");
        assertEquals(2, noVolts.code);
        assertEquals("fpgamr energy scope: needs --supply-volts V and --shunt-ohms R\n", noVolts.err);
        Cli negative = Cli.run("scope", f.toString(), "--supply-volts", "9.28", "--shunt-ohms", "-1");
        assertEquals(2, negative.code);
        assertEquals("fpgamr energy scope: --shunt-ohms must be a positive number, got '-1'\n", negative.err);
        Cli word = Cli.run("scope", f.toString(), "--supply-volts", "nine", "--shunt-ohms", "1");
        assertEquals("fpgamr energy scope: --supply-volts must be a number, got 'nine'\n", word.err);
        Cli unknown = Cli.run("scope", f.toString(), "--volts", "9");
        assertEquals(2, unknown.code);
        assertEquals("fpgamr energy scope: unknown option --volts (see fpgamr energy --help)\n", unknown.err);
        assertThrows(IllegalArgumentException.class, () -> new ShuntFormula(0, 1));
    }
}
