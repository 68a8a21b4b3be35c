package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.energy.EnergyConfig;
import io.fpgamr.energy.NodeType;
import io.fpgamr.energy.ProgressSpool;
import io.fpgamr.energy.dashboard.DashboardQueries;
import io.fpgamr.energy.dashboard.PromClient;
import io.fpgamr.energy.exporter.NodeExporter;
import io.fpgamr.energy.prom.PrometheusServer;
import io.fpgamr.energy.source.Discovery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The energy dashboard while the real MD5 job runs: the node exporter samples this machine, a
 * real Prometheus (Debian's, loopback, 2 s scrapes, energy/prometheus/rules.yml) scrapes it, the
 * job (bin/fpgamr search on the local runner) hands its progress to the exporter through the spool
 * ($FPGAMR_ENERGY_SPOOL), and every PromQL expression of energy/grafana/fpgamr-energy.json must be
 * valid and return data before the job ends. A build machine has no power meter, so both the
 * exporter and the job use a declared wattage ($FPGAMR_ENERGY_OPTS), labelled declared throughout.
 */
class EnergyDashboardJobTest {
    private static final int BITS = 27;
    private static final double WATTS = 42.0;

    @TempDir
    Path tmp;

    @Test
    void everyDashboardQueryReturnsDataWhileTheJobRuns() throws Exception {
        String missing = PrometheusServer.missing();
        if (missing != null) {
            fail(missing);
        }
        Path spool = tmp.resolve("spool");
        Files.createDirectories(spool);
        String node = NodeType.hostName();
        List<String> declared = List.of("--sources", "declared", "--declare-watts", Double.toString(WATTS), "--node", node, "--node-type", "x86");
        EnergyConfig exporterConfig = EnergyConfig.fromFlags(Stream.concat(declared.stream(),
            Stream.of("--bind", "127.0.0.1", "--port", "0", "--period-ms", "500", "--spool", spool.toString())).toList(), EnergyConfig.EXPORTER);
        Path rules = Fpgamr.ROOT.resolve("energy/prometheus/rules.yml");
        Path summary = tmp.resolve("summary.json");
        List<String> cmd = List.of(Fpgamr.ROOT.resolve("bin/fpgamr").toString(), "search", "096822475dd517c1089f4b58c7f346ef",
            "--bits", Integer.toString(BITS), "--accel", "java", "--cluster", "local", "--output", tmp.resolve("out").toString(),
            "--summary-json", summary.toString());
        try (NodeExporter exporter = NodeExporter.start(exporterConfig, Discovery.discover(exporterConfig.sources()));
             PrometheusServer prom = PrometheusServer.start(tmp.resolve("prom"), List.of("127.0.0.1:" + exporter.port()), List.of(rules), 300)) {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile())
                .redirectOutput(tmp.resolve("job.out").toFile()).redirectError(tmp.resolve("job.err").toFile());
            pb.environment().remove("HADOOP_CONF_DIR");
            pb.environment().put("FPGAMR_LOG", tmp.resolve("fpgamr.log").toString());
            pb.environment().put(ProgressSpool.ENV, spool.toString());
            pb.environment().put(EnergyConfig.OPTS_ENV, String.join(" ", declared));
            Process job = pb.start();
            PromClient client = prom.client();
            List<DashboardQueries.Query> queries = DashboardQueries.bundled();
            Map<String, PromClient.Result> last = new LinkedHashMap<>();
            boolean progressSeen = false;
            boolean allData = false;
            String scrapes = "";
            try {
                while (job.isAlive() && !allData) {
                    progressSeen |= !new ProgressSpool(spool).readAll().isEmpty();
                    last.clear();
                    for (DashboardQueries.Query q : queries) {
                        last.put("[" + q.panel() + "] " + q.expr(), client.query(q.expr()));
                    }
                    allData = last.values().stream().allMatch(r -> r.ok() && !r.empty());
                    Thread.sleep(500);
                }
                // for the failure message: did Prometheus reach the exporter, and how long did a scrape take
                scrapes = "up " + PromClient.values(client.query("up")).length + " series, "
                    + client.query("max_over_time(up[5m])").series() + ", " + client.query("max_over_time(scrape_duration_seconds[5m])").series();
            } finally {
                if (!job.waitFor(10, TimeUnit.MINUTES)) {
                    job.destroyForcibly();
                }
                exporter.close(); // before Prometheus stops, so that no scrape is cut off
            }
            String err = Files.readString(tmp.resolve("job.err"));
            assertEquals(0, job.exitValue(), err);
            assertTrue(Files.readString(tmp.resolve("job.out")).contains("096822475dd517c1089f4b58c7f346ef:$HEX[00000123]"));
            progressSeen |= !new ProgressSpool(spool).readAll().isEmpty();
            assertTrue(progressSeen, "the job wrote no progress into $FPGAMR_ENERGY_SPOOL (mr-md5's launcher calls EnergyMonitor.progress)");

            List<String> bad = new ArrayList<>();
            last.forEach((q, r) -> {
                if (!r.ok() || r.empty()) {
                    bad.add((r.ok() ? "no data: " : "invalid (" + r.error() + "): ") + q);
                }
            });
            assertTrue(allData && bad.isEmpty(), "while the job ran:\n" + String.join("\n", bad) + "\nscrapes: " + scrapes
                + "\nprometheus:\n" + prom.log() + "\njob:\n" + err);

            JsonNode energy = Fpgamr.summary(summary).get("energy");
            assertTrue(energy != null, "the summary has its energy object");
            assertEquals("declared", energy.get("status").asText());
            // a declared wattage: every energy figure is modelled, and says so
            assertEquals("modelled", energy.get("basis").asText());
            assertEquals(node + ": a declared wattage, not measured", energy.get("modelled").get(0).asText());
            assertEquals(1L << BITS, energy.get("values_hashed").asLong());
            double joules = energy.get("energy_j").asDouble();
            assertEquals(WATTS * energy.get("seconds").asDouble(), joules, 1e-6);
            assertEquals((1L << BITS) / joules, energy.get("tpw").asDouble(), 1e-6);
        }
    }
}
