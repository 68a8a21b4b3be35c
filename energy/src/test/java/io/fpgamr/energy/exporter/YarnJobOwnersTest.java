package io.fpgamr.energy.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.JobOwners;
import io.fpgamr.energy.JobProgress;
import io.fpgamr.energy.ProgressSpool;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spool's reader bound to YARN through a loopback ResourceManager: a job is held, neither
 * shown nor reported, while the ResourceManager does not answer (said once in the log, asked again
 * only after a pause), and shown once it does; an application whose user has no account on the node is refused; YARN's "no such
 * application" stands a minute before it is asked again. The files are this process's user's.
 */
class YarnJobOwnersTest {
    @TempDir
    Path tmp;

    @Test
    void holdsAJobWhileTheResourceManagerDoesNotAnswerAndShowsItOnceItDoes() throws Exception {
        String me = System.getProperty("user.name");
        List<String> log = new CopyOnWriteArrayList<>();
        AtomicLong clock = new AtomicLong(1_000_000);
        try (ResourceManagerFixture rm = new ResourceManagerFixture().submitted("application_1700000000000_0001", me);
             YarnJobOwners owners = new YarnJobOwners(rm.uri(), log::add, clock::get)) {
            rm.down = true;
            ProgressSpool spool = spool(owners, log);
            long now = System.currentTimeMillis();
            spool.write(new JobProgress("job_1700000000000_0001", "launcher", "n1", 5, 16, now, now, 1, 0, 0, 1, 0, JobProgress.RUNNING));
            until(() -> spool.readAll().isEmpty() && !log.isEmpty(), "asked while down");
            for (int i = 0; i < 20; i++) {
                assertEquals(List.of(), spool.readAll(), "held");
            }
            assertEquals(1, rm.asked("application_1700000000000_0001"), "not asked again within " + YarnJobOwners.RETRY_MS + " ms");
            assertEquals(List.of("ResourceManager " + rm.uri() + " gave no answer about application_1700000000000_0001 (HTTP 503): "
                + "the progress of jobs it has not named yet is held until it answers"), log);
            rm.down = false;
            clock.addAndGet(YarnJobOwners.RETRY_MS);
            until(() -> spool.readAll().size() == 1, "shown once YARN answers");
            assertEquals(2, rm.asked("application_1700000000000_0001"));
            assertEquals("job_1700000000000_0001", spool.readAll().get(0).job());
            assertEquals(List.of(log.get(0), "ResourceManager " + rm.uri() + " answers again"), log);
        }
    }

    @Test
    void refusesAUserWithNoAccountHereAndAsksAgainAboutAnUnknownApplicationAfterAMinute() throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000);
        List<String> log = new CopyOnWriteArrayList<>();
        UserPrincipal me = FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(System.getProperty("user.name"));
        try (ResourceManagerFixture rm = new ResourceManagerFixture().submitted("application_1_0001", "fpgamr-no-such-user");
             YarnJobOwners owners = new YarnJobOwners(rm.uri(), log::add, clock::get)) {
            until(() -> owners.check("job_1_0001", me).kind() != JobOwners.Kind.HELD, "YARN's answer about application_1_0001");
            assertEquals(JobOwners.Verdict.refused("YARN says fpgamr-no-such-user submitted application_1_0001, a user with no account on "
                + "this node"), owners.check("job_1_0001", me));

            until(() -> owners.check("application_1_0002", me).kind() != JobOwners.Kind.HELD, "YARN's answer about application_1_0002");
            assertEquals(JobOwners.Verdict.refused("YARN knows no application application_1_0002"), owners.check("job_1_0002", me));
            clock.addAndGet(YarnJobOwners.REASK_MS - 1);
            owners.check("job_1_0002", me);
            assertEquals(1, rm.asked("application_1_0002"), "not asked again within the minute");
            clock.addAndGet(1);
            rm.submitted("application_1_0002", System.getProperty("user.name"));
            until(() -> owners.check("job_1_0002", me).kind() == JobOwners.Kind.OWNER, "asked again after the minute, and now known");
            assertEquals(2, rm.asked("application_1_0002"));
            assertEquals(List.of(), log);
        }
    }

    private ProgressSpool spool(YarnJobOwners owners, List<String> log) throws Exception {
        return new ProgressSpool(Files.createDirectories(tmp.resolve("spool")), log::add, owners);
    }

    private static void until(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!done.getAsBoolean()) {
            assertTrue(System.currentTimeMillis() < deadline, "timed out waiting: " + what);
            Thread.sleep(20);
        }
    }
}
