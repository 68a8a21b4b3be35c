package io.fpgamr.md5.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fpgamr.md5.job.Domain;
import io.fpgamr.md5.job.Md5Job;
import org.junit.jupiter.api.Test;

/** The job's own accounting: what makes a finished job a failed one. */
class WorkCountsTest {
    private static final Domain D20 = new Domain(20);
    private static final long N = 1L << 20;

    @Test
    void everyValueHashedOnceChecksOut() {
        assertNull(new WorkCounts(N, 0, 2, 0, 0).problems(Md5Job.Mode.SEARCH, D20));
        assertNull(new WorkCounts(N, 0, N, N, 21 * N).problems(Md5Job.Mode.BENCH, D20));
    }

    @Test
    void aDroppedBatchIsNamed() {
        assertEquals("the engines hashed 1048064 values, but the domain 2^20 holds 1048576",
            new WorkCounts(N - 512, 0, 0, 0, 0).problems(Md5Job.Mode.SEARCH, D20));
    }

    @Test
    void aRejectedPreimageIsNamed() {
        assertEquals("1 preimage(s) failed the host's re-check (their MD5 is not a target)",
            new WorkCounts(N, 1, 1, 0, 0).problems(Md5Job.Mode.SEARCH, D20));
    }

    @Test
    void benchChecksTheShuffleAndTheThesisLayout() {
        assertEquals("the shuffle carried 1048576 map output records and 1048575 reduce input records, not 1048576 each",
            new WorkCounts(N, 0, N, N - 1, 21 * N).problems(Md5Job.Mode.BENCH, D20));
        assertEquals("the map output is 23068672 bytes for 1048576 records, not 21 bytes each (the thesis's layout: 1 + 4 + 16)",
            new WorkCounts(N, 0, N, N, 22 * N).problems(Md5Job.Mode.BENCH, D20));
        assertEquals(1 + 5 + 16, WorkCounts.benchRecordBytes(new Domain(40)));
    }
}
