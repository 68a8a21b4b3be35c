package io.fpgamr.md5.balance;

import io.fpgamr.accel.Emulation;
import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.SpeedProfile;
import io.fpgamr.accel.TargetSet;
import io.fpgamr.md5.job.Domain;
import io.fpgamr.md5.job.HashedValue;
import io.fpgamr.md5.job.JobKeys;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The seed's profiling step, per node: each engine a map could run on here (one thread of the CPU
 * kernels; each kind of FPGA device given) runs the map's work of each mode for a while, and its
 * values per second become the node's {@link SpeedProfile}. Search runs the engine's search over
 * values none of which is a target (it compares as it hashes); bench hashes and lays out every
 * value's pair as the bench map emits it (message ‖ digest, one pair per value; the collector's
 * spills are not included). Every figure is labelled measured, and a simulated FPGA's as simulated;
 * a profile measured under an emulator (an armhf JVM under QEMU) says so ({@code node.emulated=true}).
 */
public final class SpeedProfiler {
    /** MD5 of the empty message: no 4..8-byte message hashes to it, so a search scans everything. */
    static final String EMPTY_MESSAGE_MD5 = "d41d8cd98f00b204e9800998ecf8427e";
    /** How long each engine and mode is measured, after a warm-up call. */
    public static final double DEFAULT_SECONDS = 0.3;
    /** The domain the profile's values come from: 2^28, the thesis's (the width of its messages: 4 bytes). */
    private static final Domain DOMAIN = new Domain(JobKeys.DEFAULT_BITS);

    private final double seconds;

    public SpeedProfiler(double seconds) {
        this.seconds = seconds;
    }

    /**
     * The profile of the engines of {@code specs} (each opened with one thread) in both modes;
     * {@code node} describes the node ({@code arch}).
     *
     * @throws IllegalArgumentException when an engine does not open
     */
    public SpeedProfile profile(List<EngineSpec> specs, Map<String, String> node) {
        List<SpeedProfile.Speed> speeds = new ArrayList<>();
        for (EngineSpec spec : specs) {
            try (Md5Engine engine = Engines.open(spec, 1)) {
                for (String mode : SpeedProfile.MODES) {
                    speeds.add(new SpeedProfile.Speed(engine.kind(), mode, measure(engine, mode), SpeedProfile.Source.MEASURED, engine.name(),
                        engine.simulated()));
                }
            }
        }
        Map<String, String> described = new LinkedHashMap<>(node);
        described.putIfAbsent("arch", System.getProperty("os.arch"));
        if (Emulation.emulated()) {
            described.put("emulated", "true");
        }
        return new SpeedProfile(described, speeds);
    }

    /** Values per second of {@code engine} doing a map's work of {@code mode}. */
    double measure(Md5Engine engine, String mode) {
        boolean bench = mode.equals("bench");
        int width = DOMAIN.width();
        TargetSet none = TargetSet.of(EMPTY_MESSAGE_MD5);
        ByteBuffer digests = engine.digestBuffer(JobKeys.BATCH);
        byte[] batch = new byte[16 * JobKeys.BATCH];
        byte[] pairs = new byte[(width + 16) * JobKeys.BATCH];
        // Calls of at most ~20 ms each, so that a slow engine (a simulated FPGA) is measured in its time too.
        int count = 1 << 10;
        long start = 0;
        long values = 0;
        long t0 = 0;
        for (boolean warm = false;;) {
            long c0 = System.nanoTime();
            if (bench) {
                digests.clear();
                engine.hashRange(start, count, width, digests);
                digests.get(0, batch, 0, 16 * count);
                for (int i = 0; i < count; i++) {
                    HashedValue.encode(start + i, width, batch, i, pairs, i * (width + 16));
                }
            } else {
                engine.searchRange(start, count, width, none);
            }
            long c1 = System.nanoTime();
            start = (start + count) % (DOMAIN.size() - JobKeys.BATCH);
            if (!warm) {
                warm = true;
                t0 = c1;
                if (c1 - c0 < 20_000_000 && count < JobKeys.BATCH) {
                    count = (int) Math.min(JobKeys.BATCH, count * Math.max(2L, 20_000_000L / Math.max(1, c1 - c0)));
                    count = Integer.highestOneBit(count);
                }
                continue;
            }
            values += count;
            if (c1 - t0 >= seconds * 1e9) {
                return values / ((c1 - t0) / 1e9);
            }
        }
    }
}
