package io.fpgamr.md5.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.md5.job.JobKeys;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claims of a job's maps over a real claim log on the local file system (the local runner's):
 * every unit of the pool is handed to exactly one task, whatever the interleaving; a task's units
 * are hashed again by its next attempt when one dies, and by both of two attempts running at once;
 * claims follow the maps' speeds; a slow map waits rather than take a unit it would finish last.
 */
class WorkStreamTest {
    private static final long UNIT = JobKeys.BATCH;

    @TempDir
    Path dir;

    private ClaimLog log(String owner) throws Exception {
        return ClaimLog.open(new Configuration(), new org.apache.hadoop.fs.Path(dir.toUri()), owner);
    }

    /** A plan of {@code units} units over {@code maps} maps, every map given {@code speed} values/s. */
    private static WorkPlan plan(long units, int maps, double speed) {
        return new WorkPlan(units * UNIT, maps, Map.of(), speed * maps);
    }

    /** Every range the stream hands out until it is done, units expanded. */
    private static List<Long> drain(WorkStream s) throws Exception {
        List<Long> units = new ArrayList<>();
        for (WorkStream.Range r; (r = s.next()) != null;) {
            expand(r, units);
        }
        return units;
    }

    /** Adds the units of {@code r} to {@code to}. */
    private static void expand(WorkStream.Range r, List<Long> to) {
        for (long u = r.first(); u < r.first() + r.count(); u++) {
            to.add(u);
        }
    }

    @Test
    void oneMapTakesTheWholePoolInShrinkingClaims() throws Exception {
        WorkPlan plan = plan(100, 1, 1e6);
        AtomicLong now = new AtomicLong(1_000);
        WorkStream s = new WorkStream(log("a0"), plan, 0, 0, 1e6, now::get);
        s.begin(UNIT);
        List<Long> sizes = new ArrayList<>();
        List<Long> units = new ArrayList<>();
        for (WorkStream.Range r; (r = s.next()) != null;) {
            sizes.add(r.count());
            expand(r, units);
            now.addAndGet(1000 * r.count() * UNIT / 1_000_000);
        }
        // the pool is units 1..99 (unit 0 is the map's own), each once, in order
        assertEquals(99, units.size());
        for (int i = 0; i < units.size(); i++) {
            assertEquals(i + 1, units.get(i));
        }
        // guided self-scheduling: half of what is left, then less, down to the smallest claim
        assertEquals(50, sizes.get(0));
        assertEquals(25, sizes.get(1));
        for (int i = 1; i < sizes.size(); i++) {
            assertTrue(sizes.get(i) <= sizes.get(i - 1), "claims shrink: " + sizes);
        }
        assertEquals(1f, s.progress());
    }

