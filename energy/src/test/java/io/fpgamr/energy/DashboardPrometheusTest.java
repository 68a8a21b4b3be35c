package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus scrapes the node exporter every two seconds, with energy/prometheus/rules.yml
 * loaded, while a job reports its progress through the spool as the launcher does; then every
 * PromQL expression of the Grafana dashboard must be valid and return data. The job here is the
 * launcher's side alone (its progress calls): the MD5 job itself is run in the cross-module test.
 */
class DashboardPrometheusTest {
    @TempDir
    Path tmp;

    static Path energyDir() {
        return Path.of(System.getProperty("energy.basedir", "."));
    }

    @Test
    void everyDashboardQueryReturnsDataWhileAJobRuns() throws Exception {
        String missing = PrometheusServer.missing();
        if (missing != null) {
            fail(missing);
        }
        Path rules = energyDir().resolve("prometheus/rules.yml");
        String[] check = PrometheusServer.promtool("check", "rules", rules.toString());
        assertEquals("0", check[0], check[1]);
        // the shipped dashboard is the one bundled into the jar
        assertEquals(DashboardQueries.of(Files.readString(energyDir().resolve("grafana/fpgamr-energy.json"))), DashboardQueries.bundled());

        Path spool = tmp.resolve("spool");
        // No meter on a build machine: a declared wattage, labelled so all the way through.
        List<String> node = List.of("--sources", "declared", "--declare-watts", "42", "--node", "it-node", "--node-type", "x86",
            "--period-ms", "250", "--spool", spool.toString());
        EnergyConfig exporterCfg = EnergyConfig.fromFlags(Stream.concat(node.stream(), Stream.of("--bind", "127.0.0.1", "--port", "0")).toList(),
            EnergyConfig.EXPORTER);
        EnergyConfig cfg = EnergyConfig.fromOptions(node);
        try (NodeExporter exporter = NodeExporter.start(exporterCfg, Discovery.discover(exporterCfg.sources()));
             EnergyMonitor monitor = EnergyMonitor.start(cfg);
             PrometheusServer prom = PrometheusServer.start(tmp.resolve("prom"), List.of("127.0.0.1:" + exporter.port()), List.of(rules), 120)) {
            long submit = System.currentTimeMillis();
            String job = "job_" + submit + "_0001";
            PromClient client = prom.client();
            List<DashboardQueries.Query> queries = DashboardQueries.bundled();
            Map<String, PromClient.Result> results = new LinkedHashMap<>();
            long hashed = 0;
            long deadline = System.currentTimeMillis() + 45_000;
            while (true) {
                // the launcher's poll: 2^20 values per second over 4 maps in 4 containers, one (simulated) FPGA
                hashed = (System.currentTimeMillis() - submit) * 1048576 / 1000;
                new ProgressSpool(spool).write(JobProgress.launcher(job, "it-node", hashed, 1L << 28, submit, 4, 0, 0, 4, 1).withSimulated(true));
                results.clear();
                for (DashboardQueries.Query q : queries) {
                    results.put(q.panel() + " " + q.refId() + ": " + q.expr(), client.query(q.expr()));
                }
                boolean invalid = results.values().stream().anyMatch(r -> !r.ok());
                boolean empty = results.values().stream().anyMatch(PromClient.Result::empty);
                if (invalid || !empty || System.currentTimeMillis() > deadline) {
                    break;
                }
                Thread.sleep(500);
            }
            List<String> bad = new ArrayList<>();
            results.forEach((q, r) -> {
                if (!r.ok() || r.empty()) {
                    bad.add((r.ok() ? "no data: " : "invalid (" + r.error() + "): ") + q);
                }
            });
            assertTrue(bad.isEmpty(), String.join("\n", bad) + "\nprometheus log:\n" + prom.log());
            assertEquals(16, queries.size());

            // what the panels show: the declared 42 W, labelled as declared
            PromClient.Result power = client.query("fpgamr_node_power_watts");
            assertEquals(1, power.series().size());
            assertEquals(42.0, PromClient.values(power)[0]);
            assertEquals(List.of("false"), PromClient.label(power, "measured"));
            assertEquals(42.0, PromClient.values(client.query("fpgamr:cluster_power_watts"))[0]);
            assertEquals(4.0, PromClient.values(client.query("sum(fpgamr_running_containers)"))[0]);
            assertEquals(1.0, PromClient.values(client.query("sum(fpgamr_fpga_devices_in_use)"))[0]);
            // TpW of the job: its values hashed over 42 W times the seconds since submission
            PromClient.Result jobTpw = client.query("fpgamr:job_tpw");
            // modelled twice over, and labelled so: a declared wattage, maps on a simulated FPGA
            assertEquals(List.of("false"), PromClient.label(jobTpw, "measured"));
            assertEquals(List.of("true"), PromClient.label(jobTpw, "simulated"));
            double tpw = PromClient.values(jobTpw)[0];
            double seconds = (System.currentTimeMillis() - submit) / 1000.0;
            assertTrue(tpw > 1048576 / 42.0 * 0.7 && tpw < 1048576 / 42.0 * 1.3, "TpW " + tpw + " after " + seconds + " s");

            // the command a user runs to see the same
            Cli c = Cli.run("check-dashboard", "--prometheus", prom.url().toString());
            assertEquals(0, c.code, c.out + c.err);
            assertEquals("16 of 16 dashboard queries return data", c.out.lines().reduce((a, b) -> b).orElse(""));

            long done = System.currentTimeMillis();
            TaskSpan simulatedMap = new TaskSpan("m_000000", TaskSpan.MAP, "it-node", "fpga", true, submit, submit, done);
            JobEnergy e = monitor.finish(new JobRecord(job, submit, done, hashed, List.of(simulatedMap)), tmp.resolve("jobdir"));
            assertEquals("declared", e.status());
            assertEquals("modelled", e.basis());
            assertEquals(List.of("it-node: a declared wattage, not measured",
                "the maps ran on a simulated FPGA (a CPU running the device's model), not on the device"), e.modelled());
            assertNull(e.unavailable());
            assertNotNull(e.tpw());
            assertEquals(42.0, e.meanW(), 1e-9);
            exporter.close(); // before Prometheus stops, so that no scrape is cut off
        }
    }

    @Test
    void checkDashboardUsageErrors() {
        Cli none = Cli.run("check-dashboard");
        assertEquals(2, none.code);
        assertEquals("fpgamr energy check-dashboard: needs --prometheus URL (e.g. http://127.0.0.1:9090)\n", none.err);
        Cli bad = Cli.run("check-dashboard", "--prometheus", "localhost:9090");
        assertEquals(2, bad.code);
        assertEquals("fpgamr energy check-dashboard: --prometheus must be a URL such as http://127.0.0.1:9090, got 'localhost:9090'\n", bad.err);
    }
}
