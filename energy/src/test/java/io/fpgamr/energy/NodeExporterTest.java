package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.energy.exporter.NodeExporter;
import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.source.Discovery;
import io.fpgamr.energy.source.SysfsTree;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeExporterTest {
    @TempDir
    Path tmp;

    static String get(URI uri) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), uri.toString());
        return r.body();
    }

    /** The sample lines of the exposition (no comments), as a set, values included. */
    static Set<String> lines(String metrics, String prefix) {
        Set<String> out = new TreeSet<>();
        for (String l : metrics.lines().toList()) {
            if (l.startsWith(prefix)) {
                out.add(l);
            }
        }
        return out;
    }

    @Test
    void exportsPowerEnergyAndTheRunningJobsOfTheSpool() throws Exception {
        // an ARM-FPGA board with an INA226 on its supply (4.875 W), and a declared 6 W beside it
        SysfsTree tree = new SysfsTree(tmp);
        Path ina = tree.device("hwmon", "hwmon0", "platform/soc/ffc04000.i2c/i2c-0/0-0040/hwmon/hwmon0");
        SysfsTree.write(ina.resolve("name"), "ina226");
        SysfsTree.write(ina.resolve("power1_input"), "4875000");
        Path spool = tmp.resolve("spool");
        // the timer's period is an hour so that only this test's ticks read the sources: the gap count
        // below is exact, and a timer tick racing the test would add a failed read of its own
        EnergyConfig cfg = EnergyConfig.fromFlags(List.of("--hwmon-root", tree.classDir("hwmon").toString(), "--sources", "hwmon,declared",
            "--declare-watts", "6", "--node", "fpga1", "--node-type", "arm-fpga", "--bind", "127.0.0.1", "--port", "0",
            "--period-ms", "3600000", "--spool", spool.toString()), EnergyConfig.EXPORTER);
        Discovery.Result found = Discovery.discover(cfg.sources());
        assertEquals(List.of("hwmon", "declared"), found.found().stream().map(s -> s.kind()).toList());

        ProgressSpool ps = new ProgressSpool(spool);
        long now = System.currentTimeMillis();
        ps.write(new JobProgress("job_1_0001", "launcher", "fpga1", 1_000_000, 1L << 24, now - 10_000, now, 2, 0, 0, 3, 1, JobProgress.RUNNING));
        // a task's own file outranks the launcher's on this node
        ps.write(new JobProgress("job_1_0002", "launcher", "fpga1", 999, -1, now - 5_000, now, 9, 9, 9, 9, 9, JobProgress.RUNNING));
        // this map runs on a simulated FPGA: the job's figures here are modelled
        ps.write(new JobProgress("job_1_0002", "attempt_m_000000_0", "fpga1", 4096, -1, now - 5_000, now, 1, 0, 0, 1, 1, JobProgress.RUNNING)
            .withSimulated(true));
        ps.write(new JobProgress("job_1_0002", "attempt_m_000001_0", "fpga1", 8192, -1, now - 5_000, now, 0, 0, 0, 0, 0, JobProgress.SUCCEEDED));
        // a launcher that does not know its values hashed yet (-1): the job is exported without them
        ps.write(new JobProgress("job_1_0003", "launcher", "fpga1", -1, -1, now - 1_000, now, 0, 0, 0, 1, 0, JobProgress.RUNNING));
        // finished long ago: no longer exported
        ps.write(new JobProgress("job_0_0009", "launcher", "fpga1", 5, 5, now - 900_000, now - 600_000, 0, 0, 0, 0, 0, JobProgress.SUCCEEDED));

        try (NodeExporter e = NodeExporter.start(cfg, found)) {
            URI base = URI.create("http://127.0.0.1:" + e.port());
            Thread.sleep(50);
            e.sampler().tick();
            String m = get(base.resolve("/metrics"));
            assertEquals(Set.of(
                "fpgamr_power_watts{domain=\"declared\",measured=\"false\",node=\"fpga1\",node_type=\"arm-fpga\",source=\"declared\"} 6.0",
                "fpgamr_power_watts{domain=\"ina226/power1\",measured=\"true\",node=\"fpga1\",node_type=\"arm-fpga\",source=\"hwmon\"} 4.875"),
                lines(m, "fpgamr_power_watts{"));
            assertEquals(Set.of("fpgamr_node_power_watts{measured=\"true\",node=\"fpga1\",node_type=\"arm-fpga\",source=\"hwmon\"} 4.875"),
                lines(m, "fpgamr_node_power_watts{"));
            assertEquals(Set.of("fpgamr_node_info{measured=\"true\",node=\"fpga1\",node_type=\"arm-fpga\",primary_source=\"hwmon\"} 1"),
                lines(m, "fpgamr_node_info{"));
            assertEquals(Set.of(
                "fpgamr_job_values_hashed_total{job_id=\"job_1_0001\",node=\"fpga1\",node_type=\"arm-fpga\",simulated=\"false\"} 1000000.0",
                "fpgamr_job_values_hashed_total{job_id=\"job_1_0002\",node=\"fpga1\",node_type=\"arm-fpga\",simulated=\"true\"} 12288.0"),
                lines(m, "fpgamr_job_values_hashed_total{"));
            assertEquals(Set.of("fpgamr_job_values{job_id=\"job_1_0001\",node=\"fpga1\",node_type=\"arm-fpga\"} 1.6777216E7"),
                lines(m, "fpgamr_job_values{"));
            assertEquals(Set.of(
                "fpgamr_running_tasks{kind=\"map\",node=\"fpga1\",node_type=\"arm-fpga\"} 3.0",
                "fpgamr_running_tasks{kind=\"reduce\",node=\"fpga1\",node_type=\"arm-fpga\"} 0.0",
                "fpgamr_running_tasks{kind=\"shuffle\",node=\"fpga1\",node_type=\"arm-fpga\"} 0.0"),
                lines(m, "fpgamr_running_tasks{"));
            assertEquals(Set.of("fpgamr_running_containers{node=\"fpga1\",node_type=\"arm-fpga\"} 5.0"), lines(m, "fpgamr_running_containers{"));
            assertEquals(Set.of("fpgamr_fpga_devices_in_use{node=\"fpga1\",node_type=\"arm-fpga\"} 2.0"), lines(m, "fpgamr_fpga_devices_in_use{"));
            assertEquals(Set.of("fpgamr_power_source_up{node=\"fpga1\",node_type=\"arm-fpga\",source=\"declared\"} 1.0",
                "fpgamr_power_source_up{node=\"fpga1\",node_type=\"arm-fpga\",source=\"hwmon\"} 1.0"), lines(m, "fpgamr_power_source_up{"));

            // the job's joules are the samples since its submission, at 4.875 W: the exporter ran < 10 s
            List<String> energy = List.copyOf(lines(m, "fpgamr_job_energy_joules{job_id=\"job_1_0001\""));
            assertEquals(1, energy.size());
            double joules = Double.parseDouble(energy.get(0).substring(energy.get(0).lastIndexOf(' ') + 1));
            List<Sample> rows = Sample.CSV.read(new StringReader(get(base.resolve("/samples?from=0&to=" + Long.MAX_VALUE))), "samples");
            double fromRows = rows.stream().filter(Sample::primary).mapToDouble(s -> s.joulesWithin(now - 10_000, Long.MAX_VALUE)).sum();
            assertTrue(joules > 0 && joules <= fromRows + 1e-9, joules + " vs " + fromRows);
            assertTrue(rows.stream().allMatch(s -> s.node().equals("fpga1") && s.nodeType().equals("arm-fpga")));
            assertTrue(rows.stream().anyMatch(s -> s.source().equals("hwmon") && s.watts() == 4.875 && s.primary()));
            // the TpW of the job whose map ran on a simulated FPGA is labelled so (modelled), the other's not
            assertEquals(List.of("job_1_0001 measured=true simulated=false", "job_1_0002 measured=true simulated=true"),
                lines(m, "fpgamr_job_tpw{").stream().map(l -> l.replaceAll(
                    "fpgamr_job_tpw\\{job_id=\"(\\w+)\",measured=\"(\\w+)\",.*simulated=\"(\\w+)\".*", "$1 measured=$2 simulated=$3")).toList());
            assertEquals(Set.of("fpgamr_job_running{job_id=\"job_1_0001\",node=\"fpga1\",node_type=\"arm-fpga\",simulated=\"false\"} 1.0",
                "fpgamr_job_running{job_id=\"job_1_0002\",node=\"fpga1\",node_type=\"arm-fpga\",simulated=\"true\"} 1.0",
                "fpgamr_job_running{job_id=\"job_1_0003\",node=\"fpga1\",node_type=\"arm-fpga\",simulated=\"false\"} 1.0"),
                lines(m, "fpgamr_job_running{"));

            // a failing read: up goes to 0, the node's power disappears, the gap is counted
            java.nio.file.Files.delete(ina.resolve("power1_input"));
            Thread.sleep(5);
            e.sampler().tick();
            String after = get(base.resolve("/metrics"));
            assertEquals(Set.of("fpgamr_power_source_up{node=\"fpga1\",node_type=\"arm-fpga\",source=\"declared\"} 1.0",
                "fpgamr_power_source_up{node=\"fpga1\",node_type=\"arm-fpga\",source=\"hwmon\"} 0.0"), lines(after, "fpgamr_power_source_up{"));
            assertEquals(Set.of(), lines(after, "fpgamr_node_power_watts{"));
            assertEquals(Set.of("fpgamr_power_gaps_total{node=\"fpga1\",node_type=\"arm-fpga\",source=\"declared\"} 0.0",
                "fpgamr_power_gaps_total{node=\"fpga1\",node_type=\"arm-fpga\",source=\"hwmon\"} 1.0"), lines(after, "fpgamr_power_gaps_total{"));
            assertTrue(get(base.resolve("/")).contains("source hwmon: hwmon power sensors in "));
        }
    }

    @Test
    void aNodeWithoutSourceSaysSoAndExportsNoPower() throws Exception {
        EnergyConfig cfg = EnergyConfig.fromFlags(List.of("--powercap-root", tmp.resolve("no-powercap").toString(), "--hwmon-root",
            tmp.resolve("no-hwmon").toString(), "--dev-root", tmp.resolve("dev").toString(), "--apcupsd", "127.0.0.1:1", "--timeout-ms", "200",
            "--node", "bare", "--node-type", "x86", "--bind", "127.0.0.1", "--port", "0", "--spool", tmp.resolve("spool").toString()),
            EnergyConfig.EXPORTER);
        Discovery.Result found = Discovery.discover(cfg.sources());
        assertTrue(found.none());
        try (NodeExporter e = NodeExporter.start(cfg, found)) {
            String m = get(URI.create("http://127.0.0.1:" + e.port() + "/metrics"));
            assertEquals(Set.of("fpgamr_node_info{measured=\"none\",node=\"bare\",node_type=\"x86\",primary_source=\"none\"} 1"),
                lines(m, "fpgamr_node_info{"));
            assertEquals(Set.of(), lines(m, "fpgamr_node_power_watts{"));
            assertTrue(get(URI.create("http://127.0.0.1:" + e.port() + "/")).contains("no power source"));
        }
    }
}