    @Test
    void concurrentMapsShareThePoolExactlyOnce() throws Exception {
        int maps = 6;
        WorkPlan plan = plan(4000, maps, 1e8);
        ExecutorService pool = Executors.newFixedThreadPool(maps);
        try {
            List<Future<List<Long>>> got = new ArrayList<>();
            for (int t = 0; t < maps; t++) {
                int task = t;
                got.add(pool.submit(() -> {
                    WorkStream s = new WorkStream(log("attempt_" + task), plan, task, 0, 0, System::currentTimeMillis);
                    return drain(s);
                }));
            }
            long[] seen = new long[4000];
            for (Future<List<Long>> f : got) {
                for (long u : f.get()) {
                    seen[(int) u]++;
                }
            }
            for (int u = 0; u < maps; u++) {
                assertEquals(0, seen[u], "reserved unit " + u + " is its map's own, never claimed");
            }
            for (int u = maps; u < 4000; u++) {
                assertEquals(1, seen[u], "unit " + u);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aKilledAttemptsUnitsAreHashedByItsTasksNextAttempt() throws Exception {
        WorkPlan plan = plan(200, 2, 1e6);
        AtomicLong now = new AtomicLong(1_000);
        // task 1's first attempt claims twice, then dies (its output and counters are discarded)
        WorkStream dead = new WorkStream(log("t1a0"), plan, 1, 0, 1e6, now::get);
        dead.begin(UNIT);
        List<Long> lost = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            expand(dead.next(), lost);
        }
        // task 0 runs to the end; task 1's second attempt hashes what its first claimed, first
        List<Long> task0 = drain(new WorkStream(log("t0a0"), plan, 0, 0, 1e6, now::get));
        WorkStream retry = new WorkStream(log("t1a1"), plan, 1, 1, 1e6, now::get);
        List<Long> task1 = drain(retry);
        assertEquals(lost, task1.subList(0, lost.size()));
        long[] seen = new long[200];
        task0.forEach(u -> seen[(int) (long) u]++);
        task1.forEach(u -> seen[(int) (long) u]++);
        for (int u = 2; u < 200; u++) {
            assertEquals(1, seen[u], "unit " + u);
        }
    }

    /**
     * A map that hashes with {@code perUnitMs} of work per unit (sleeping, as an engine of that
     * speed would be busy) until its stream is done: the units it hashed.
     */
    private static List<Long> hashAt(WorkStream s, long perUnitMs) throws Exception {
        List<Long> units = new ArrayList<>();
        s.begin(UNIT);
        Thread.sleep(perUnitMs);
        for (WorkStream.Range r; (r = s.next()) != null;) {
            expand(r, units);
            Thread.sleep(perUnitMs * r.count());
        }
        return units;
    }

    @Test
    void aKilledFastMapsRetryOnASlowEngineGivesItsTasksUnitsBackToTheFastMaps() throws Exception {
        // 2 maps given 2.6e8 values/s each (1 ms a unit); task 1's first attempt claims a quarter of
        // the pool (half its half share) and is killed before it hashed it
        long units = 1002;
        WorkPlan plan = plan(units, 2, UNIT * 1000.0);
        WorkStream killed = new WorkStream(log("t1a0"), plan, 1, 0, UNIT * 1000.0, System::currentTimeMillis);
        killed.begin(UNIT);
        WorkStream.Range lost = killed.next();
        assertEquals(new WorkStream.Range(2, 250), lost);
        // its retry lands on an engine a hundred times slower (100 ms a unit) while task 0 runs
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<List<Long>> fast = pool.submit(() -> hashAt(new WorkStream(log("t0a0"), plan, 0, 0, UNIT * 1000.0,
                System::currentTimeMillis), 1));
            WorkStream retry = new WorkStream(log("t1a1"), plan, 1, 1, UNIT * 10.0, System::currentTimeMillis);
            retry.earlierAttemptsEnded();
            Future<List<Long>> slow = pool.submit(() -> hashAt(retry, 100));
            long[] seen = new long[(int) units];
            fast.get().forEach(u -> seen[(int) (long) u]++);
            List<Long> retried = slow.get();
            retried.forEach(u -> seen[(int) (long) u]++);
            for (int u = 2; u < units; u++) {
                assertEquals(1, seen[u], "unit " + u + " hashed once by the attempts that commit");
            }
            // the released 250 went to the fast map, not to the retry that gave them back: the retry claims
            // its smallest claim (0.25 s of its work: 3 units) before the fast map's rate is in the log (two
            // of its claims), then only what it can end before the fast map empties the pool; so at most
            // twice its smallest claim, where without the release it hashed all 250 (25 s at its speed)
            long ofTheLost = retried.stream().filter(u -> u >= lost.first() && u < lost.first() + lost.count()).count();
            assertTrue(ofTheLost <= 6, "the slow retry hashed " + ofTheLost + " of the 250 units its task had claimed: " + retried);
        } finally {
            pool.shutdownNow();
        }
        // the log says what happened: the retry released its task's 250 units
        ClaimLog reader = log("reader");
        List<String> releases = new ArrayList<>();
        for (long seq = 0;; seq++) {
            Claim c = reader.read(seq);
            if (c == null) {
                break;
            }
            if (c.releases()) {
                releases.add("t" + c.task() + " a" + c.attempt() + " releases " + c.units());
            }
        }
        assertEquals(List.of("t1 a1 releases 250"), releases);
    }

    @Test
    void unitsARetryReleasesWhenTheOtherMapsHaveEndedItHashesItself() throws Exception {
        WorkPlan plan = plan(20, 2, 1e6);
        AtomicLong now = new AtomicLong(1_000);
        WorkStream killed = new WorkStream(log("t1a0"), plan, 1, 0, 1e6, now::get);
        List<Long> lost = new ArrayList<>();
        expand(killed.next(), lost);
        assertEquals(units(2, 5), lost, "half of a half share of the 18 units of the pool");
        List<Long> task0 = drain(new WorkStream(log("t0a0"), plan, 0, 0, 1e6, now::get));
        assertEquals(units(7, 13), task0);
        WorkStream retry = new WorkStream(log("t1a1"), plan, 1, 1, 1e6, now::get);
        retry.earlierAttemptsEnded();
        assertEquals(lost, drain(retry), "released, nobody else left to take them: the retry claims them again");
        assertEquals(1f, retry.progress());
    }

    @Test
    void twoAttemptsOfATaskEachHashAllOfItsUnits() throws Exception {
        WorkPlan plan = plan(300, 2, 1e6);
        AtomicLong now = new AtomicLong(1_000);
        WorkStream first = new WorkStream(log("t0a0"), plan, 0, 0, 1e6, now::get);
        WorkStream speculative = new WorkStream(log("t0a1"), plan, 0, 1, 1e6, now::get);
        WorkStream other = new WorkStream(log("t1a0"), plan, 1, 0, 1e6, now::get);
        List<Long> a = new ArrayList<>();
        List<Long> b = new ArrayList<>();
        List<Long> c = new ArrayList<>();
        boolean aDone = false;
        boolean bDone = false;
        boolean cDone = false;
        // interleaved, one call each in turn
        while (!(aDone && bDone && cDone)) {
            aDone = aDone || take(first, a);
            bDone = bDone || take(speculative, b);
            cDone = cDone || take(other, c);
        }
        a.sort(null);
        b.sort(null);
        assertEquals(a, b, "both attempts of task 0 hashed exactly task 0's units");
        long[] seen = new long[300];
        a.forEach(u -> seen[(int) (long) u]++);
        c.forEach(u -> seen[(int) (long) u]++);
        for (int u = 2; u < 300; u++) {
            assertEquals(1, seen[u], "unit " + u + " counted once, whichever attempt of task 0 commits");
        }
    }

    /** One call of {@code s}, its units added to {@code to}; true when the stream is done. */
    private static boolean take(WorkStream s, List<Long> to) throws Exception {
        WorkStream.Range r = s.next();
        if (r == null) {
            return true;
        }
        expand(r, to);
        return false;
    }

    @Test
    void aFasterMapClaimsMore() throws Exception {
        // two maps given 3e8 and 1e8 values/s: the first claim is half of each one's share of the pool
        WorkPlan plan = new WorkPlan(10_002 * UNIT, 2, Map.of(), 4e8);
        AtomicLong now = new AtomicLong(1_000);
        WorkStream fast = new WorkStream(log("t0a0"), plan, 0, 0, 3e8, now::get);
        WorkStream slow = new WorkStream(log("t1a0"), plan, 1, 0, 1e8, now::get);
        assertEquals(3750, fast.next().count());
        assertEquals(782, slow.next().count(), "half of a quarter of the 6250 units left, rounded up");
    }

    @Test
    void aSlowMapWaitsWhileTheOthersEmptyThePoolSooner() throws Exception {
        WorkPlan plan = plan(1000, 2, 1e8);
        AtomicLong now = new AtomicLong(10_000);
        ClaimLog shared = log("x");
        // another task finished 100 units in 1 s, by its claims' times: 2.6e7 values/s
        shared.publish(0, new Claim(0, 0, 100, 10_000));
        shared.publish(1, new Claim(0, 0, 50, 11_000));
        // a map of 1e4 values/s needs 26 s for a unit; the others need 848 units / 2.6e7 = 8.5 s
        WorkStream slow = new WorkStream(log("t1a0"), plan, 1, 0, 1e4, now::get);
        slow.readNew();
        now.set(11_500);
        assertEquals(0, slow.claimSize(848 - 0));
        assertEquals(100 * UNIT * 1000.0 / 1000, slow.othersRate(), 1);
        // a map of 1e7 values/s takes a claim the others would take longer for
        WorkStream fast = new WorkStream(log("t2a0"), plan, 2, 0, 1e7, now::get);
        fast.readNew();
        assertTrue(fast.claimSize(848) >= 1);
        // when the others stop claiming (their attempts died), the slow map claims after all
        now.set(11_000 + 60_000);
        assertEquals(1, slow.claimSize(848));
        // a task that closed has ended: its rate does not count, and the slow map claims at once
        shared.publish(2, new Claim(0, 0, 0, 11_600));
        now.set(11_700);
        slow.readNew();
        assertEquals(0, slow.othersRate());
        assertEquals(1, slow.claimSize(848));
    }

    /** Task {@code task}'s attempt {@code attempt}, its output holding {@code holdsUnits} units, run to its end: the units it hashed. */
    private List<Long> runHolding(WorkPlan plan, int task, int attempt, long holdsUnits, AtomicLong now) throws Exception {
        WorkStream s = new WorkStream(log("t" + task + "a" + attempt), plan, task, attempt, 1e6, now::get);
        s.holds(holdsUnits * UNIT);
        s.begin(UNIT);
        return drain(s);
    }

    private static List<Long> units(long first, long count) {
        List<Long> to = new ArrayList<>();
        expand(new WorkStream.Range(first, count), to);
        return to;
    }

    /**
     * A job of 20 units and 4 maps run one after the other (waves of one), each output holding
     * {@code holdsUnits} units: the units task 0 hashed, then its second attempt's (run after it
     * closed), then tasks 1, 2 and 3's.
     */
    private List<List<Long>> inWaves(long holdsUnits) throws Exception {
        WorkPlan plan = plan(20, 4, 1e6);
        AtomicLong now = new AtomicLong(1_000);
        List<List<Long>> hashed = new ArrayList<>();
        hashed.add(runHolding(plan, 0, 0, holdsUnits, now));
        hashed.add(runHolding(plan, 0, 1, holdsUnits, now));
        for (int t = 1; t < 4; t++) {
            hashed.add(runHolding(plan, t, 0, holdsUnits, now));
        }
        return hashed;
    }

    @Test
    void mapsInWavesEachClaimWhatTheirOutputHolds() throws Exception {
        // 4 reserved units and a pool of 16; each map's output holds 5 units, its reserved one and 4
        // claimed, so the pool is shared 4, 4, 4, 4 where claims sized by a quarter share alone would
        // let the first map take all 16; task 0 is closed, so its next attempt hashes what the task
        // claimed and claims nothing more; the last task has no one after it and takes what is left
        assertEquals(List.of(units(4, 4), units(4, 4), units(8, 4), units(12, 4), units(16, 4)), inWaves(5));
        ClaimLog reader = log("reader");
        List<String> entries = new ArrayList<>();
        for (Claim c; (c = reader.read(entries.size())) != null;) {
            entries.add(c.task() + (c.closes() ? " closes" : " claims " + c.units()));
        }
        // half of a quarter share of what is left, cut to the room, then the close; the last task
        // does not close (the pool is empty)
        assertEquals(List.of("0 claims 2", "0 claims 2", "0 closes", "1 claims 2", "1 claims 2", "1 closes", "2 claims 1", "2 claims 1",
            "2 claims 1", "2 claims 1", "2 closes", "3 claims 1", "3 claims 1", "3 claims 1", "3 claims 1"), entries);
    }

    @Test
    void whenTheMapsYetToClaimCannotHoldTheRestAMapClaimsBeyondItsRoom() throws Exception {
        // outputs of 2 units (1 claimed): the 3 maps after the first hold 3 of the 16, so the first
        // claims 13 (and spills) before it closes, and the pool is still emptied, every unit once
        assertEquals(List.of(units(4, 13), units(4, 13), units(17, 1), units(18, 1), units(19, 1)), inWaves(2));
    }

    @Test
    void aMapWhoseSpeedIsNotKnownYetStillClaimsWithinItsRoom() throws Exception {
        // no speed given and the clock still (the local runner's first map, under 50 ms into its
        // work): it claims an even share's half of what is left, a unit at a time, only up to its
        // output's room of 3 claimed units, then closes; the 7 maps yet to claim hold the pool's
        // other 21 (before, such a map claimed on past its room until the pool was empty)
        WorkPlan plan = new WorkPlan(32 * UNIT, 8, Map.of(), 0);
        AtomicLong now = new AtomicLong(1_000);
        WorkStream s = new WorkStream(log("t0a0"), plan, 0, 0, 0, now::get);
        s.holds(4 * UNIT);
        s.begin(UNIT);
        assertEquals(units(8, 3), drain(s));
    }

    @Test
    void withNoSpeedsGivenMapsInWavesEachHoldAnEvenShare() throws Exception {
        // the local runner's plan: no speeds; 32 units, 4 maps run one after the other, each output
        // holding twice an even share (16 units). Each map takes an even share, its reserved unit and
        // 7 claimed, where the room alone let the first two take 15 and 13 and the last two only
        // their reserved units
        WorkPlan plan = new WorkPlan(32 * UNIT, 4, Map.of(), 0);
        AtomicLong now = new AtomicLong(1_000);
        List<List<Long>> hashed = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            hashed.add(runHolding(plan, t, 0, 16, now));
        }
        assertEquals(List.of(units(4, 7), units(11, 7), units(18, 7), units(25, 7)), hashed);
        ClaimLog reader = log("reader");
        List<String> entries = new ArrayList<>();
        for (Claim c; (c = reader.read(entries.size())) != null;) {
            entries.add(c.task() + (c.closes() ? " closes" : " claims " + c.units()));
        }
        // a share in one claim while later maps can take the rest; the last map's guided claims
        assertEquals(List.of("0 claims 7", "0 closes", "1 claims 7", "1 closes", "2 claims 7", "2 closes", "3 claims 1", "3 claims 1",
            "3 claims 1", "3 claims 1", "3 claims 1", "3 claims 1", "3 claims 1"), entries);
    }

