package io.fpgamr.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fpgamr.it.StandingCluster.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests on one {@link StandingCluster} started for the class: a CPU node and an FPGA node with
 * {@value #DEVICES} simulated devices, whose health is checked every 200 ms and which come back
 * {@value #RECOVERY_MS} ms after they failed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OnStandingCluster {
    static final int DEVICES = 2;
    static final long RECOVERY_MS = 6000;

    @TempDir
    static Path tmp;

    StandingCluster cluster;
    String fpgaNode;

    @BeforeAll
    void startCluster() throws Exception {
        cluster = StandingCluster.start(Files.createDirectories(tmp.resolve("cluster")), DEVICES,
            Map.of("fpgamr.fpga.health.interval-ms", "200", "fpgamr.fpga.health.recovery-ms", Long.toString(RECOVERY_MS)));
        fpgaNode = cluster.fpgaNode();
        assertEquals(Map.of(fpgaNode, (long) DEVICES), Map.of(fpgaNode, cluster.fpgasByNode().get(fpgaNode)));
        assertEquals(2, cluster.fpgasByNode().size(), "a CPU node and an FPGA node");
    }

    @AfterAll
    void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    Run search(String name, int bits, String... options) throws Exception {
        return cluster.search(tmp, name, bits, options);
    }

    /** {@link #search} in another thread, for a test that acts on the cluster while the job runs. */
    CompletableFuture<Run> searchInBackground(String name, int bits, String... options) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return search(name, bits, options);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
