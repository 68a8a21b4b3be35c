package io.fpgamr.md5.balance;

/**
 * One entry of the job's claim log: map task {@code task}'s attempt {@code attempt} took the next
 * {@code units} work units of the pool at {@code atMs} (the wall clock). The units belong to the
 * task, not the attempt: whichever attempt of the task commits has hashed all of them.
 */
public record Claim(int task, int attempt, long units, long atMs) {
    public Claim {
        if (task < 0 || attempt < 0 || units < 1) {
            throw new IllegalArgumentException("a claim takes at least one unit for a task, got task " + task + ", attempt " + attempt
                + ", " + units + " units");
        }
    }
}
