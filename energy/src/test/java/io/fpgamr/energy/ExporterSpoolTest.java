package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exporter as a process of its own ({@code fpgamr energy exporter}) with a spool others wrote:
 * a FIFO, a link to a progress file elsewhere, a file larger than a progress file may be and one
 * whose content is another job's sit beside a real progress file. {@code /metrics} answers with the
 * real job only, each of the others is skipped with one log line; and SIGTERM stops it while a
 * request is still coming in.
 */
class ExporterSpoolTest {
    @TempDir
    Path tmp;

    @Test
    void answersWithAFifoAndALinkInItsSpoolAndStopsOnSigterm() throws Exception {
        Path spool = Files.createDirectories(tmp.resolve("spool"));
        long now = System.currentTimeMillis();
        ProgressSpool ps = new ProgressSpool(spool);
        ps.write(new JobProgress("job_1_0001", "launcher", "n1", 4096, 1 << 16, now - 5_000, now, 1, 0, 0, 1, 0, JobProgress.RUNNING));
        ProgressSpool elsewhere = new ProgressSpool(Files.createDirectories(tmp.resolve("elsewhere")));
        elsewhere.write(new JobProgress("job_2_0002", "launcher", "n1", 1, 1, now, now, 0, 0, 0, 0, 0, JobProgress.RUNNING));
        Files.createSymbolicLink(spool.resolve("job_2_0002~launcher.progress"), elsewhere.fileOf("job_2_0002", "launcher"));
        Process mkfifo = new ProcessBuilder("mkfifo", spool.resolve("job_3_0003~launcher.progress").toString()).start();
        assertEquals(0, mkfifo.waitFor());
        Files.writeString(spool.resolve("job_4_0004~launcher.progress"), " ".repeat(ProgressSpool.MAX_FILE_BYTES + 1));
        Files.copy(spool.resolve("job_1_0001~launcher.progress"), spool.resolve("job_5_0005~launcher.progress"));

        Path log = tmp.resolve("exporter.log");
        Process exporter = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            System.getProperty("java.class.path"), EnergyCli.class.getName(), "exporter", "--bind", "127.0.0.1", "--port", "0",
            "--spool", spool.toString(), "--sources", "declared", "--declare-watts", "5", "--node", "n1", "--node-type", "x86")
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            int port = port(exporter, log);
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertTrue(r.body().contains("fpgamr_job_running{job_id=\"job_1_0001\""), r.body());
            for (String other : List.of("job_2_0002", "job_3_0003", "job_4_0004", "job_5_0005")) {
                assertFalse(r.body().contains(other), other + " exported");
            }
            List<String> skipped = Files.readAllLines(log).stream().filter(l -> l.contains(" skipped ")).sorted().toList();
            assertEquals(List.of(
                "fpgamr energy exporter: skipped " + spool.resolve("job_2_0002~launcher.progress") + ": a symbolic link",
                "fpgamr energy exporter: skipped " + spool.resolve("job_3_0003~launcher.progress")
                    + ": not a regular file (a FIFO, socket or device)",
                "fpgamr energy exporter: skipped " + spool.resolve("job_4_0004~launcher.progress") + ": "
                    + (ProgressSpool.MAX_FILE_BYTES + 1) + " bytes, more than " + ProgressSpool.MAX_FILE_BYTES,
                "fpgamr energy exporter: skipped " + spool.resolve("job_5_0005~launcher.progress")
                    + ": its content is job job_1_0001, writer launcher: not what its name says"), skipped);

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

    /** The port the exporter says it serves on, once it says so. */
    static int port(Process exporter, Path log) throws Exception {
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
