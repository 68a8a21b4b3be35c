package io.fpgamr.md5.cluster;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.SpeedProfile;
import io.fpgamr.accel.fpga.DeviceSpec;
import io.fpgamr.md5.balance.SpeedProfiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Profiling the embedded cluster's node types before its nodes start: the speed profile each node
 * publishes as node attributes, measured once per node type on this machine (an ARM type's in the
 * armhf JVM under emulation, as its maps run).
 */
final class NodeProfiles {
    private static final Logger LOG = LoggerFactory.getLogger(NodeProfiles.class);
    /** How long an ARM node type's profiler (an emulated JVM) may take. */
    static final long ARM_PROFILE_TIMEOUT_S = 180;

    private NodeProfiles() {
    }

    /**
     * The speed profile of each node type of {@code specs}, measured in this JVM (the nodes share
     * this machine): the CPU kernels, and on an FPGA node also its simulated device with the
     * design the cluster's maps load by default. A node type whose engines do not open here (no
     * simulated model built) gets only what does. An ARM node's profile is measured by the profiler
     * in the armhf JVM under emulation ({@code fpgamr rate --profile}), as the node's own maps run:
     * it says it is emulated. An ARM-FPGA node's is measured there too, with its simulated device
     * (the armhf driver running the armhf model, as its maps do); one emulated run serves both ARM
     * types (the ARM node's is its CPU part).
     */
    static Map<String, SpeedProfile> measure(List<NodeSpec> specs, ArmhfRoot armhf, Path work) {
        SpeedProfiler profiler = new SpeedProfiler(SpeedProfiler.DEFAULT_SECONDS);
        Map<String, SpeedProfile> byType = new HashMap<>();
        SpeedProfile cpu = profiler.profile(List.of(EngineSpec.cpu()), Map.of());
        byType.put(NodeSpec.X86, cpu);
        if (specs.stream().anyMatch(n -> n.type().equals(NodeSpec.FPGA))) {
            SpeedProfile fpga = cpu;
            try {
                DeviceSpec device = DeviceSpec.parse("vsim:pipelines=" + FpgaRequest.embeddedDesignPipelines());
                for (SpeedProfile.Speed s : profiler.profile(List.of(EngineSpec.fpga(device)), Map.of()).speeds()) {
                    fpga = fpga.with(s);
                }
            } catch (IllegalArgumentException e) {
                LOG.warn("the FPGA node's simulated device was not profiled: {}", e.getMessage());
            }
            byType.put(NodeSpec.FPGA, fpga);
        }
        boolean armFpga = specs.stream().anyMatch(n -> n.type().equals(NodeSpec.ARM_FPGA));
        if (specs.stream().anyMatch(NodeSpec::arm)) {
            SpeedProfile arm;
            try {
                arm = profileEmulated(armhf, work.resolve("profile-arm"), armFpga ? List.of("--accel", "fpga:vsim:pipelines="
                    + FpgaRequest.embeddedDesignPipelines()) : List.of());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(new IOException("the ARM node's emulated JVM: " + e.getMessage(), e));
            }
            if (armFpga) {
                byType.put(NodeSpec.ARM_FPGA, arm);
            }
            byType.put(NodeSpec.ARM, new SpeedProfile(arm.node(), arm.speeds().stream().filter(s -> !s.kind().equals("fpga")).toList()));
        }
        return byType;
    }

    /**
     * The profile {@code fpgamr rate --profile} measures in the armhf JVM under QEMU, in {@code dir} (on tmpfs),
     * of the CPU and the FPGAs {@code accel} names ({@code --accel fpga:...}).
     */
    private static SpeedProfile profileEmulated(ArmhfRoot armhf, Path dir, List<String> accel) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(EmbeddedCluster.PROFILE_FILE);
        Path log = dir.resolve("profile.log");
        List<String> cmd = new ArrayList<>(List.of(armhf.javaHome().resolve("bin/java").toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + dir, "-cp", System.getProperty("java.class.path"), "io.fpgamr.md5.cli.Main", "rate",
            "--profile", file.toString()));
        cmd.addAll(accel);
        ProcessBuilder pb = new ProcessBuilder(cmd)
            .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(armhf.containerEnv());
        Process p = pb.start();
        try {
            if (!p.waitFor(ARM_PROFILE_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("its profiler did not finish within " + ARM_PROFILE_TIMEOUT_S + " s (" + log + ")");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while profiling", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException("its profiler exited with " + p.exitValue() + ": " + Files.readString(log).strip().lines().reduce((a, b) -> b)
                .orElse(""));
        }
        SpeedProfile profile = SpeedProfile.read(file);
        if (!profile.emulated()) {
            throw new IOException("its profile, measured under QEMU, does not say it is emulated: " + file);
        }
        return profile;
    }
}
