package io.fpgamr.md5.cli;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.SpeedProfile;
import io.fpgamr.accel.TargetSet;
import io.fpgamr.accel.fpga.FpgaEngine;
import io.fpgamr.md5.balance.SpeedProfiler;
import io.fpgamr.md5.job.Domain;
import io.fpgamr.md5.job.JobKeys;
import io.fpgamr.md5.run.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code fpgamr rate [--bits N] [--accel SPEC]...}: values/s of the map-side MD5 alone, each engine
 * in this process over the same values, batch by batch as the maps call it. With
 * {@code --profile FILE} it is the node's profiler: a map's speed per engine and mode, written as
 * the node's speed profile ({@link SpeedProfiler}, which the NodeManager publishes).
 */
final class EngineRate {
    /** MD5 of the empty message: no 4..8-byte message hashes to it, so searches scan everything. */
    private static final String EMPTY_MESSAGE_MD5 = "d41d8cd98f00b204e9800998ecf8427e";

    private EngineRate() {
    }

    static final String USAGE = "usage: fpgamr rate [--bits N] [--accel SPEC]... | fpgamr rate --profile FILE [--accel SPEC]... [--seconds S]";

    static int run(String[] args, PrintStream out) throws UsageException {
        int bits = 24;
        List<String> specs = new ArrayList<>();
        Path profile = null;
        double seconds = SpeedProfiler.DEFAULT_SECONDS;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--profile") && i + 1 < args.length) {
                profile = Path.of(args[++i]).toAbsolutePath();
                if (!Files.isDirectory(profile.getParent())) {
                    throw new UsageException("rate: --profile: no such directory: " + profile.getParent());
                }
            } else if (args[i].equals("--seconds") && i + 1 < args.length) {
                try {
                    seconds = Double.parseDouble(args[++i]);
                } catch (NumberFormatException e) {
                    seconds = -1;
                }
                if (!(seconds > 0 && seconds <= 60)) {
                    throw new UsageException("rate: --seconds must be a number in (0, 60], got '" + args[i] + "'");
                }
            } else if (args[i].equals("--bits") && i + 1 < args.length) {
                try {
                    bits = new Domain(Integer.parseInt(args[++i])).bits();
                } catch (IllegalArgumentException e) {
                    throw new UsageException("rate: --bits must be in 1..40, got '" + args[i] + "'");
                }
            } else if (args[i].equals("--accel") && i + 1 < args.length) {
                specs.add(args[++i]);
            } else {
                throw new UsageException("rate: unknown argument '" + args[i] + "' (" + USAGE + ")");
            }
        }
        if (profile != null) {
            return profile(profile, specs, seconds, out);
        }
        if (specs.isEmpty()) {
            specs = List.of("java", "cpu");
        }
        Domain domain = new Domain(bits);
        TargetSet none = TargetSet.of(EMPTY_MESSAGE_MD5);
        out.printf("%-24s %16s %16s%n", "engine (1 thread)", "hash values/s", "search values/s");
        for (String spec : specs) {
            try (Md5Engine engine = Engines.open(spec, 1)) {
                ByteBuffer digests = engine.digestBuffer(JobKeys.BATCH);
                // One warm-up batch so the JIT and the native dispatch are settled.
                engine.hashRange(0, JobKeys.BATCH, domain.width(), digests);
                FpgaEngine fpga = engine instanceof FpgaEngine f ? f : null;
                if (fpga != null) {
                    fpga.resetStats();
                }
                long n = domain.size();
                long t0 = System.nanoTime();
                for (long v = 0; v < n; v += JobKeys.BATCH) {
                    digests.clear();
                    engine.hashRange(v, (int) Math.min(JobKeys.BATCH, n - v), domain.width(), digests);
                }
                double hash = n / ((System.nanoTime() - t0) / 1e9);
                FpgaEngine.Stats hashStats = fpga != null ? fpga.stats() : null;
                if (fpga != null) {
                    fpga.resetStats();
                }
                t0 = System.nanoTime();
                for (long v = 0; v < n; v += JobKeys.BATCH) {
                    engine.searchRange(v, Math.min(JobKeys.BATCH, n - v), domain.width(), none);
                }
                double search = n / ((System.nanoTime() - t0) / 1e9);
                out.printf("%-24s %16.4g %16.4g%n", engine.name(), hash, search);
                if (fpga != null) {
                    device(out, fpga, "hash", hashStats);
                    device(out, fpga, "search", fpga.stats());
                }
            } catch (IllegalArgumentException e) {
                out.printf("%-24s %s%n", spec, "unavailable: " + e.getMessage());
            }
        }
        return 0;
    }

    /**
     * The node's profile: the CPU kernels (one thread, as one map), and the FPGA of each
     * {@code --accel} spec that names one (without any, the device of {@code FPGAMR_DEVICE} when set).
     */
    private static int profile(Path file, List<String> given, double seconds, PrintStream out) throws UsageException {
        List<EngineSpec> specs = new ArrayList<>(List.of(EngineSpec.cpu()));
        try {
            for (String g : given) {
                EngineSpec spec = EngineSpec.parse(g);
                if (!spec.usesFpga()) {
                    throw new UsageException("rate --profile: --accel takes an FPGA (fpga:DEVICE), the CPU is always profiled; got '" + g + "'");
                }
                specs.add(EngineSpec.fpga(spec.device()));
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException("rate --profile: --accel: " + e.getMessage());
        }
        if (given.isEmpty() && System.getenv(Engines.DEVICE_ENV) != null) {
            specs.add(EngineSpec.fpga(null));
        }
        SpeedProfile p;
        try {
            p = new SpeedProfiler(seconds).profile(specs, Map.of());
        } catch (IllegalArgumentException e) {
            throw new UsageException("rate --profile: " + e.getMessage());
        }
        for (SpeedProfile.Speed s : p.speeds()) {
            out.printf("%-5s %-7s %s%n", s.kind(), s.mode(), s.describe());
        }
        try {
            p.write(file);
        } catch (IOException e) {
            throw new UsageException("rate --profile: cannot write " + file + ": " + e.getMessage());
        }
        out.println("profile written to " + file);
        return 0;
    }

    /** The device's own figures: what the hardware would do at its clock, and the driver's host share. */
    private static void device(PrintStream out, FpgaEngine f, String path, FpgaEngine.Stats s) {
        if (s.batches() == 0) {
            return;
        }
        out.printf("  %-6s on the device: %.0f cycles/batch, %.4g values/s at %.0f MHz, driver host time %.3f ms/batch (%.1f%% of device time)%n",
            path, (double) s.deviceCycles() / s.batches(), s.modelledDeviceSeconds() > 0 ? s.values() / s.modelledDeviceSeconds() : 0.0, f.mhz(),
            1e3 * s.hostSeconds() / s.batches(), 100 * s.hostShare());
    }
}