    @Test
    void withNoSpeedsGivenAMapLeavesTheMapsBesideItTheirShares() throws Exception {
        // the local runner's two maps at once, of 4 maps and 32 units, outputs holding 16: task 1
        // has claimed 2 units of its share so far; task 0, seeing it still running, takes its own
        // even share and no more (counting only the maps yet to claim, it took 12)
        WorkPlan plan = new WorkPlan(32 * UNIT, 4, Map.of(), 0);
        AtomicLong now = new AtomicLong(1_000);
        log("t1a0").publish(0, new Claim(1, 0, 2, 1_000));
        WorkStream zero = new WorkStream(log("t0a0"), plan, 0, 0, 1e6, now::get);
        zero.holds(16 * UNIT);
        zero.begin(UNIT);
        assertEquals(units(6, 7), drain(zero));
    }

    @Test
    void aDomainSmallerThanAUnitIsOneReservedUnit() {
        WorkPlan plan = new WorkPlan(1L << 10, 4, Map.of(), 0);
        assertEquals(1, plan.units());
        assertEquals(1, plan.reserved());
        assertEquals(1L << 10, plan.values(0, 1)[1]);
    }

    @Test
    void aStreamWithNothingLeftEnds() throws Exception {
        WorkPlan plan = plan(3, 3, 1e6);
        assertNull(new WorkStream(log("a"), plan, 0, 0, 1e6, System::currentTimeMillis).next());
    }
}
