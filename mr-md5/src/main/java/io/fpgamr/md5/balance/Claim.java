package io.fpgamr.md5.balance;

/**
 * One entry of the job's claim log: map task {@code task}'s attempt {@code attempt} took the next
 * {@code units} work units of the pool at {@code atMs} (the wall clock). The units belong to the
 * task, not the attempt: whichever attempt of the task commits has hashed all of them. An entry of
 * no units closes the task: it has hashed what it claimed, and none of its attempts claims again
 * (its output is full; the maps still to start take the rest). An entry that {@code releases}
 * gives the {@code units} the task's earlier attempts claimed back to the pool: its attempt is a
 * retry whose earlier attempts are over (no speculative attempts in the job), and what they hashed
 * went with them, so any map may take those units again, a fast one sooner than the retry.
 */
public record Claim(int task, int attempt, long units, long atMs, boolean releases) {
    public Claim {
        if (task < 0 || attempt < 0 || units < 0 || releases && units == 0) {
            throw new IllegalArgumentException("a claim takes units (or none, to close) or releases some for a task, got task " + task
                + ", attempt " + attempt + ", " + units + " units" + (releases ? " released" : ""));
        }
    }

    /** A claim of {@code units} (none: the task closes). */
    public Claim(int task, int attempt, long units, long atMs) {
        this(task, attempt, units, atMs, false);
    }

    /** Whether this entry closes its task rather than claims. */
    public boolean closes() {
        return units == 0;
    }
}
