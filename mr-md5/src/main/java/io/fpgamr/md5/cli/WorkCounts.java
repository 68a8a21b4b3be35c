package io.fpgamr.md5.cli;

import io.fpgamr.md5.job.Domain;
import io.fpgamr.md5.job.Md5Counters;
import io.fpgamr.md5.job.Md5Job;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.CryptoUtils;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * A job's own accounting, which is checked before its results count: the values its engines hashed
 * (as the engines count them: no engine stops early, so none are skipped), the preimages the host's
 * re-check rejected, the records and bytes the shuffle carried, and in bench mode each key's values.
 * Only the task attempts that succeeded count.
 *
 * <p>The bytes are checked from what was written, not from what was meant: Hadoop counts the map
 * output files' lengths ({@code MAP_OUTPUT_MATERIALIZED_BYTES}, either collector) and the bytes the
 * reduces fetched ({@code REDUCE_SHUFFLE_BYTES}); with plain IFiles (no codec, no encryption, the
 * bench job's default) a file is its records, each framed by two one-byte lengths, and per reducer
 * a 2-byte end marker and a 4-byte checksum, so the bytes per record follow from them exactly.
 */
record WorkCounts(long valuesHashed, long preimagesRejected, long mapOutputRecords, long reduceInputRecords, long mapOutputBytes,
                  Written written, long keysChecked, long keysWrong) {

    /** What the maps wrote and the reduces fetched, and what the framing of those files is. */
    record Written(long materializedBytes, long shuffleBytes, long mapTasks, int reducers, boolean plainIFiles) {
        static final Written NONE = new Written(0, 0, 0, 0, false);
    }

    /** IFile framing of one record (a one-byte key length and a one-byte value length) and of one segment (end marker, checksum). */
    static final int RECORD_FRAMING = 2;
    static final int SEGMENT_FRAMING = 2 + 4;

    static WorkCounts of(Counters c, Configuration job) {
        Written w = new Written(c.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue(),
            c.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(), c.findCounter(Md5Counters.MAP_TASKS).getValue(),
            job.getInt(MRJobConfig.NUM_REDUCES, 1),
            !job.getBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, false) && !CryptoUtils.isEncryptedSpillEnabled(job));
        return new WorkCounts(c.findCounter(Md5Counters.VALUES_HASHED).getValue(), c.findCounter(Md5Counters.PREIMAGES_REJECTED).getValue(),
            c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(), c.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue(),
            c.findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue(), w, c.findCounter(Md5Counters.KEYS_CHECKED).getValue(),
            c.findCounter(Md5Counters.KEYS_WRONG).getValue());
    }

    /**
     * The bytes of one bench record in the thesis's layout: key = the value's least significant byte,
     * value = message ‖ MD5(message) (1 + 4 + 16 = 21 at 28 bits).
     */
    static long benchRecordBytes(Domain domain) {
        return 1 + domain.width() + 16;
    }

    /** The key bytes a bench job's reduces check: one per value below 256. */
    static long benchKeys(Domain domain) {
        return Math.min(256, domain.size());
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
            if (written.plainIFiles()) {
                long framing = written.mapTasks() * written.reducers() * SEGMENT_FRAMING;
                long records = written.materializedBytes() - framing;
                if (records != mapOutputRecords * (each + RECORD_FRAMING)) {
                    p.add(String.format(Locale.ROOT, "the maps wrote %d bytes of records (%d file bytes less the framing of %d maps x %d "
                            + "reducers), %.3f per record, not %d + %d framing", records, written.materializedBytes(), written.mapTasks(),
                        written.reducers(), mapOutputRecords == 0 ? 0.0 : (double) records / mapOutputRecords, each, RECORD_FRAMING));
                }
            }
            if (written.shuffleBytes() != written.materializedBytes()) {
                p.add("the reduces fetched " + written.shuffleBytes() + " bytes of map output, the maps wrote " + written.materializedBytes());
            }
            if (keysChecked != benchKeys(domain) || keysWrong > 0) {
                p.add("the reduces checked " + keysChecked + " of " + benchKeys(domain) + " key bytes" + (keysWrong > 0
                    ? ", " + keysWrong + " of them not carrying exactly the domain's values (a value missing or there twice; the reduce log names the key)"
                    : ""));
            }
        }
        return p.isEmpty() ? null : String.join("; ", p);
    }
}
