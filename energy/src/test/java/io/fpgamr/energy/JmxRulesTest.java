package io.fpgamr.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The JMX exporter agent the build copies to energy/target, with energy/jmx/hadoop.yml, in a JVM
 * whose MBeans carry Hadoop's daemon naming: the metric names and labels the rules promise.
 */
class JmxRulesTest {
    @Test
    void hadoopBeansBecomeHadoopMetrics() throws Exception {
        Path base = DashboardPrometheusTest.energyDir();
        Path agent = base.resolve("target/jmx_prometheus_javaagent.jar");
        assertTrue(Files.isRegularFile(agent), "the build copies the agent to " + agent);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-javaagent:" + agent + "=127.0.0.1:" + port + ":" + base.resolve("jmx/hadoop.yml"),
            "-cp", base.resolve("target/test-classes").toString(), HadoopNamedBeans.class.getName(), "60")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String metrics = null;
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
            long end = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < end && p.isAlive()) {
                try {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200 && r.body().contains("hadoop_namenode_filestotal")) {
                        metrics = r.body();
                        break;
                    }
                } catch (IOException e) {
                    // not listening yet
                }
                Thread.sleep(200);
            }
            assertTrue(metrics != null, "the agent served no Hadoop metrics");
            Set<String> lines = new TreeSet<>();
            for (String l : metrics.lines().toList()) {
                if (l.startsWith("hadoop_")) {
                    lines.add(l);
                }
            }
            assertEquals(new TreeSet<>(List.of(
                "hadoop_datanode_blockswritten{source=\"DataNodeActivity\"} 8.0",
                "hadoop_datanode_byteswritten{source=\"DataNodeActivity\"} 1048576.0",
                "hadoop_namenode_capacityused{source=\"FSNamesystem\"} 1.23456789E8",
                "hadoop_namenode_filestotal{source=\"FSNamesystem\"} 42.0",
                "hadoop_nodemanager_allocatedcontainers 3.0",
                "hadoop_nodemanager_allocatedgb 6.0",
                "hadoop_nodemanager_availablegb 2.0",
                "hadoop_nodemanager_containerslaunched 12.0",
                "hadoop_nodemanager_containersrunning 3.0",
                "hadoop_resourcemanager_numactivenms{source=\"ClusterMetrics\"} 1.0",
                "hadoop_resourcemanager_queue_allocatedcontainers{queue=\"root\"} 4.0",
                "hadoop_resourcemanager_queue_appsrunning{queue=\"root\"} 1.0",
                "hadoop_resourcemanager_queue_appsrunning{queue=\"root.default\"} 1.0",
                "hadoop_resourcemanager_queue_user_appsrunning{queue=\"root.default\",user=\"alice\"} 1.0")), lines);
        } finally {
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
