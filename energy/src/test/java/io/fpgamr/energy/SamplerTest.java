package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.sample.Sampler;
import io.fpgamr.energy.source.DeclaredSource;
import io.fpgamr.energy.source.DomainPower;
import io.fpgamr.energy.source.PowerSource;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SamplerTest {
    /** A source that answers from a script: a number of watts, or a failure. */
    static final class Scripted implements PowerSource {
        final Deque<Object> answers = new ArrayDeque<>();
        final java.util.List<Long> readTimes = new java.util.ArrayList<>();

        @Override
        public String kind() {
            return "hwmon";
        }

        @Override
        public String describe() {
            return "scripted";
        }

        @Override
        public Coverage coverage() {
            return Coverage.NODE;
        }

        @Override
        public List<DomainPower> read(long nowMs) throws IOException {
            readTimes.add(nowMs);
            Object a = answers.isEmpty() ? "script ran out" : answers.poll();
            if (a instanceof Double w) {
                return List.of(new DomainPower("ina226/power1", w));
            }
            throw new IOException((String) a);
        }
    }

    @Test
    void rowsTileTheTimeAndAFailedReadStaysAGap() throws IOException {
        AtomicLong clock = new AtomicLong(1_000);
        Scripted s = new Scripted();
        s.answers.addAll(List.of(9.0, 10.0, "/sys/class/hwmon/hwmon0/power1_input: no such file", 12.0));
        try (Sampler sampler = new Sampler("arm1", "arm", List.of(s, new DeclaredSource(8)), 1000, 3_600_000, clock::get)) {
            sampler.prime();
            clock.set(2_000);
            sampler.tick();
            clock.set(3_000);
            sampler.tick();
            clock.set(4_100);
            sampler.tick();
            assertEquals(List.of(1_000L, 2_000L, 3_000L, 4_100L), s.readTimes);
            List<Sample> rows = sampler.rows(0, 10_000);
            assertEquals(List.of(
                Sample.ok("arm1", "arm", "hwmon", "ina226/power1", 1_000, 2_000, 10.0, true, true),
                Sample.ok("arm1", "arm", "declared", "declared", 1_000, 2_000, 8.0, false, false),
                Sample.gap("arm1", "arm", "hwmon", 2_000, 3_000, true, true, "/sys/class/hwmon/hwmon0/power1_input: no such file"),
                Sample.ok("arm1", "arm", "declared", "declared", 2_000, 3_000, 8.0, false, false),
                Sample.ok("arm1", "arm", "hwmon", "ina226/power1", 3_000, 4_100, 12.0, true, true),
                Sample.ok("arm1", "arm", "declared", "declared", 3_000, 4_100, 8.0, false, false)), rows);
            assertEquals(2, sampler.rows(2_500, 2_600).size());

            // the CSV keeps the gap as a gap
            StringWriter w = new StringWriter();
            Sample.CSV.write(w, rows);
            assertEquals(rows, Sample.CSV.read(new StringReader(w.toString()), "samples"));
            assertEquals("2000,3000,arm1,arm,hwmon,*,,true,true,/sys/class/hwmon/hwmon0/power1_input: no such file",
                w.toString().lines().toList().get(3));
        }
    }

    @Test
    void aRunningSamplerReadsOncePerPeriodAndTilesTheTime() throws InterruptedException {
        Scripted s = new Scripted();
        for (int i = 0; i < 100; i++) {
            s.answers.add(5.0);
        }
        try (Sampler sampler = new Sampler("arm1", "arm", List.of(s), 50, 3_600_000, System::currentTimeMillis)) {
            sampler.start();
            long t0 = sampler.startMs();
            List<Sample> rows = List.of();
            while (rows.size() < 3) {
                Thread.sleep(60);
                rows = sampler.rows(0, Long.MAX_VALUE);
            }
            long elapsed = System.currentTimeMillis() - t0;
            // never more reads than periods elapsed (a late tick may catch up, never overtake)
            assertTrue(rows.size() <= elapsed / 50 + 1, rows.size() + " rows in " + elapsed + " ms");
            // consecutive rows tile the time from the priming read on, at 5 W each
            long at = t0;
            for (Sample r : rows) {
                assertEquals(at, r.startMs());
                assertTrue(r.endMs() > r.startMs());
                assertEquals(5.0, r.watts());
                at = r.endMs();
            }
        }
    }
}
