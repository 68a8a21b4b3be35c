package io.fpgamr.md5.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fpgamr.md5.cli.WorkCounts.Written;
import io.fpgamr.md5.job.Domain;
import io.fpgamr.md5.job.Md5Job;
import org.junit.jupiter.api.Test;

/** The job's own accounting: what makes a finished job a failed one. */
class WorkCountsTest {
    private static final Domain D20 = new Domain(20);
    private static final long N = 1L << 20;
    private static final int MAPS = 4;
    private static final int REDUCERS = 3;
    /** What 4 maps and 3 reducers write for 2^20 exact bench records: 23 bytes each, 6 per segment. */
    private static final long FILES = 23 * N + MAPS * REDUCERS * 6;
    private static final Written EXACT = new Written(FILES, FILES, MAPS, REDUCERS, true);

    private static WorkCounts search(long hashed, long rejected, long found) {
        return new WorkCounts(hashed, rejected, found, 0, 0, Written.NONE, 0, 0);
    }

    private static WorkCounts bench(long mapRecords, long reduceRecords, long bytes, Written written, long keysChecked, long keysWrong) {
        return new WorkCounts(N, 0, mapRecords, reduceRecords, bytes, written, keysChecked, keysWrong);
    }

    @Test
    void everyValueHashedOnceChecksOut() {
        assertNull(search(N, 0, 2).problems(Md5Job.Mode.SEARCH, D20));
        assertNull(bench(N, N, 21 * N, EXACT, 256, 0).problems(Md5Job.Mode.BENCH, D20));
    }

    @Test
    void aDroppedBatchIsNamed() {
        assertEquals("the engines hashed 1048064 values, but the domain 2^20 holds 1048576",
            search(N - 512, 0, 0).problems(Md5Job.Mode.SEARCH, D20));
    }

    @Test
    void aRejectedPreimageIsNamed() {
        assertEquals("1 preimage(s) failed the host's re-check (their MD5 is not a target)",
            search(N, 1, 1).problems(Md5Job.Mode.SEARCH, D20));
    }

    @Test
    void benchChecksTheShuffleAndTheThesisLayout() {
        assertEquals("the shuffle carried 1048576 map output records and 1048575 reduce input records, not 1048576 each",
            bench(N, N - 1, 21 * N, EXACT, 256, 0).problems(Md5Job.Mode.BENCH, D20));
        assertEquals("the map output is 23068672 bytes for 1048576 records, not 21 bytes each (the thesis's layout: 1 + 4 + 16)",
            bench(N, N, 22 * N, EXACT, 256, 0).problems(Md5Job.Mode.BENCH, D20));
        assertEquals(1 + 5 + 16, WorkCounts.benchRecordBytes(new Domain(40)));
    }

    @Test
    void benchChecksTheBytesTheMapsWroteAndTheReducesFetched() {
        // one record a byte short in the files, the counted bytes as configured: the files tell
        Written shortRecord = new Written(FILES - 1, FILES - 1, MAPS, REDUCERS, true);
        assertEquals("the maps wrote 24117247 bytes of records (24117319 file bytes less the framing of 4 maps x 3 reducers), "
            + "23.000 per record, not 21 + 2 framing", bench(N, N, 21 * N, shortRecord, 256, 0).problems(Md5Job.Mode.BENCH, D20));
        assertEquals("the reduces fetched 24117319 bytes of map output, the maps wrote 24117320",
            bench(N, N, 21 * N, new Written(FILES, FILES - 1, MAPS, REDUCERS, true), 256, 0).problems(Md5Job.Mode.BENCH, D20));
        // a codec's files say nothing of the records' bytes: that check is not made, the others are
        assertNull(bench(N, N, 21 * N, new Written(FILES / 3, FILES / 3, MAPS, REDUCERS, false), 256, 0).problems(Md5Job.Mode.BENCH, D20));
    }

    @Test
    void benchChecksEachKeysValues() {
        assertEquals("the reduces checked 256 of 256 key bytes, 1 of them not carrying exactly the domain's values (a value missing or "
            + "there twice; the reduce log names the key)", bench(N, N, 21 * N, EXACT, 256, 1).problems(Md5Job.Mode.BENCH, D20));
        assertEquals("the reduces checked 255 of 256 key bytes", bench(N, N, 21 * N, EXACT, 255, 0).problems(Md5Job.Mode.BENCH, D20));
    }
}
