package io.fpgamr.accel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Every native kernel this CPU runs, against MessageDigest and JavaMd5Engine. */
class NativeMd5EngineTest {
    private static final HexFormat HEX = HexFormat.of();

    private static byte[] md5(long v, int width) throws Exception {
        return MessageDigest.getInstance("MD5").digest(JavaMd5.message(v, width));
    }

    private static long top(int width) {
        return width == 8 ? -1L : (1L << (8 * width)) - 1;
    }

    /** The kernels of this platform that this CPU runs (at least scalar). */
    private static List<String> kernels() {
        List<String> out = new ArrayList<>();
        for (String k : NativeMd5Engine.kernelsBuilt()) {
            if (NativeMd5Engine.kernelRuns(k)) {
                out.add(k);
            }
        }
        assertTrue(out.contains("scalar"), "scalar always runs: " + out);
        return out;
    }

    private static void assertRange(Md5Engine e, long start, int count, int width, boolean direct) throws Exception {
        ByteBuffer out = direct ? ByteBuffer.allocateDirect(16 * count + 32) : ByteBuffer.allocate(16 * count + 32);
        out.position(16); // not at 0: the engine must honour the position
        e.hashRange(start, count, width, out);
        assertEquals(16 + 16 * count, out.position(), "position advanced by 16 * count");
        byte[] d = new byte[16];
        for (int i = 0; i < count; i++) {
            out.get(16 + 16 * i, d);
            long v = start + i;
            if (!Arrays.equals(md5(v, width), d)) {
                assertEquals(HEX.formatHex(md5(v, width)), HEX.formatHex(d),
                        e.name() + " width " + width + " value " + Long.toUnsignedString(v, 16));
            }
        }
        for (int i = 0; i < 16; i++) {
            assertEquals(0, out.get(16 + 16 * count + i), "nothing written past the digests");
            assertEquals(0, out.get(i), "nothing written before the position");
        }
    }

    @Test
    void everyKernelEqualsMessageDigestOnWidths4To8() throws Exception {
        SplittableRandom rnd = new SplittableRandom(7);
        for (String k : kernels()) {
            try (NativeMd5Engine e = NativeMd5Engine.open(k, 2)) {
                assertEquals("cpu:" + k, e.name());
                assertEquals(2, e.threads());
                int odd = 3 * e.lanes() + 1; // never a multiple of the lane width
                for (int w = 4; w <= 8; w++) {
                    long top = top(w);
                    assertRange(e, 0, 1, w, true);
                    assertRange(e, 1, odd, w, true);
                    assertRange(e, top - 999, 1000, w, true); // the last values of the width
                    assertRange(e, (rnd.nextLong() & top) >>> 1, 2049, w, false); // via a heap buffer
                    if (w >= 5) {
                        assertRange(e, (1L << 32) - 33, 77, w, true); // x0 changes mid-batch
                    }
                }
                assertRange(e, 5L << 18, 1 << 18, 4, true); // one batch of the job's size
            }
        }
    }

