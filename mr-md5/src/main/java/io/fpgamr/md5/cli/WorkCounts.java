package io.fpgamr.md5.cli;

import io.fpgamr.md5.job.Domain;
import io.fpgamr.md5.job.Md5Counters;
import io.fpgamr.md5.job.Md5Job;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * A job's own accounting, which is checked before its results count: the values its engines hashed
 * (as the engines count them: no engine stops early, so none are skipped), the preimages the host's
 * re-check rejected, and the records and bytes the shuffle carried. Only the task attempts that
 * succeeded count.
 */
record WorkCounts(long valuesHashed, long preimagesRejected, long mapOutputRecords, long reduceInputRecords, long mapOutputBytes) {

    static WorkCounts of(Counters c) {
        return new WorkCounts(c.findCounter(Md5Counters.VALUES_HASHED).getValue(), c.findCounter(Md5Counters.PREIMAGES_REJECTED).getValue(),
            c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(), c.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue(),
            c.findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue());
    }

    /**
     * The bytes of one bench record in the thesis's layout: key = the value's least significant byte,
     * value = message ‖ MD5(message) (1 + 4 + 16 = 21 at 28 bits).
     */
    static long benchRecordBytes(Domain domain) {
        return 1 + domain.width() + 16;
    }

    /** What does not check out, in one line, or null: a job with such a line is a failed job. */
    String problems(Md5Job.Mode mode, Domain domain) {
        long n = domain.size();
        List<String> p = new ArrayList<>();
        if (valuesHashed != n) {
            p.add("the engines hashed " + valuesHashed + " values, but the domain 2^" + domain.bits() + " holds " + n);
        }
        if (preimagesRejected > 0) {
            p.add(preimagesRejected + " preimage(s) failed the host's re-check (their MD5 is not a target)");
        }
        if (mode.shuffles() && (mapOutputRecords != n || reduceInputRecords != n)) {
            p.add("the shuffle carried " + mapOutputRecords + " map output records and " + reduceInputRecords
                + " reduce input records, not " + n + " each");
        }
        if (mode == Md5Job.Mode.BENCH) {
            long each = benchRecordBytes(domain);
            if (mapOutputBytes != mapOutputRecords * each) {
                p.add("the map output is " + mapOutputBytes + " bytes for " + mapOutputRecords + " records, not " + each
                    + " bytes each (the thesis's layout: 1 + " + domain.width() + " + 16)");
            }
        }
        return p.isEmpty() ? null : String.join("; ", p);
    }
}
