package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.fpgamr.energy.exporter.ResourceManagerFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exporter as a process of its own, bound to YARN ({@code --resourcemanager}, a loopback
 * server answering as the ResourceManager's web services do), with a spool two users wrote: the
 * job's owner (as YARN says: {@code daemon}) its launcher's progress, another user ({@code nobody})
 * a task's file for the same job saying it failed. The owner's progress is shown, exactly as if the
 * forged file were not there; the forged one is skipped in one log line, and so are a job YARN
 * never ran and a local runner's job, which no one can be shown to own. Runs as root (the files are
 * given to the two users with chown).
 */
class ExporterOwnersTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final String APP = "application_1700000000000_0001";

    @TempDir
    Path tmp;

    @Test
    void showsAJobsProgressOnlyFromTheUserYarnSaysSubmittedIt() throws Exception {
        assertEquals("root", System.getProperty("user.name"), "this test gives the spool's files to two users: it needs root");
        UserPrincipalLookupService users = FileSystems.getDefault().getUserPrincipalLookupService();
        UserPrincipal owner = users.lookupPrincipalByName("daemon");
        UserPrincipal other = users.lookupPrincipalByName("nobody");
        Path spool = Files.createDirectories(tmp.resolve("spool"));
        long now = System.currentTimeMillis();
        ProgressSpool ps = new ProgressSpool(spool);
        write(ps, owner, new JobProgress(JOB, "launcher", "n1", 4096, 1 << 16, now - 5_000, now, 1, 0, 0, 2, 0, JobProgress.RUNNING));
        String forged = "attempt_1700000000000_0001_m_000000_0";
        write(ps, other, new JobProgress(JOB, forged, "n1", 1, 1 << 16, now - 5_000, now, 0, 0, 0, 0, 0, JobProgress.FAILED));
        write(ps, owner, new JobProgress("job_1700000000000_0002", "launcher", "n1", 7, 1 << 16, now, now, 1, 0, 0, 1, 0,
            JobProgress.RUNNING));
        write(ps, owner, new JobProgress("job_local42_0001", "launcher", "n1", 7, 1 << 16, now, now, 1, 0, 0, 1, 0, JobProgress.RUNNING));

        Path log = tmp.resolve("exporter.log");
        try (ResourceManagerFixture rm = new ResourceManagerFixture().submitted(APP, "daemon")) {
            Process exporter = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), EnergyCli.class.getName(), "exporter", "--bind", "127.0.0.1", "--port", "0",
                "--spool", spool.toString(), "--sources", "declared", "--declare-watts", "5", "--node", "n1", "--node-type", "x86",
                "--resourcemanager", rm.uri().toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                URI metrics = URI.create("http://127.0.0.1:" + ExporterSpoolTest.port(exporter, log) + "/metrics");
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
                // The first scrapes hold the jobs while the exporter asks YARN in the background.
                String body = "";
                long deadline = System.currentTimeMillis() + 60_000;
                while (!body.contains("job_id=\"" + JOB + "\"") && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200);
                    body = scrape(http, metrics);
                }
                Thread.sleep(300);
                body = scrape(http, metrics); // read again: nothing more is said
                String labels = "job_id=\"" + JOB + "\",node=\"n1\",node_type=\"x86\"";
                assertEquals(List.of(
                    "fpgamr_job_running{" + labels + ",simulated=\"false\"} 1.0",
                    "fpgamr_job_values_hashed_total{" + labels + ",simulated=\"false\"} 4096.0",
                    "fpgamr_job_values{" + labels + "} 65536.0",
                    "fpgamr_running_containers{node=\"n1\",node_type=\"x86\"} 2.0",
                    "fpgamr_running_tasks{kind=\"map\",node=\"n1\",node_type=\"x86\"} 1.0"),
                    Arrays.stream(body.split("\n")).filter(l -> l.matches("fpgamr_(job_running|job_values|job_values_hashed_total|"
                        + "running_containers|running_tasks)\\{.*") && !l.contains("kind=\"reduce\"") && !l.contains("kind=\"shuffle\""))
                        .sorted().toList(), body);
                assertFalse(body.contains("job_1700000000000_0002"), body);
                assertFalse(body.contains("job_local42_0001"), body);
                List<String> said = Files.readAllLines(log).stream().filter(l -> !l.contains(" on http://127.0.0.1:")).sorted().toList();
                assertEquals(List.of(
                    "fpgamr energy exporter: skipped " + ps.fileOf(JOB, forged) + ": owned by nobody, but YARN says daemon submitted " + APP,
                    "fpgamr energy exporter: skipped " + ps.fileOf("job_1700000000000_0002", "launcher")
                        + ": YARN knows no application application_1700000000000_0002",
                    "fpgamr energy exporter: skipped " + ps.fileOf("job_local42_0001", "launcher")
                        + ": job job_local42_0001 is no YARN application, so it has no owner to check"), said);
                assertEquals(1, rm.asked(APP), "YARN's answer is kept");
            } finally {
                exporter.destroyForcibly().waitFor();
            }
        }
    }

    /** Writes {@code p} into the spool as its writer would, then gives the file to {@code user}. */
    private static void write(ProgressSpool ps, UserPrincipal user, JobProgress p) throws Exception {
        ps.write(p);
        Files.setOwner(ps.fileOf(p.job(), p.writer()), user);
    }

    private static String scrape(HttpClient http, URI metrics) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(60)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        return r.body();
    }
}
