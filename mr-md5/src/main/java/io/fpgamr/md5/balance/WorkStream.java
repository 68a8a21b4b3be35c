package io.fpgamr.md5.balance;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A map attempt's work after its reserved unit: ranges of units it claims from the job's pool
 * while it runs, after the seeds' streaming of work units to unequal nodes (001: a node keeps
 * taking the next unit, sized to its speed, until none is left) with the computing ratio (004) as
 * the share a claim is sized by. The pool is taken front to back through the job's
 * {@link ClaimLog}: entry {@code n} claims the units after entry {@code n - 1}'s, so every task
 * that has read the log agrees on who has what.
 *
 * <p><b>Counted once.</b> Claims belong to the map task, not its attempt. An attempt first hashes
 * what its task's earlier attempts claimed (a killed attempt's work is done again, by its task),
 * then claims more, and before it ends, with the pool empty, hashes every unit its task claimed
 * that it has not (a speculative attempt running beside it claims for the same task). Whichever
 * attempt of a task commits has so hashed exactly its task's units, and its counters are the
 * task's; the others' are discarded by the framework.
 *
 * <p><b>A retry gives its task's units back.</b> When the job runs no speculative maps, a task's
 * later attempt starts only after its earlier ones ended (killed or failed: their output and
 * counters are discarded), so it need not hash its task's claims itself: it releases them to the
 * pool ({@link #earlierAttemptsEnded}), and they are claimed again, released ranges first, by
 * whichever maps ask first. A killed map's retry that lands on a slow engine would otherwise hash
 * at the slow engine's speed what a fast one had claimed (a straggler); released, the fast maps
 * take them while the slow retry waits (below). With speculative maps an earlier attempt may still
 * run and commit, and the units stay with the task (hashed by each of its attempts).
 *
 * <p><b>Claim sizes.</b> A claim takes half of this map's share of what is left (guided
 * self-scheduling: the share is its speed over the sum of the job's maps' speeds), at least one
 * unit and at least {@link #MIN_CLAIM_S} of its own work, so claims shrink as the pool empties and
 * the maps finish together. Its speed is what it measured itself (its values over its time so far)
 * once it has hashed anything, else what the node's profile gave it.
 *
 * <p><b>A slow map waits rather than straggles.</b> A map that would take longer to hash one unit
 * than the other maps need to empty the pool (their rate: what each finished between its first and
 * its latest claim, read from the log) does not claim: it checks the log again after
 * {@link #POLL_MS}, and ends when the pool is empty. If the others stop claiming (their attempts
 * died), it claims after all.
 *
 * <p><b>A map claims what its output holds.</b> A bench map's pairs wait in its collector until
 * the map ends; past the collector's room they spill and are merged again ({@link #holds}). When
 * the maps run in waves (the local runner runs a map per core at a time, a cluster as many as it
 * has slots), claims sized by every map's share would let the first wave take the whole pool and
 * spill. So a map claims no more than its room while the tasks that have not claimed yet (those
 * still to start among them) can hold the rest, each as much as this one; at its room it closes
 * its task with an entry of no units and ends. The task that finds the others cannot hold what is
 * left claims as before (and spills): the pool is always emptied. When the plan gives no speeds (the
 * local runner, whose maps all run on one machine's engine), alike maps earn alike shares: a map
 * takes an even share of the domain in one claim while the maps beside it and those to come can
 * take the rest at theirs, and the last wave claims what is left as before.
 */
public final class WorkStream {
    /** A claim is at least this much of the claiming map's own time. */
    static final double MIN_CLAIM_S = 0.25;
    /** How often a waiting map reads the log again. */
    static final long POLL_MS = 100;
    /** {@link #claimSize}: close the task instead of claiming. */
    static final long CLOSE = -1;

    /** Units {@code [first, first + count)}. */
    public record Range(long first, long count) {
    }

    private final ClaimLog log;
    private final WorkPlan plan;
    private final int task;
    private final int attempt;
    private double givenSpeed;
    private final LongSupplier clock;

    /** The log as read so far: each entry and the units it took (null for a close or a release). */
    private final List<Claim> entries = new ArrayList<>();
    private final List<Range> ranges = new ArrayList<>();
    /** Entries whose units their task released. */
    private final Set<Integer> released = new HashSet<>();
    /** Released ranges not claimed again yet, in the order they were released: claimed before the pool's front. */
    private final Deque<Range> free = new ArrayDeque<>();
    /** Units taken from the pool's front. */
    private long taken;
    /** Whether this attempt still has to release its task's earlier claims. */
    private boolean toRelease;
    private final Set<Integer> hashed = new HashSet<>();
    /** The other tasks that have an entry in the log. */
    private final Set<Integer> othersSeen = new HashSet<>();
    /** Whether an attempt of this task closed it. */
    private boolean closed;
    /** Values this map's output holds (its collector's room), Long.MAX_VALUE when unbounded. */
    private long holds = Long.MAX_VALUE;
    /** Values handed out so far, and since when: this map's own speed. */
    private long valuesOut;
    private long beganMs = -1;
    /**
     * Time this attempt spent waiting for the others (below), left out of its measured speed: counted
     * in, a waiting map's speed would fall as it waits, and the time after which it stops waiting for
     * others that claim no more (twice its unit's time) would grow as fast as it waits.
     */
    private long waitedMs;
    private long lastOthersClaimMs;

    /**
     * @param givenSpeed the speed the plan gave this map's node and engine, values/s (0: none)
     * @param clock      the wall clock, ms
     */
    public WorkStream(ClaimLog log, WorkPlan plan, int task, int attempt, double givenSpeed, LongSupplier clock) {
        this.log = log;
        this.plan = plan;
        this.task = task;
        this.attempt = attempt;
        this.givenSpeed = givenSpeed;
        this.clock = clock;
    }

    /** The speed the plan gave this map's node and engine, values/s (0: none), once the map knows its engine. */
    public void given(double valuesPerS) {
        givenSpeed = valuesPerS;
    }

    /**
     * This map's output holds {@code values} values before it spills (its collector's room): it
     * claims no more while the tasks yet to claim can hold the rest.
     */
    public void holds(long values) {
        holds = Math.max(0, values);
    }

    /**
     * This attempt is a retry whose task's earlier attempts have ended (the job runs no
     * speculative maps): it releases what they claimed to the pool before it claims.
     */
    public void earlierAttemptsEnded() {
        toRelease = true;
    }

    /** The map began hashing {@code values} values of its own (its reserved unit) now. */
    public void begin(long values) {
        beganMs = clock.getAsLong();
        valuesOut = values;
    }

    /** Units of the pool: those after the reserved ones. */
    private long poolUnits() {
        return plan.units() - plan.reserved();
    }

    /** Units nobody holds: the pool's rest and the released ranges. */
    private long left() {
        long units = poolUnits() - taken;
        for (Range r : free) {
            units += r.count();
        }
        return units;
    }

    /** The next units this attempt hashes, or null when it is done; the ranges handed out before are hashed. */
    public Range next() throws IOException, InterruptedException {
        if (beganMs < 0) {
            begin(0);
        }
        if (toRelease) {
            release();
            toRelease = false;
        }
        while (true) {
            readNew();
            Range owed = owed();
            if (owed != null) {
                return handOut(owed);
            }
            long left = left();
            if (left <= 0 || closed) {
                return null;
            }
            long units = claimSize(left);
            if (units == 0) {
                long t = clock.getAsLong();
                Thread.sleep(POLL_MS);
                waitedMs += clock.getAsLong() - t;
                continue;
            }
            if (units > 0 && !free.isEmpty()) {
                // a claim is one range: a released one is taken up to its end
                units = Math.min(units, free.peekFirst().count());
            }
            int seq = entries.size();
            Claim c = new Claim(task, attempt, Math.max(0, units), clock.getAsLong());
            if (log.publish(seq, c)) {
                add(c);
                hashed.add(seq);
                if (c.closes()) {
                    return null;
                }
                return handOut(ranges.get(seq));
            }
        }
    }

    /** Publishes the release of what this task's earlier attempts claimed, if they claimed anything. */
    private void release() throws IOException {
        while (true) {
            readNew();
            long units = 0;
            for (int i = 0; i < entries.size(); i++) {
                if (entries.get(i).task() == task && ranges.get(i) != null && !released.contains(i)) {
                    units += ranges.get(i).count();
                }
            }
            if (units == 0) {
                return;
            }
            Claim c = new Claim(task, attempt, units, clock.getAsLong(), true);
            if (log.publish(entries.size(), c)) {
                add(c);
                return;
            }
        }
    }

    /** Progress: the pool's share a task holds so far. */
    public float progress() {
        return poolUnits() <= 0 ? 1f : (float) (poolUnits() - left()) / poolUnits();
    }

    private Range handOut(Range r) {
        long[] v = plan.values(r.first(), r.count());
        valuesOut += v[1] - v[0];
        return r;
    }

    /** The first entry of this task not hashed by this attempt (its task's earlier or concurrent attempts claimed it). */
    private Range owed() {
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).task() == task && ranges.get(i) != null && !released.contains(i) && hashed.add(i)) {
                return ranges.get(i);
            }
        }
        return null;
    }

    void readNew() throws IOException {
        for (Claim c; (c = log.read(entries.size())) != null;) {
            add(c);
        }
    }

    private void add(Claim c) {
        int seq = entries.size();
        entries.add(c);
        if (c.releases()) {
            ranges.add(null);
            for (int i = 0; i < seq; i++) {
                if (entries.get(i).task() == c.task() && ranges.get(i) != null && released.add(i)) {
                    free.addLast(ranges.get(i));
                }
            }
            if (c.task() == task) {
                closed = false; // the retry claims again what its task gave back, if nobody faster does
            }
            return;
        }
        if (c.closes()) {
            ranges.add(null);
        } else if (!free.isEmpty()) {
            Range head = free.pollFirst();
            long units = Math.min(c.units(), head.count());
            ranges.add(new Range(head.first(), units));
            if (units < head.count()) {
                free.addFirst(new Range(head.first() + units, head.count() - units));
            }
        } else {
            ranges.add(new Range(plan.reserved() + taken, c.units()));
            taken += c.units();
        }
        if (c.task() != task) {
            lastOthersClaimMs = Math.max(lastOthersClaimMs, c.atMs());
            othersSeen.add(c.task());
        } else if (c.closes()) {
            closed = true;
        }
    }

    /** This map's values/s: measured once it has hashed for a while, else the plan's. */
    double speed() {
        long now = clock.getAsLong();
        long busyMs = now - beganMs - waitedMs;
        if (beganMs >= 0 && busyMs >= 50 && valuesOut > 0) {
            return valuesOut * 1000.0 / busyMs;
        }
        if (givenSpeed > 0) {
            return givenSpeed;
        }
        return plan.total() > 0 ? plan.total() / plan.maps() : 0;
    }

    /** Units to claim now, of {@code left} in the pool; 0 to wait, {@link #CLOSE} to close the task (its output is full). */
    long claimSize(long left) {
        double s = speed();
        if (!(s > 0)) {
            // no speed known yet (none given, under 50 ms of hashing): an even share's half, still
            // within the output's room (a map of the local runner's first wave that claimed here
            // uncapped took 4 units where its collector held 3, and spilled and merged them)
            return withinRoom(Math.max(1, Math.min(left / (2L * plan.maps()), left)), left);
        }
        double unitS = plan.unitValues() / s;
        double share = plan.total() > 0 ? Math.min(1, s / plan.total()) : 1.0 / plan.maps();
        long units = (long) Math.ceil(left * share / 2);
        units = Math.max(units, (long) Math.ceil(MIN_CLAIM_S / unitS));
        double others = othersRate();
        if (others > 0) {
            // what the others need to empty the pool without this map
            double othersS = left * plan.unitValues() / others;
            long fits = (long) Math.floor(othersS / unitS);
            long now = clock.getAsLong();
            boolean othersStopped = now - lastOthersClaimMs > Math.max(2000, 2 * unitS * 1000);
            if (fits < 1 && !othersStopped) {
                return 0;
            }
            units = Math.min(units, Math.max(1, fits));
        }
        return withinRoom(Math.max(1, Math.min(units, left)), left);
    }

    /**
     * {@code units}, or fewer when they would not fit in this map's output while the tasks yet to
     * claim can hold the rest of {@code left}; {@link #CLOSE} when this map's output is full. With
     * no speeds given, what takes this map to an even share while the others can take the rest at
     * theirs.
     */
    long withinRoom(long units, long left) {
        if (holds == Long.MAX_VALUE) {
            return units;
        }
        long unit = plan.unitValues();
        long holdsUnits = holds / unit;
        long held = (valuesOut + unit - 1) / unit;
        long yetToClaim = Math.max(0, plan.maps() - 1 - othersSeen.size());
        if (!(plan.total() > 0)) {
            // No speeds given (the local runner, one machine; a cluster none of whose nodes has a
            // figure): the maps are alike as far as the job knows, so each earns an even share.
            // Holding more only makes a map's output (its sort, the heap it holds) larger than the
            // later maps': the first wave took twice an even share each, the last waves their
            // reserved units. The maps running beside this one are owed their shares too. While
            // maps are still to come, the share is one claim (a log entry where a guided schedule
            // made several); the last wave claims as before, so that its maps end together.
            long even = Math.min(holdsUnits, (plan.units() + plan.maps() - 1) / plan.maps());
            long share = Math.min(Math.max(0, even - held), left);
            if (left - share <= runningOthersRoom(even) + yetToClaim * Math.max(0, even - 1)) {
                return share == 0 ? CLOSE : yetToClaim > 0 ? share : Math.min(units, share);
            }
        }
        long room = Math.max(0, holdsUnits - held);
        if (units <= room) {
            return units;
        }
        // each task yet to claim holds as much as this one, less its reserved unit
        if (left - room > yetToClaim * Math.max(0, holdsUnits - 1)) {
            return units; // they cannot hold the rest: claim as before, and spill
        }
        return room == 0 ? CLOSE : room;
    }

    /** The tasks whose latest close no release followed: they hash no more. */
    private Set<Integer> ended() {
        Set<Integer> ended = new HashSet<>();
        for (Claim c : entries) {
            if (c.releases()) {
                ended.remove(c.task()); // its retry claims again
            } else if (c.closes()) {
                ended.add(c.task());
            }
        }
        return ended;
    }

    /** What the other tasks that have claimed and not closed can still take, each up to {@code units} held (its reserved unit one). */
    private long runningOthersRoom(long units) {
        Map<Integer, Long> claimed = new HashMap<>();
        Set<Integer> ended = ended();
        for (int i = 0; i < entries.size(); i++) {
            Claim c = entries.get(i);
            if (c.task() == task) {
                continue;
            }
            Range r = ranges.get(i);
            claimed.merge(c.task(), r == null || released.contains(i) ? 0 : r.count(), Long::sum);
        }
        long room = 0;
        for (Map.Entry<Integer, Long> e : claimed.entrySet()) {
            if (!ended.contains(e.getKey())) {
                room += Math.max(0, units - 1 - e.getValue());
            }
        }
        return room;
    }

    /**
     * The values/s the other tasks finish, from the log: a task claims its next units when it has
     * hashed its last ones, so between its first and its latest claim it finished all but its
     * latest. 0 when no other task has claimed twice. A closed task hashes no more: its rate does
     * not count (maps in waves would otherwise wait for maps that have ended).
     */
    double othersRate() {
        Set<Integer> ended = ended();
        Map<Integer, long[]> byTask = new HashMap<>(); // first ms, latest ms, units before the latest, latest's units
        for (Claim c : entries) {
            if (c.task() == task || ended.contains(c.task()) || c.releases()) {
                continue;
            }
            long[] t = byTask.get(c.task());
            if (t == null) {
                byTask.put(c.task(), new long[] {c.atMs(), c.atMs(), 0, c.units()});
            } else {
                t[2] += t[3];
                t[1] = c.atMs();
                t[3] = c.units();
            }
        }
        double rate = 0;
        for (long[] t : byTask.values()) {
            if (t[1] > t[0]) {
                rate += t[2] * (double) plan.unitValues() * 1000.0 / (t[1] - t[0]);
            }
        }
        return rate;
    }
}
