package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.exporter.ResourceManagerFixture;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exporter as a process of its own ({@code fpgamr energy exporter}), bound to YARN
 * ({@code --resourcemanager}: a loopback server answering as the ResourceManager's web services
 * do), with a spool others wrote. Beside the job's progress from its owner (as YARN says:
 * {@code daemon}) sit a FIFO, a link to a progress file elsewhere, a file larger than a progress
 * file may be, one whose content is another job's, another user's ({@code nobody}) task file for the
 * same job saying it failed, a job YARN never ran and a local runner's job, which no one can be
 * shown to own. {@code /metrics} answers with the owner's figures exactly, as if none of the others
 * were there, each of which is skipped with one log line; YARN is asked once per application; and
 * SIGTERM stops the exporter while a request is still coming in. Runs as root (the files are given
 * to the two users with chown).
 */
class ExporterSpoolTest {
    private static final String JOB = "job_1700000000000_0001";
    private static final String APP = "application_1700000000000_0001";

    @TempDir
    Path tmp;

    @Test
    void showsOnlyTheOwnersProgressWithAFifoALinkAndForgedFilesInItsSpoolAndStopsOnSigterm() throws Exception {
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
        write(ps, owner, new JobProgress("job_1700000000000_0006", "launcher", "n1", 7, 1 << 16, now, now, 1, 0, 0, 1, 0,
            JobProgress.RUNNING));
        write(ps, owner, new JobProgress("job_local42_0001", "launcher", "n1", 7, 1 << 16, now, now, 1, 0, 0, 1, 0, JobProgress.RUNNING));
        ProgressSpool elsewhere = new ProgressSpool(Files.createDirectories(tmp.resolve("elsewhere")));
        elsewhere.write(new JobProgress("job_2_0002", "launcher", "n1", 1, 1, now, now, 0, 0, 0, 0, 0, JobProgress.RUNNING));
        Files.createSymbolicLink(spool.resolve("job_2_0002~launcher.progress"), elsewhere.fileOf("job_2_0002", "launcher"));
        Process mkfifo = new ProcessBuilder("mkfifo", spool.resolve("job_3_0003~launcher.progress").toString()).start();
        assertEquals(0, mkfifo.waitFor());
        Files.writeString(spool.resolve("job_4_0004~launcher.progress"), " ".repeat(ProgressSpool.MAX_FILE_BYTES + 1));
        Files.copy(ps.fileOf(JOB, "launcher"), spool.resolve("job_5_0005~launcher.progress"));

        Path log = tmp.resolve("exporter.log");
        try (ResourceManagerFixture rm = new ResourceManagerFixture().submitted(APP, "daemon")) {
            Process exporter = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), EnergyCli.class.getName(), "exporter", "--bind", "127.0.0.1", "--port", "0",
                "--spool", spool.toString(), "--sources", "declared", "--declare-watts", "5", "--node", "n1", "--node-type", "x86",
                "--resourcemanager", rm.uri().toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                int port = port(exporter, log);
                URI metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
                // The first scrapes hold the jobs while the exporter asks YARN in the background.
                String body = scrape(http, metrics);
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
                for (String unshown : List.of("job_2_0002", "job_3_0003", "job_4_0004", "job_5_0005", "job_1700000000000_0006",
                    "job_local42_0001")) {
                    assertFalse(body.contains(unshown), unshown + " exported");
                }
                List<String> said = Files.readAllLines(log).stream().filter(l -> !l.contains(" on http://127.0.0.1:")).sorted().toList();
                String skipped = "fpgamr energy exporter: skipped ";
                assertEquals(List.of(
                    skipped + spool.resolve("job_1700000000000_0001~" + forged + ".progress")
                        + ": owned by nobody, but YARN says daemon submitted " + APP,
                    skipped + spool.resolve("job_1700000000000_0006~launcher.progress")
                        + ": YARN knows no application application_1700000000000_0006",
                    skipped + spool.resolve("job_2_0002~launcher.progress") + ": a symbolic link",
                    skipped + spool.resolve("job_3_0003~launcher.progress") + ": not a regular file (a FIFO, socket or device)",
                    skipped + spool.resolve("job_4_0004~launcher.progress") + ": "
                        + (ProgressSpool.MAX_FILE_BYTES + 1) + " bytes, more than " + ProgressSpool.MAX_FILE_BYTES,
                    skipped + spool.resolve("job_5_0005~launcher.progress") + ": its content is job " + JOB
                        + ", writer launcher: not what its name says",
                    skipped + spool.resolve("job_local42_0001~launcher.progress")
                        + ": job job_local42_0001 is no YARN application, so it has no owner to check"), said);
                assertEquals(1, rm.asked(APP), "YARN's answer is kept");

                try (Socket half = new Socket("127.0.0.1", port)) {
                    OutputStream out = half.getOutputStream();
                    out.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII)); // a request still coming in
                    out.flush();
                    exporter.destroy(); // SIGTERM
                    assertTrue(exporter.waitFor(60, TimeUnit.SECONDS), "the exporter stops on SIGTERM");
                }
                assertEquals(143, exporter.exitValue(), "ended by SIGTERM");
            } finally {
                exporter.destroyForcibly();
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

    /** The port the exporter says it serves on, once it says so. */
    private static int port(Process exporter, Path log) throws Exception {
        Pattern p = Pattern.compile("on http://127\\.0\\.0\\.1:(\\d+)/metrics");
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline && exporter.isAlive()) {
            Matcher m = p.matcher(Files.readString(log));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the exporter did not start: " + Files.readString(log));
    }
}
