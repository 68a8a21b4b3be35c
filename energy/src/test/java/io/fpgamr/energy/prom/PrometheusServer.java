package io.fpgamr.energy.prom;

import io.fpgamr.energy.dashboard.PromClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (Debian's /usr/bin/prometheus) for tests: listens on a free loopback
 * port, keeps its storage in the given folder, scrapes the targets every two seconds and evaluates the
 * rule files every second. Its run is bounded twice: {@code timeout} ends it after
 * {@code maxRunSeconds} whatever happens to the test JVM, and {@link #close()} kills it.
 */
public final class PrometheusServer implements AutoCloseable {
    public static final Path BINARY = Path.of("/usr/bin/prometheus");
    public static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    private final Process process;
    private final int port;
    private final Path log;

    private PrometheusServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Why a real Prometheus cannot run here, or null when it can. */
    public static String missing() {
        return Files.isExecutable(BINARY) ? null
            : BINARY + " is not installed: run `make deps` (Debian package prometheus, listed in energy/apt-packages.txt)";
    }

    public static PrometheusServer start(Path dir, List<String> targets, List<Path> ruleFiles, int maxRunSeconds) throws IOException {
        int port = freePort();
        StringBuilder cfg = new StringBuilder();
        // a scrape may take its whole interval: on a loaded build machine a tight timeout fails scrapes, and
        // each failed scrape marks every series stale until the next one succeeds
        cfg.append("global:\n  scrape_interval: 2s\n  scrape_timeout: 2s\n  evaluation_interval: 1s\n");
        if (!ruleFiles.isEmpty()) {
            cfg.append("rule_files:\n");
            for (Path r : ruleFiles) {
                cfg.append("  - '").append(r.toAbsolutePath()).append("'\n");
            }
        }
        cfg.append("scrape_configs:\n  - job_name: fpgamr-energy\n    static_configs:\n      - targets: [");
        for (int i = 0; i < targets.size(); i++) {
            cfg.append(i > 0 ? ", " : "").append('\'').append(targets.get(i)).append('\'');
        }
        cfg.append("]\n");
        Files.createDirectories(dir);
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, cfg.toString());
        Path log = dir.resolve("prometheus.log");
        List<String> cmd = new ArrayList<>(List.of("timeout", "--signal=TERM", "--kill-after=5", Integer.toString(maxRunSeconds),
            BINARY.toString(), "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
            "--web.listen-address=127.0.0.1:" + port, "--storage.tsdb.retention.time=1h", "--log.level=info"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PrometheusServer s = new PrometheusServer(p, port, log);
        s.awaitReady(Duration.ofSeconds(30));
        return s;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void awaitReady(Duration max) throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long end = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < end) {
            if (!process.isAlive()) {
                throw new IOException("prometheus exited with " + process.exitValue() + ": " + log());
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(url().resolve("/-/ready")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        close();
        throw new IOException("prometheus not ready within " + max + ": " + log());
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public PromClient client() {
        return new PromClient(url());
    }

    /** The last lines Prometheus wrote. */
    public String log() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** Runs promtool with the arguments and returns its exit code and output. */
    public static String[] promtool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(PROMTOOL.toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new String[] {Integer.toString(p.exitValue()), out};
    }

    @Override
    public void close() {
        ProcessHandle h = process.toHandle();
        List<ProcessHandle> children = h.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                children.forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.forEach(c -> c.destroyForcibly());
    }
}