    @Test
    void thesisExampleOnEveryKernel() {
        for (String k : kernels()) {
            try (Md5Engine e = Engines.open("cpu:" + k, 1)) {
                ByteBuffer out = ByteBuffer.allocateDirect(16);
                e.hashRange(0x123, 1, 4, out);
                assertEquals("096822475dd517c1089f4b58c7f346ef", HEX.formatHex(bytes(out.flip())));
            }
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.get(a);
        return a;
    }

    @Test
    void hashValuesOfAnArray() throws Exception {
        for (String k : kernels()) {
            try (NativeMd5Engine e = NativeMd5Engine.open(k, 2)) {
                for (int w = 4; w <= 8; w++) {
                    long[] vals = {0, 1, top(w), top(w) - 1, 0x80, top(w) >>> 1, 0x1234 & top(w), 77, 3, 9, 11};
                    LongBuffer in = ByteBuffer.allocateDirect(8 * vals.length).order(ByteOrder.nativeOrder()).asLongBuffer();
                    in.put(vals).flip();
                    ByteBuffer out = ByteBuffer.allocateDirect(16 * vals.length);
                    e.hashValues(in, w, out);
                    for (int i = 0; i < vals.length; i++) {
                        byte[] d = new byte[16];
                        out.get(16 * i, d);
                        assertArrayEquals(md5(vals[i], w), d, k + " w " + w + " v " + vals[i]);
                    }
                }
            }
        }
    }

    private static String hex(long v, int w) throws Exception {
        return HEX.formatHex(md5(v, w));
    }

    private static void assertSearch(Md5Engine e, long start, long count, int width, long[] planted, long... misses)
            throws Exception {
        List<String> digests = new ArrayList<>();
        TreeSet<Long> want = new TreeSet<>();
        for (long v : planted) {
            digests.add(hex(v, width));
            want.add(v);
        }
        for (long v : misses) {
            digests.add(hex(v, width));
        }
        long[] got = e.searchRange(start, count, width, TargetSet.of(digests));
        long[] exp = want.stream().mapToLong(Long::longValue).toArray();
        assertArrayEquals(exp, got, e.name() + " width " + width + " [" + start + ", +" + count + ")");
    }

    @Test
    void searchFindsExactlyThePlantedTargets() throws Exception {
        for (String k : kernels()) {
            try (Md5Engine e = Engines.open("cpu:" + k, 2)) {
                long s = 0x3000_0000L;
                long n = (1 << 18) + 13; // odd, not a multiple of any lane width
                assertSearch(e, s, n, 4, new long[] {s});
                assertSearch(e, s, n, 4, new long[] {s + n - 1}, s - 1, s + n);
                assertSearch(e, s, n, 4, new long[] {s, s + 1, s + 4097, s + n - 1}, s + n, 0x123);
                assertSearch(e, s, n, 4, new long[0], s + n); // a miss only
                assertSearch(e, 0xffff_fff0L, 16, 4, new long[] {0xffff_ffffL, 0xffff_fff0L});
                // width 5: full rows (x0 varies) between partial first and last rows (x1 varies)
                long s5 = 0x12_3456_78abL;
                assertSearch(e, s5, n, 5, new long[] {s5, s5 + 255, s5 + 256, s5 + n - 1, s5 + n / 2}, s5 - 1);
                // width 6 and 7: one or a few partial rows
                long s6 = 0xffff_ff00_00L - 3000;
                assertSearch(e, s6, 70_001, 6, new long[] {s6 + 2999, s6 + 3000, s6 + 70_000}, s6 + 70_001);
                long s7 = 0xab_cdef_1234_56L;
                assertSearch(e, s7, 50_001, 7, new long[] {s7 + 17, s7 + 50_000}, s7 - 1);
                // width 8 across a 2^32 boundary, and the last values of the domain
                long b = 0xdead_beefL << 32;
                assertSearch(e, b - 20_000, 40_000, 8, new long[] {b - 20_000, b - 1, b, b + 19_999}, b + 20_000);
                assertSearch(e, -5000L, 5000, 8, new long[] {-1L, -5000L}, 7);
            }
        }
    }

    @Test
    void searchAgreesWithTheJavaEngineOnManyTargets() throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        long s = 0x0200_0000L;
        int n = 100_003;
        List<String> digests = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            digests.add(hex(s + rnd.nextInt(n), 4));
        }
        for (int i = 0; i < 50; i++) {
            digests.add(hex(s + n + rnd.nextInt(1000), 4)); // outside: misses
        }
        TargetSet targets = TargetSet.of(digests);
        long[] exp = new JavaMd5Engine().searchRange(s, n, 4, targets);
        assertTrue(exp.length > 150);
        for (String k : kernels()) {
            try (Md5Engine e = Engines.open("cpu:" + k, 2)) {
                assertArrayEquals(exp, e.searchRange(s, n, 4, targets), k);
                assertArrayEquals(exp, e.searchRange(s, n, 4, targets), k + " again (cached native targets)");
            }
        }
    }

    @Test
    void everyEngineCountsTheValuesItHashed() throws Exception {
        List<String> specs = new ArrayList<>(List.of("java"));
        for (String k : kernels()) {
            specs.add("cpu:" + k);
        }
        // more preimages than a native engine's first result buffer (1024): the search runs twice,
        // and counts once
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            many.add(hex(5000 + 7L * i, 4));
        }
        for (String spec : specs) {
            for (int threads : new int[] {1, 3}) {
                try (Md5Engine e = Engines.open(spec, threads)) {
                    assertFalse(e.simulated(), spec + " hashes on this CPU, measured");
                    assertEquals(0, e.valuesHashed());
                    e.hashRange(0x123, 100_003, 4, ByteBuffer.allocateDirect(16 * 100_003));
                    e.hashRange(1L << 33, 777, 5, ByteBuffer.allocate(16 * 777));
                    assertEquals(100_780, e.valuesHashed(), spec + " x" + threads + " hash");
                    assertEquals(1500, e.searchRange(5000, 10_500, 4, TargetSet.of(many)).length);
                    assertEquals(1, e.searchRange(0, (1 << 18) + 13, 4, TargetSet.of(hex0())).length);
                    e.searchRange(0, 0, 4, TargetSet.of(hex0()));
                    long total = 100_780 + 10_500 + (1 << 18) + 13;
                    if (e instanceof NativeMd5Engine n) {
                        java.nio.LongBuffer values = ByteBuffer.allocateDirect(8 * 3).order(java.nio.ByteOrder.nativeOrder())
                                .asLongBuffer().put(new long[] {1, 2, 0xffff_ffffL}).flip();
                        n.hashValues(values, 4, ByteBuffer.allocateDirect(48));
                        total += 3;
                    }
                    assertEquals(total, e.valuesHashed(), spec + " x" + threads);
                }
            }
        }
    }

    @Test
    void badArgumentsAreRefused() {
        try (Md5Engine e = Engines.open("cpu", 1)) {
            assertThrows(IllegalArgumentException.class, () -> e.hashRange(0, 1, 3, ByteBuffer.allocateDirect(16)));
            assertThrows(IllegalArgumentException.class, () -> e.hashRange(0xffff_ffffL, 2, 4, ByteBuffer.allocateDirect(32)));
            assertThrows(BufferOverflowException.class, () -> e.hashRange(0, 2, 4, ByteBuffer.allocateDirect(31)));
            assertThrows(IllegalArgumentException.class, () -> e.searchRange(0, 1, 9, TargetSet.of(hex0())));
        }
    }

    private static String hex0() {
        return "096822475dd517c1089f4b58c7f346ef";
    }

    /** The flags (x86) or Features (ARM) line of /proc/cpuinfo, as words. */
    private static List<String> cpuFlags() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
            String l = line.toLowerCase();
            if (l.startsWith("flags") || l.startsWith("features")) {
                return Arrays.asList(l.substring(l.indexOf(':') + 1).trim().split("\\s+"));
            }
        }
        return List.of();
    }

    @Test
    void dispatchPicksWhatTheCpuOffers() throws IOException {
        List<String> flags = cpuFlags();
        String platform = NativeArtifacts.platform();
        String expect;
        if (platform.equals("linux-x86_64")) {
            expect = flags.contains("avx512f") ? "avx512" : flags.contains("avx2") ? "avx2" : "scalar";
            assertEquals(flags.contains("avx2"), NativeMd5Engine.kernelRuns("avx2"));
            assertEquals(flags.contains("avx512f"), NativeMd5Engine.kernelRuns("avx512"));
            assertFalse(NativeMd5Engine.kernelRuns("neon"));
        } else {
            expect = flags.contains("asimd") || flags.contains("neon") ? "neon" : "scalar";
        }
        assertEquals(expect, NativeMd5Engine.bestKernel(), "flags " + flags);
        String env = System.getenv("FPGAMR_KERNEL");
        try (Md5Engine e = Engines.open("cpu", 2)) {
            assertEquals("cpu:" + (env == null || env.isEmpty() ? expect : env), e.name());
            assertEquals(2, e.threads());
        }
        try (Md5Engine e = Engines.open("cpu", 0)) {
            assertEquals(Runtime.getRuntime().availableProcessors(), e.threads());
        }
    }

    @Test
    void forcedKernelsTheCpuLacksAreClearErrors() {
        for (String k : new String[] {"scalar", "avx2", "avx512", "neon"}) {
            boolean built = Arrays.asList(NativeMd5Engine.kernelsBuilt()).contains(k);
            if (NativeMd5Engine.kernelRuns(k)) {
                try (Md5Engine e = Engines.open("cpu:" + k, 1)) {
                    assertEquals("cpu:" + k, e.name());
                }
            } else {
                IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> Engines.open("cpu:" + k, 1));
                assertTrue(x.getMessage().contains(k) && x.getMessage().contains(NativeArtifacts.platform()), x.getMessage());
                assertTrue(x.getMessage().contains(built ? "lacks" : "unknown"), x.getMessage());
            }
        }
        assertThrows(IllegalArgumentException.class, () -> Engines.open("cpu:sse9", 1));
        assertThrows(IllegalArgumentException.class, () -> Engines.open("gpu", 1));
    }

    @Test
    void specsJavaFpgaAndTheFallback() {
        try (Md5Engine e = Engines.open("java", 4)) {
            assertEquals("java", e.name());
        }
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> Engines.open("fpga:uio:/dev/fpgamr-no-such-uio", 1));
        assertTrue(x.getMessage().contains("cannot open /dev/fpgamr-no-such-uio"), x.getMessage());
        // A platform without a native build: "cpu" falls back to Java (and says so in name()),
        // a forced kernel is an error.
        java.util.function.BiFunction<String, Integer, Md5Engine> missing = (k, t) -> {
            throw new UnsatisfiedLinkError("no native libfpgamr for platform linux-sparc64");
        };
        try (Md5Engine e = Engines.open(EngineSpec.cpu(), 2, missing, java.util.Map.of())) {
            assertEquals("java", e.name());
        }
        x = assertThrows(IllegalArgumentException.class, () -> Engines.open(EngineSpec.parse("cpu:scalar"), 2, missing, java.util.Map.of()));
        assertTrue(x.getMessage().contains("linux-sparc64"), x.getMessage());
    }

    @Test
    void loaderNamesPlatformsAndTheJarCarriesEachBuild() throws IOException {
        assertEquals("linux-x86_64", NativeArtifacts.platform("Linux", "amd64"));
        assertEquals("linux-aarch64", NativeArtifacts.platform("Linux", "aarch64"));
        assertEquals("linux-armhf", NativeArtifacts.platform("Linux", "arm"));
        assertEquals("unsupported-mac_os_x-aarch64", NativeArtifacts.platform("Mac OS X", "aarch64"));
        assertTrue(NativeArtifacts.find("libfpgamr-no-such.so").isEmpty());
        // the jar's library, extracted to a name holding its content hash
        Path lib = NativeArtifacts.find(NativeArtifacts.LIBRARY).orElseThrow();
        assertTrue(lib.getFileName().toString().matches("libfpgamr-[0-9a-f]{16}\\.so"), lib.toString());
        assertEquals(lib, NativeArtifacts.find(NativeArtifacts.LIBRARY).orElseThrow(), "found again, not written again");
        // Each platform the build made is packaged, and is an ELF shared object for its machine.
        String platforms = System.getProperty("fpgamr.native.platforms", "linux-x86_64 linux-aarch64 linux-armhf");
        for (String p : platforms.trim().split("\\s+")) {
            try (InputStream in = NativeArtifacts.class.getResourceAsStream(NativeArtifacts.resource(p, NativeArtifacts.LIBRARY))) {
                assertTrue(in != null, "resource for " + p);
                byte[] h = in.readNBytes(20);
                assertEquals(0x7f, h[0]);
                assertEquals('E', h[1]);
                assertEquals(3, h[16], "ET_DYN");
                int machine = (h[18] & 0xff) | (h[19] & 0xff) << 8;
                int want = p.equals("linux-x86_64") ? 62 : p.equals("linux-aarch64") ? 183 : 40;
                assertEquals(want, machine, p + " e_machine");
                assertEquals(p.equals("linux-armhf") ? 1 : 2, h[4], p + " ELF class");
            }
        }
    }
}
