package io.fpgamr.md5.balance;

/**
 * One entry of the job's claim log: map task {@code task}'s attempt {@code attempt} took the next
 * {@code units} work units of the pool at {@code atMs} (the wall clock). The units belong to the
 * task, not the attempt: whichever attempt of the task commits has hashed all of them. An entry of
 * no units closes the task: it has hashed what it claimed, and none of its attempts claims again
 * (its output is full; the maps still to start take the rest).
 */
public record Claim(int task, int attempt, long units, long atMs) {
    public Claim {
        if (task < 0 || attempt < 0 || units < 0) {
            throw new IllegalArgumentException("a claim takes units (or none, to close) for a task, got task " + task + ", attempt "
                + attempt + ", " + units + " units");
        }
    }

    /** Whether this entry closes its task rather than claims. */
    public boolean closes() {
        return units == 0;
    }
}
