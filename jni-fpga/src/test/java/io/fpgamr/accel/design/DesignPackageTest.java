package io.fpgamr.accel.design;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DesignPackageTest {
    @TempDir
    Path tmp;

    private Path file(String name, String content) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    @Test
    void vsimPackageRoundTripsAndIsReproducible() throws Exception {
        Path lib = file("libfpgamr-vsim-p4.so", "not really a library, but bytes all the same");
        DesignPackage a = DesignPackage.createVsim(tmp.resolve("a.zip"), 4, lib);
        DesignPackage b = DesignPackage.createVsim(tmp.resolve("b.zip"), 4, lib);

        assertEquals(DesignPackage.Kind.VSIM, a.kind());
        assertEquals("md5acc-vsim-p4", a.name());
        assertEquals(4, a.pipelines());
        assertEquals(io.fpgamr.accel.NativeArtifacts.platform(), a.platform());
        assertEquals("model/libfpgamr-vsim-p4.so", a.modelEntry());
        assertEquals(DesignPackage.sha256(tmp.resolve("a.zip")), a.sha256());
        assertEquals(64, a.sha256().length());
        assertArrayEquals(Files.readAllBytes(a.file()), Files.readAllBytes(b.file()), "same inputs, same bytes");
        assertEquals(a.sha256(), b.sha256());

        Path out = tmp.resolve("dev/model.so");
        a.extract(a.modelEntry(), out);
        assertArrayEquals(Files.readAllBytes(lib), Files.readAllBytes(out));
    }

    @Test
    void differentModelsAreDifferentDesigns() throws Exception {
        DesignPackage p1 = DesignPackage.createVsim(tmp.resolve("p1.zip"), 1, file("libfpgamr-vsim-p1.so", "one"));
        DesignPackage p4 = DesignPackage.createVsim(tmp.resolve("p4.zip"), 4, file("libfpgamr-vsim-p4.so", "four"));
        assertNotEquals(p1.sha256(), p4.sha256());
    }

    @Test
    void rbfPackageKeepsItsDesignId() throws Exception {
        DesignPackage d = DesignPackage.createRbf(tmp.resolve("hw.zip"), "md5acc-de10-p4", 4, "0x4D443541",
            file("fpgamr-md5acc.rbf", "rbf"), file("fpgamr-md5acc.dtbo", "dtbo"));
        DesignPackage again = DesignPackage.open(d.file());
        assertEquals(DesignPackage.Kind.RBF, again.kind());
        assertEquals("0x4d443541", again.designId());
        assertEquals("fpga/fpgamr-md5acc.rbf", again.rbfEntry());
        assertEquals("fpga/fpgamr-md5acc.dtbo", again.overlayEntry());
        assertTrue(again.describe().startsWith("md5acc-de10-p4 (rbf, 4 pipelines, sha256 "), again.describe());
    }

    private Path zip(String name, Map<String, String> entries) throws IOException {
        Path p = tmp.resolve(name);
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(p))) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                z.closeEntry();
            }
        }
        return p;
    }

    @Test
    void refusesWhatIsNotAConsistentPackage() throws Exception {
        assertThrows(DesignPackage.InvalidDesignException.class, () -> DesignPackage.open(file("x.zip", "plain text")));
        assertThrows(DesignPackage.InvalidDesignException.class, () -> DesignPackage.open(zip("nometa.zip", Map.of("a", "b"))));
        String ok = "format=1\nname=d\nkind=vsim\npipelines=4\nplatform=linux-x86_64\nmodel=model/m.so\n";
        DesignPackage.open(zip("ok.zip", Map.of("design.properties", ok, "model/m.so", "x")));
        IOException missing = assertThrows(IOException.class,
            () -> DesignPackage.open(zip("missing.zip", Map.of("design.properties", ok))));
        assertTrue(missing.getMessage().contains("model entry 'model/m.so' is missing"), missing.getMessage());
        IOException traversal = assertThrows(IOException.class, () -> DesignPackage.open(zip("dots.zip",
            Map.of("design.properties", ok.replace("model/m.so", "../m.so"), "../m.so", "x"))));
        assertTrue(traversal.getMessage().contains("bad entry name"), traversal.getMessage());
        IOException format = assertThrows(IOException.class, () -> DesignPackage.open(zip("f2.zip",
            Map.of("design.properties", ok.replace("format=1", "format=2"), "model/m.so", "x"))));
        assertTrue(format.getMessage().contains("format '2'"), format.getMessage());
        IOException pipes = assertThrows(IOException.class, () -> DesignPackage.open(zip("p0.zip",
            Map.of("design.properties", ok.replace("pipelines=4", "pipelines=0"), "model/m.so", "x"))));
        assertTrue(pipes.getMessage().contains("pipelines must be in 1..64"), pipes.getMessage());
        IOException id = assertThrows(IOException.class, () -> DesignPackage.open(zip("id.zip", Map.of("design.properties",
            "format=1\nname=d\nkind=rbf\npipelines=4\nrbf=a.rbf\noverlay=a.dtbo\ndesign_id=MD5A\n", "a.rbf", "x", "a.dtbo", "y"))));
        assertTrue(id.getMessage().contains("design_id is not a 32-bit hex number"), id.getMessage());
    }

    /**
     * A package whose metadata inflates far past the limit, once honestly and once declaring a
     * size of 300 bytes in the zip's directory (the issue's 4 KB package that inflated to 4 MiB):
     * both refused in one line, and reading stops at the limit, whatever the zip declares.
     */
    @Test
    void metadataThatInflatesPastTheLimitIsRefusedInOneLineWithBoundedMemory() throws Exception {
        String meta = "format=1\nname=d\nkind=vsim\npipelines=4\nplatform=linux-x86_64\nmodel=model/m.so\n#"
            + "x".repeat(16 << 20) + "\n";
        Path honest = zip("honest.zip", Map.of("design.properties", meta, "model/m.so", "x"));
        Path lying = tmp.resolve("lying.zip");
        Files.write(lying, declareSize(Files.readAllBytes(honest), "design.properties", 300));
        assertTrue(Files.size(lying) < 64 * 1024, "a small package: " + Files.size(lying) + " bytes");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (Path p : List.of(honest, lying)) {
            long before = threads.getCurrentThreadAllocatedBytes();
            IOException e = assertThrows(DesignPackage.InvalidDesignException.class, () -> DesignPackage.open(p));
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(p + ": design.properties inflates past 65536 bytes", e.getMessage());
            assertTrue(allocated < 4 << 20, p.getFileName() + ": " + allocated + " bytes allocated for a 16 MiB metadata file");
        }
    }

    @Test
    void anEntryIsReadWithinItsLimitAndAMalformedZipIsOneLine() throws Exception {
        String ok = "format=1\nname=d\nkind=vsim\npipelines=4\nplatform=linux-x86_64\nmodel=model/m.so\n";
        byte[] mib = new byte[1 << 20];
        Path p = tmp.resolve("bigmodel.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(p))) {
            z.putNextEntry(new ZipEntry("design.properties"));
            z.write(ok.getBytes(StandardCharsets.UTF_8));
            z.putNextEntry(new ZipEntry("model/m.so"));
            for (long n = 0; n <= DesignPackage.MAX_ENTRY_BYTES; n += mib.length) {
                z.write(mib);
            }
        }
        Path lying = tmp.resolve("bigmodel-lying.zip");
        Files.write(lying, declareSize(Files.readAllBytes(p), "model/m.so", 10));
        for (Path f : List.of(p, lying)) {
            IOException e = assertThrows(DesignPackage.InvalidDesignException.class, () -> DesignPackage.open(f));
            assertEquals(f + ": entry 'model/m.so' inflates past " + DesignPackage.MAX_ENTRY_BYTES + " bytes", e.getMessage());
        }
        byte[] zipBytes = Files.readAllBytes(zip("cut.zip", Map.of("design.properties", ok, "model/m.so", "x".repeat(100_000))));
        Path cut = tmp.resolve("cut-short.zip");
        Files.write(cut, java.util.Arrays.copyOf(zipBytes, zipBytes.length / 2));
        IOException e = assertThrows(DesignPackage.InvalidDesignException.class, () -> DesignPackage.open(cut));
        assertTrue(e.getMessage().startsWith(cut + ": not a design package (not a readable zip file: "), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    /** The zip with the uncompressed size of one entry in its central directory replaced by {@code size}. */
    private static byte[] declareSize(byte[] zip, String entry, int size) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(zip).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        byte[] name = entry.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i + 46 <= zip.length; i++) {
            if (b.getInt(i) == 0x02014b50 && b.getShort(i + 28) == name.length
                && java.util.Arrays.equals(zip, i + 46, i + 46 + name.length, name, 0, name.length)) {
                b.putInt(i + 24, size);
                return zip;
            }
        }
        throw new AssertionError("no central directory entry " + entry);
    }

    @Test
    void aFaultIsReportedOnlyByAContainerWithADevice() throws Exception {
        FpgaContainer.reportFault(tmp, Map.of(), new IOException("x"));
        assertTrue(Files.notExists(tmp.resolve(FpgaContainer.FAULT_FILE)));
        FpgaContainer.reportFault(tmp, Map.of(FpgaContainer.DEVICE_ENV, "uio:/dev/uio0"), new IOException("timed out\nmore"));
        assertEquals("uio:/dev/uio0\ttimed out\n", Files.readString(tmp.resolve(FpgaContainer.FAULT_FILE)));
        assertEquals("timed out", FpgaContainer.readFault(tmp).orElseThrow());
        Path other = tmp.resolve("other");
        Files.createDirectories(other);
        Files.createSymbolicLink(other.resolve(FpgaContainer.FAULT_FILE), tmp.resolve(FpgaContainer.FAULT_FILE));
        assertTrue(FpgaContainer.readFault(other).isEmpty(), "a link is no report");
    }
}
