package io.fpgamr.energy;

import java.nio.file.attribute.UserPrincipal;

/**
 * Who may publish a job's progress: the spool's reader asks it, for each file it read, whether the
 * file's owner (the uid of the inode it opened) may speak for the job the file names. Anyone in the
 * spool's group can write a file naming any job, so without this one user could make the
 * dashboards show another's job as failed, finished or stalled.
 */
public interface JobOwners {
    /** What the reader does with a file: keep it, leave it out for now, or skip it and say why. */
    enum Kind { OWNER, HELD, REFUSED }

    /** The answer for one file; {@code why} says, for a refused one, in a few words without the file's name. */
    record Verdict(Kind kind, String why) {
        public static final Verdict OWNER = new Verdict(Kind.OWNER, "");
        /** Not known yet (the authority has not answered): not shown and not reported, asked again later. */
        public static final Verdict HELD = new Verdict(Kind.HELD, "");

        public static Verdict refused(String why) {
            return new Verdict(Kind.REFUSED, why);
        }
    }

    /** Never blocks: a reader calls it at every scrape. */
    Verdict check(String job, UserPrincipal fileOwner);

    /** No binding: every file of the spool's group is taken (a spool without a job authority, e.g. one machine). */
    JobOwners ANYONE = (job, owner) -> Verdict.OWNER;
}
