package io.fpgamr.accel.fpga;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.accel.JavaMd5Engine;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.NativeArtifacts;
import io.fpgamr.accel.TargetSet;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FPGA engine on the simulated device (the Verilated HDL in libfpgamr-vsim-pN.so, from the
 * jar): exact digests against the Java engine across device batches, planted preimages, the
 * driver's figures, zero-copy buffers, ownership (busy, wait_ms) and open errors. Every device
 * gets its own lock file, so these tests never meet another process's simulated device.
 */
class FpgaEngineTest {
    @TempDir
    Path tmp;

    /** A vsim spec with small batches (ranges cross several) and a private lock. */
    private String spec(int pipelines, String extra) {
        return "vsim:pipelines=" + pipelines + ",batch=4096,lock=" + tmp.resolve("p" + pipelines + ".lock")
                + (extra.isEmpty() ? "" : "," + extra);
    }

    private static String md5Hex(long v, int width) throws Exception {
        byte[] m = new byte[width];
        for (int i = 0; i < width; i++) {
            m[i] = (byte) (v >>> (8 * (width - 1 - i)));
        }
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(m));
    }

    private static byte[] javaDigests(long start, int count, int width) {
        ByteBuffer b = ByteBuffer.allocate(16 * count);
        new JavaMd5Engine().hashRange(start, count, width, b);
        return b.array();
    }

    private static byte[] bytes(ByteBuffer b, int from, int len) {
        byte[] out = new byte[len];
        b.get(from, out);
        return out;
    }

    @Test
    void jarCarriesTheSimulatedDevices() {
        for (int p : new int[] {1, 4}) {
            Path lib = FpgaEngine.packagedModel(p);
            assertNotNull(lib, "libfpgamr-vsim-p" + p + ".so for " + NativeArtifacts.platform());
            assertTrue(Files.isRegularFile(lib), lib.toString());
        }
        String s = packaged("vsim:pipelines=4,mhz=50", Map.of());
        assertTrue(s.startsWith("vsim:pipelines=4,mhz=50,lib=/") && s.contains("libfpgamr-vsim-p4"), s);
        assertTrue(packaged("vsim", Map.of()).matches("vsim:lib=/.*libfpgamr-vsim-p1.*\\.so"));
        assertEquals("vsim:pipelines=4,lib=/x.so", packaged("vsim:pipelines=4,lib=/x.so", Map.of()));
        assertEquals("vsim:pipelines=4", packaged("vsim:pipelines=4", Map.of("FPGAMR_VSIM_DIR", "/d")));
        assertEquals("uio:/dev/uio0", packaged("uio:/dev/uio0", Map.of()));
    }

    private static String packaged(String spec, Map<String, String> env) {
        return FpgaEngine.withPackagedModel(DeviceSpec.parse(spec), env).toString();
    }

    @Test
    void hashesExactlyAcrossBatchesEveryWidthAndEveryKindOfBuffer() throws Exception {
        for (int p : new int[] {1, 4}) {
            try (FpgaEngine e = FpgaEngine.open(spec(p, ""))) {
                assertEquals("fpga:vsim:p" + p, e.name());
                assertEquals("fpga", e.kind());
                assertEquals(p, e.pipelines());
                assertEquals("vsim", e.bus());
                for (int width = 4; width <= 8; width++) {
                    long start = width == 4 ? 0xFFFFF000L : (1L << (8 * width - 1)) - 5000;
                    int count = 4096 * 2 + 321;
                    byte[] want = javaDigests(start, count, width);
                    // a direct buffer at an offset (the driver copies from its own DMA buffer)
                    ByteBuffer direct = ByteBuffer.allocateDirect(16 * count + 48);
                    direct.position(48);
                    e.hashRange(start, count, width, direct);
                    assertEquals(48 + 16 * count, direct.position());
                    assertArrayEquals(want, bytes(direct, 48, 16 * count), "direct, width " + width);
                    // a heap buffer
                    ByteBuffer heap = ByteBuffer.allocate(16 * count);
                    e.hashRange(start, count, width, heap);
                    assertArrayEquals(want, heap.array(), "heap, width " + width);
                }
                // the device's own DMA memory: written by the device, no copy
                ByteBuffer dma = e.digestBuffer(3 * 4096);
                assertTrue(dma.isDirect() && dma.capacity() == 16 * 3 * 4096);
                e.resetStats();
                dma.position(16 * 100);
                e.hashRange(0x123, 2 * 4096 + 7, 4, dma);
                FpgaEngine.Stats st = e.stats();
                assertEquals(3, st.batches());
                assertEquals(3, st.zeroCopyBatches());
                assertArrayEquals(javaDigests(0x123, 2 * 4096 + 7, 4), bytes(dma, 1600, 16 * (2 * 4096 + 7)));
                assertEquals("096822475dd517c1089f4b58c7f346ef", HexFormat.of().formatHex(bytes(dma, 1600, 16)));
                assertEquals(2 * 4096 + 7, st.values());
                // never more than one digest per pipeline per clock (the bus width may allow fewer)
                assertTrue(st.deviceCycles() >= (2 * 4096 + 7) / p, "cycles " + st.deviceCycles());
                // no mhz= in the spec: the modelled time runs at the clock the design reports (CLOCK_KHZ)
                assertEquals(st.deviceCycles() / (e.mhz() * 1e6), st.modelledDeviceSeconds(), 1e-9);
                assertTrue(st.simulated() && e.simulated(), "a vsim device is labelled simulated");
                assertTrue(st.hostSeconds() > 0 && st.wallSeconds() > 0, st.toString());
                // the engine's count is the device's: every value of every call, once
                assertEquals(5L * 2 * (4096 * 2 + 321) + 2 * 4096 + 7, e.valuesHashed());
                assertEquals(0, st.shortBatches());
            }
        }
    }

    @Test
    void searchFindsPlantedPreimagesAndCountsTheDevicesWork() throws Exception {
        try (FpgaEngine e = FpgaEngine.open(spec(4, ""))) {
            long start = 1L << 20;
            long count = 5 * 4096 + 17;
            long[] planted = {start, start + 4095, start + 4096, start + 12345, start + count - 1};
            String[] hex = new String[planted.length + 2];
            for (int i = 0; i < planted.length; i++) {
                hex[i] = md5Hex(planted[i], 4);
            }
            hex[planted.length] = md5Hex(start - 1, 4); // just outside the range
            hex[planted.length + 1] = md5Hex(start + count, 4);
            e.resetStats();
            assertArrayEquals(planted, e.searchRange(start, count, 4, TargetSet.of(hex)));
            FpgaEngine.Stats st = e.stats();
            assertEquals(6, st.batches());
            assertEquals(count, st.values());
            // 4 pipelines: about a quarter of a clock per value
            assertTrue(st.deviceCycles() < count / 2, "cycles " + st.deviceCycles());
            assertTrue(st.filterHits() >= planted.length);
            // the thesis's example, 5-byte messages, no target at all
            assertArrayEquals(new long[] {0x123}, e.searchRange(0, 1000, 4, TargetSet.of("096822475dd517c1089f4b58c7f346ef")));
            assertArrayEquals(new long[] {(1L << 33) + 7},
                    e.searchRange(1L << 33, 4096, 5, TargetSet.of(md5Hex((1L << 33) + 7, 5))));
            assertArrayEquals(new long[0], e.searchRange(0, 100, 4, TargetSet.of(md5Hex(1000, 4))));
            // more preimages than the engine's first match buffer holds
            String[] many = new String[3000];
            long[] want = new long[many.length];
            for (int i = 0; i < many.length; i++) {
                want[i] = 7 + 3L * i;
                many[i] = md5Hex(want[i], 4);
            }
            assertArrayEquals(want, e.searchRange(0, 3 * many.length + 100, 4, TargetSet.of(many)));
            assertEquals(count + 1000 + 4096 + 100 + 3 * many.length + 100, e.valuesHashed());
            assertThrows(IllegalArgumentException.class, () -> e.searchRange(0, 10, 9, TargetSet.of(hex)));
        }
    }

    @Test
    void aDeviceHasOneOwnerAndWaitMsWaitsForIt() throws Exception {
        try (FpgaEngine first = FpgaEngine.open(spec(1, ""))) {
            FpgaOpenException x = assertThrows(FpgaOpenException.class, () -> FpgaEngine.open(spec(1, "")));
            assertTrue(x.busy() && x.getMessage().contains("busy"), x.getMessage());
            long t0 = System.nanoTime();
            x = assertThrows(FpgaOpenException.class, () -> FpgaEngine.open(spec(1, "wait_ms=200")));
            assertTrue(x.busy() && x.getMessage().contains("waited"), x.getMessage());
            assertTrue(System.nanoTime() - t0 >= 200_000_000L);
            // the first owner still works
            assertArrayEquals(new long[] {0x123}, first.searchRange(0, 4096, 4, TargetSet.of("096822475dd517c1089f4b58c7f346ef")));
        }
        // a waiting opener gets the device once its owner closes it
        FpgaEngine owner = FpgaEngine.open(spec(1, ""));
        Thread closer = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            owner.close();
        });
        long t0 = System.nanoTime();
        closer.start();
        try (FpgaEngine waiter = FpgaEngine.open(spec(1, "wait_ms=30000"))) {
            assertTrue(System.nanoTime() - t0 >= 250_000_000L);
            assertEquals("fpga:vsim:p1", waiter.name());
        }
        closer.join();
        assertThrows(IllegalStateException.class, () -> owner.searchRange(0, 1, 4, TargetSet.of(md5Hex(0, 4))));
    }

    @Test
    void openErrorsCarryTheDriversMessage() {
        FpgaOpenException x = assertThrows(FpgaOpenException.class, () -> FpgaEngine.open("uio:/dev/fpgamr-no-such-uio"));
        assertTrue(x.absent() && x.getMessage().contains("cannot open /dev/fpgamr-no-such-uio"), x.getMessage());
        x = assertThrows(FpgaOpenException.class, () -> FpgaEngine.open("vsim:pipelines=3,lock=" + tmp.resolve("p3")));
        assertTrue(x.absent() && x.getMessage().contains("libfpgamr-vsim-p3.so"), x.getMessage());
        x = assertThrows(FpgaOpenException.class, () -> FpgaEngine.open("pcie:0"));
        assertTrue(!x.busy() && !x.absent() && x.getMessage().contains("unknown device spec"), x.getMessage());
        x = assertThrows(FpgaOpenException.class, () -> FpgaEngine.open(""));
        assertEquals("no FPGA device given (--device SPEC)", x.getMessage());
    }

    @Test
    void injectedFaultsAreCleanErrorsOrFewerValues() throws Exception {
        int count = 2 * 4096 + 777;
        String target = md5Hex(0x5000 + 10, 4);
        // a DMA error: a device exception naming it; the batches before it are counted
        try (FpgaEngine e = FpgaEngine.open(spec(4, "timeout_ms=400,fault=dma_error@2"))) {
            FpgaDeviceException x = assertThrows(FpgaDeviceException.class,
                    () -> e.hashRange(0x5000, count, 4, ByteBuffer.allocateDirect(16 * count)));
            assertTrue(!x.timedOut() && x.getMessage().contains("read response error"), x.getMessage());
            assertEquals(4096, e.valuesHashed());
            // the device works again afterwards
            assertArrayEquals(new long[] {0x5000 + 10}, e.searchRange(0x5000, count, 4, TargetSet.of(target)));
            assertEquals(4096 + count, e.valuesHashed());
        }
        try (FpgaEngine e = FpgaEngine.open(spec(4, "timeout_ms=400,fault=dma_error@1"))) {
            FpgaDeviceException x = assertThrows(FpgaDeviceException.class,
                    () -> e.searchRange(0x5000, count, 4, TargetSet.of(target)));
            assertTrue(x.getMessage().contains("write response error"), x.getMessage());
            assertEquals(0, e.valuesHashed());
        }
        // a hang: the driver's timeout, a device exception that says so
        try (FpgaEngine e = FpgaEngine.open(spec(1, "timeout_ms=400,fault=hang@3"))) {
            FpgaDeviceException x = assertThrows(FpgaDeviceException.class,
                    () -> e.searchRange(0x5000, 3 * 4096, 4, TargetSet.of(target)));
            assertTrue(x.timedOut() && x.getMessage().contains("no interrupt within 400 ms"), x.getMessage());
            assertEquals(2 * 4096, e.valuesHashed());
        }
        // a dropped batch: no error, fewer values hashed, as the device counted them
        try (FpgaEngine e = FpgaEngine.open(spec(4, "fault=drop@2"))) {
            e.hashRange(0x5000, count, 4, ByteBuffer.allocateDirect(16 * count));
            assertEquals(count - 2048, e.valuesHashed());
            assertEquals(1, e.stats().shortBatches());
            assertArrayEquals(new long[] {0x5000 + 10}, e.searchRange(0x5000, count, 4, TargetSet.of(target)));
            assertEquals(2 * count - 2048, e.valuesHashed());
        }
        try (FpgaEngine e = FpgaEngine.open(spec(4, "fault=drop@1"))) {
            // the target is in the first half of batch 1: found; the second half is not searched
            assertArrayEquals(new long[] {0x5000 + 10}, e.searchRange(0x5000, count, 4, TargetSet.of(target)));
            assertEquals(count - 2048, e.valuesHashed());
        }
    }

    /**
     * A device that never stops its job (the simulated device's own fault hook, wedge@1: its memory
     * takes the requests and answers none, whatever ABORT): the search times out; the close returns
     * once the driver's stop has waited its 5 s, and says the device is wedged, as its state file
     * does (the NodeManager reads it there). The close once hung for good: the model's clock thread,
     * never idle on a wedged device, kept its lock from the close's unmap of a buffer (here the
     * digest buffer handed out, as a bench map holds one, freed first; else, depending on timing,
     * the second match buffer). The bound below guards against that hang; it is no speed goal.
     */
    @Test
    void closingAWedgedDeviceReturnsAndSaysItIsWedged() throws Exception {
        Path state = tmp.resolve("state");
        Files.writeString(state, "idle\n");
        FpgaEngine e = FpgaEngine.open(spec(1, "timeout_ms=300,state=" + state + ",fault=wedge@1"));
        e.digestBuffer(4096);
        FpgaDeviceException search = assertThrows(FpgaDeviceException.class,
                () -> e.searchRange(0, 1 << 19, 4, TargetSet.of(md5Hex(0x123, 4))));
        assertTrue(search.timedOut() && search.getMessage().contains("no interrupt within 300 ms"), search.getMessage());
        FpgaDeviceException close = assertTimeoutPreemptively(Duration.ofSeconds(120),
                () -> assertThrows(FpgaDeviceException.class, e::close));
        String line = Files.readString(state);
        assertTrue(line.startsWith("wedged: the device did not stop its job within 5000 ms (JOBS_STARTED 0x00000001 of 0x00000001, "
                + "STATUS 0x") && line.endsWith(")\n") && line.lines().count() == 1, line);
        assertEquals("close: device error: vsim: " + line.strip(), close.getMessage());
        assertEquals(FpgaNative.EIO, close.code());
        e.close(); // said once: the engine is closed
        assertThrows(IllegalStateException.class, () -> e.searchRange(0, 1, 4, TargetSet.of(md5Hex(0x123, 4))));
    }

    @Test
    void heapBuffersAndTheEngineContract() {
        try (Md5Engine e = FpgaEngine.open(spec(4, ""))) {
            ByteBuffer small = ByteBuffer.allocate(16);
            assertThrows(java.nio.BufferOverflowException.class, () -> e.hashRange(0, 2, 4, small));
            assertThrows(IllegalArgumentException.class, () -> e.hashRange(0, 1, 3, small));
            e.hashRange(0, 0, 4, small);
            assertEquals(0, small.position());
            assertEquals(1, e.threads());
        }
    }
}
