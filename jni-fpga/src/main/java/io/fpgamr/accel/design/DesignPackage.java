package io.fpgamr.accel.design;

import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.accel.NativeArtifacts;
import io.fpgamr.accel.RegularFiles;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * An FPGA design as one file that the job ships and the NodeManager loads: a zip holding
 * {@value #METADATA} and the design's files. Two kinds:
 *
 * <ul>
 *   <li>{@code vsim}: a simulated device's "bitstream", the Verilated model library
 *       ({@code libfpgamr-vsim-pN.so}) for one platform ({@code linux-x86_64}, ...);
 *   <li>{@code rbf}: real hardware, the FPGA configuration ({@code .rbf}) and the device-tree
 *       overlay ({@code .dtbo}) that the Linux FPGA manager applies, and the DESIGN_ID the
 *       accelerator must answer with afterwards.
 * </ul>
 *
 * <p>A design is identified by the SHA-256 of the package file, never by its path or name: the
 * NodeManager reprograms a device only when a container asks for a different hash. Packages
 * written by {@link #createVsim} and {@link #createRbf} are byte-for-byte reproducible (sorted
 * entries, fixed timestamps), so rebuilding the same files gives the same design.
 *
 * <p>{@value #METADATA} keys: {@code format} (1), {@code name}, {@code kind} ({@code vsim} or
 * {@code rbf}), {@code pipelines}; for vsim {@code model} (entry name) and {@code platform}; for
 * rbf {@code rbf}, {@code overlay} (entry names) and {@code design_id} (hex, e.g.
 * {@code 0x4d443541}).
 */
public final class DesignPackage {
    public static final String METADATA = "design.properties";
    public static final int FORMAT = 1;
    /** DESIGN_ID register of every fpgamr MD5 accelerator: "MD5A". */
    public static final String MD5A_DESIGN_ID = io.fpgamr.accel.fpga.RegisterMap.current().designId();
    private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(2000, 1, 1, 0, 0);
    /**
     * Limits on what a package may hold, checked on the bytes actually read or inflated, never on
     * the sizes the zip declares (a package comes from whoever submitted the job).
     */
    public static final int MAX_METADATA_BYTES = 64 * 1024;
    public static final long MAX_ENTRY_BYTES = 128L << 20;
    public static final long MAX_PACKAGE_BYTES = 256L << 20;
    public static final int MAX_ENTRIES = 64;
    /**
     * The central directory's size as its end record declares it: 64 entries of at most a few
     * hundred bytes each (a header of 46 bytes, a name, a zip64 or time field) fit with room.
     */
    public static final int MAX_CENTRAL_DIRECTORY_BYTES = 64 * 1024;
    /** APPNOTE.TXT 4.3.16 and 4.3.15: the end-of-central-directory record and the zip64 locator before it. */
    private static final int END_RECORD_SIGNATURE = 0x06054b50;
    private static final int END_RECORD_BYTES = 22;
    private static final int ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
    private static final int ZIP64_LOCATOR_BYTES = 20;

    public enum Kind { VSIM, RBF }

    private final Path file;
    private final String sha256;
    private final Properties meta;
    private final Kind kind;
    private final int pipelines;

    private DesignPackage(Path file, String sha256, Properties meta, Kind kind, int pipelines) {
        this.file = file;
        this.sha256 = sha256;
        this.meta = meta;
        this.kind = kind;
        this.pipelines = pipelines;
    }

    /**
     * Reads and checks a package; an {@link InvalidDesignException} says in one line what is wrong
     * with it. Every entry the metadata names is inflated once, within {@link #MAX_ENTRY_BYTES}, so a
     * package that opens also extracts.
     */
    public static DesignPackage open(Path file) throws IOException {
        try (RegularFiles.Open f = openRegular(file, true)) {
            checkCentralDirectory(f, file); // first: refused from its tail, not after hashing all of it
            String hash = copy(f, file, OutputStream.nullOutputStream());
            return read(file, f.path(), hash);
        }
    }

    /** Reads the package's metadata and inflates its entries from {@code source} (the open {@code file}). */
    private static DesignPackage read(Path file, Path source, String hash) throws IOException {
        Properties meta = new Properties();
        try (ZipFile zip = new ZipFile(source.toFile())) {
            if (zip.size() > MAX_ENTRIES) {
                throw new InvalidDesignException(file + ": " + zip.size() + " entries, more than a design package may have (" + MAX_ENTRIES + ")");
            }
            ZipEntry m = zip.getEntry(METADATA);
            if (m == null) {
                throw new InvalidDesignException(file + ": not a design package: no " + METADATA);
            }
            byte[] text;
            try (InputStream in = zip.getInputStream(m)) {
                text = in.readNBytes(MAX_METADATA_BYTES + 1);
            }
            if (text.length > MAX_METADATA_BYTES) {
                throw new InvalidDesignException(file + ": " + METADATA + " inflates past " + MAX_METADATA_BYTES + " bytes");
            }
            meta.load(new StringReader(new String(text, StandardCharsets.UTF_8)));
            DesignPackage d = check(file, hash, meta);
            for (String key : entryKeys(d.kind)) {
                String entry = meta.getProperty(key).strip();
                ZipEntry e = zip.getEntry(entry);
                if (e == null) {
                    throw new InvalidDesignException(file + ": " + key + " entry '" + entry + "' is missing from the package");
                }
                try (InputStream in = zip.getInputStream(e)) {
                    copyBounded(in, OutputStream.nullOutputStream(), MAX_ENTRY_BYTES, file + ": entry '" + entry + "' inflates past");
                }
            }
            return d;
        } catch (ZipException | EOFException e) {
            throw new InvalidDesignException(file + ": not a design package (not a readable zip file: " + oneLine(e) + ")");
        } catch (IllegalArgumentException e) {
            throw new InvalidDesignException(file + ": " + METADATA + " is malformed: " + oneLine(e));
        }
    }

    private static DesignPackage check(Path file, String hash, Properties meta) throws InvalidDesignException {
        String format = meta.getProperty("format", "");
        if (!format.equals(Integer.toString(FORMAT))) {
            throw new InvalidDesignException(file + ": design package format '" + oneLine(format) + "', this build reads format " + FORMAT);
        }
        String name = require(file, meta, "name");
        if (!name.matches("[A-Za-z0-9._+-]{1,100}")) {
            throw new InvalidDesignException(file + ": bad design name '" + oneLine(name) + "'");
        }
        Kind kind;
        try {
            kind = Kind.valueOf(require(file, meta, "kind").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidDesignException(file + ": kind must be vsim or rbf, got '" + oneLine(meta.getProperty("kind")) + "'");
        }
        int pipelines;
        try {
            pipelines = Integer.parseInt(require(file, meta, "pipelines"));
        } catch (NumberFormatException e) {
            throw new InvalidDesignException(file + ": pipelines is not a number: '" + oneLine(meta.getProperty("pipelines")) + "'");
        }
        if (pipelines < 1 || pipelines > 64) {
            throw new InvalidDesignException(file + ": pipelines must be in 1..64, got " + pipelines);
        }
        for (String key : entryKeys(kind)) {
            checkEntryName(file, key, require(file, meta, key));
        }
        if (kind == Kind.VSIM) {
            require(file, meta, "platform");
        } else {
            parseDesignId(file, require(file, meta, "design_id"));
        }
        return new DesignPackage(file, hash, meta, kind, pipelines);
    }

    /** The keys of the entries a kind of package holds: the model, or the configuration and the overlay. */
    private static List<String> entryKeys(Kind kind) {
        return kind == Kind.VSIM ? List.of("model") : List.of("rbf", "overlay");
    }

    /**
     * Copies a stream, refusing it ({@code what} and the limit in one line) once more than
     * {@code limit} bytes came out, whatever a zip says its size is.
     */
    private static void copyBounded(InputStream in, OutputStream out, long limit, String what) throws IOException {
        byte[] buf = new byte[1 << 16];
        long total = 0;
        for (int n; (n = in.read(buf)) > 0;) {
            total += n;
            if (total > limit) {
                throw new InvalidDesignException(what + " " + limit + " bytes");
            }
            out.write(buf, 0, n);
        }
    }

    /** A value or message fit for one line of an error. */
    private static String oneLine(Object o) {
        String s = o instanceof Throwable t ? String.valueOf(t.getMessage()) : String.valueOf(o);
        s = s.replaceAll("[\\x00-\\x1f\\x7f]+", " ").strip();
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    private static String require(Path file, Properties meta, String key) throws InvalidDesignException {
        String v = meta.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new InvalidDesignException(file + ": " + METADATA + " lacks '" + key + "'");
        }
        return v.strip();
    }

    private static void checkEntryName(Path file, String key, String entry) throws InvalidDesignException {
        if (!entry.matches("[A-Za-z0-9._+/-]{1,200}") || entry.startsWith("/") || entry.equals(METADATA)
            || List.of(entry.split("/")).stream().anyMatch(p -> p.isEmpty() || p.equals(".") || p.equals(".."))) {
            throw new InvalidDesignException(file + ": bad entry name '" + oneLine(entry) + "' (" + key + ")");
        }
    }

    /** A DESIGN_ID as the kernel's sysfs attribute prints it: {@code 0x} and 8 lowercase hex digits. */
    public static String normalizeDesignId(String id) {
        try {
            return parseDesignId(null, id);
        } catch (InvalidDesignException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static String parseDesignId(Path file, String id) throws InvalidDesignException {
        String s = id.strip().toLowerCase(Locale.ROOT);
        if (s.startsWith("0x")) {
            s = s.substring(2);
        }
        try {
            long v = Long.parseLong(s, 16);
            if (s.isEmpty() || v > 0xffffffffL) {
                throw new NumberFormatException();
            }
            return String.format("0x%08x", v);
        } catch (NumberFormatException e) {
            throw new InvalidDesignException((file != null ? file + ": " : "") + "design_id is not a 32-bit hex number: '" + id + "'");
        }
    }

    public Path file() {
        return file;
    }

    /** Lowercase hex SHA-256 of the package file: the design's identity. */
    public String sha256() {
        return sha256;
    }

    public String name() {
        return meta.getProperty("name").strip();
    }

    public Kind kind() {
        return kind;
    }

    public int pipelines() {
        return pipelines;
    }

    /** vsim: the platform the model library was built for, e.g. {@code linux-x86_64}. */
    public String platform() {
        return meta.getProperty("platform", "").strip();
    }

    /** vsim: the entry holding the model library. */
    public String modelEntry() {
        return meta.getProperty("model", "").strip();
    }

    /** rbf: the entry holding the FPGA configuration. */
    public String rbfEntry() {
        return meta.getProperty("rbf", "").strip();
    }

    /** rbf: the entry holding the device-tree overlay. */
    public String overlayEntry() {
        return meta.getProperty("overlay", "").strip();
    }

    /** The DESIGN_ID the loaded design answers with ({@code 0x4d443541} for every fpgamr accelerator). */
    public String designId() {
        String id = meta.getProperty("design_id");
        return id == null ? MD5A_DESIGN_ID : normalizeDesignId(id);
    }

    /** The metadata, a copy. */
    public Properties metadata() {
        Properties p = new Properties();
        p.putAll(meta);
        return p;
    }

    /** {@code md5acc-vsim-p4 (vsim, 4 pipelines, sha256 0123456789ab)}. */
    public String describe() {
        return name() + " (" + kind.name().toLowerCase(Locale.ROOT) + ", " + pipelines + " pipeline" + (pipelines == 1 ? "" : "s")
            + ", sha256 " + sha256.substring(0, 12) + ")";
    }

    /**
     * Writes one entry of the package to {@code target}, atomically: readers of {@code target} see
     * the old file or the complete new one, never a partial file. Returns the lowercase hex SHA-256
     * of what it wrote (what a reader of {@code target} must find, unless another process changed it).
     */
    public String extract(String entry, Path target) throws IOException {
        try (ZipFile zip = new ZipFile(file.toFile())) {
            ZipEntry e = zip.getEntry(entry);
            if (e == null) {
                throw new InvalidDesignException(file + ": no entry '" + entry + "'");
            }
            MessageDigest md = sha256Digest();
            try (InputStream in = new DigestInputStream(zip.getInputStream(e), md)) {
                AtomicFiles.write(target, out -> copyBounded(in, out, MAX_ENTRY_BYTES, file + ": entry '" + entry + "' inflates past"));
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (ZipException | EOFException e) {
            throw new InvalidDesignException(file + ": entry '" + entry + "' is unreadable: " + oneLine(e));
        }
    }

    /** Packs a simulated device's design: the model library {@code libfpgamr-vsim-pN.so} of this platform. */
    public static DesignPackage createVsim(Path out, int pipelines, Path modelLibrary) throws IOException {
        return createVsim(out, pipelines, modelLibrary, NativeArtifacts.platform());
    }

    /**
     * Packs a simulated device's design for the containers of {@code platform}: the model library
     * built for it (an ARM node's containers load the armhf build, whatever the launcher runs on).
     */
    public static DesignPackage createVsim(Path out, int pipelines, Path modelLibrary, String platform) throws IOException {
        Map<String, String> meta = new TreeMap<>();
        String entry = "model/" + NativeArtifacts.vsimModel(pipelines); // whatever the file's (cache) name
        meta.put("name", "md5acc-vsim-p" + pipelines);
        meta.put("kind", "vsim");
        meta.put("pipelines", Integer.toString(pipelines));
        meta.put("platform", platform);
        meta.put("model", entry);
        return write(out, meta, Map.of(entry, modelLibrary));
    }

    /** Packs a hardware design: the FPGA configuration, its device-tree overlay and the DESIGN_ID to expect. */
    public static DesignPackage createRbf(Path out, String name, int pipelines, String designId, Path rbf, Path overlay)
        throws IOException {
        Map<String, String> meta = new TreeMap<>();
        String rbfEntry = "fpga/" + rbf.getFileName();
        String dtboEntry = "fpga/" + overlay.getFileName();
        meta.put("name", name);
        meta.put("kind", "rbf");
        meta.put("pipelines", Integer.toString(pipelines));
        meta.put("design_id", normalizeDesignId(designId));
        meta.put("rbf", rbfEntry);
        meta.put("overlay", dtboEntry);
        return write(out, meta, Map.of(rbfEntry, rbf, dtboEntry, overlay));
    }

    private static DesignPackage write(Path out, Map<String, String> meta, Map<String, Path> files) throws IOException {
        StringBuilder props = new StringBuilder("# fpgamr design package\nformat=" + FORMAT + "\n");
        meta.forEach((k, v) -> props.append(k).append('=').append(v).append('\n'));
        Map<String, byte[]> entries = new TreeMap<>();
        entries.put(METADATA, props.toString().getBytes(StandardCharsets.ISO_8859_1));
        for (Map.Entry<String, Path> f : files.entrySet()) {
            entries.put(f.getKey(), Files.readAllBytes(f.getValue()));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                ZipEntry z = new ZipEntry(e.getKey());
                z.setTimeLocal(ENTRY_TIME);
                zip.putNextEntry(z);
                zip.write(e.getValue());
                zip.closeEntry();
            }
        }
        AtomicFiles.write(out, o -> bytes.writeTo(o));
        return open(out);
    }

    /** Lowercase hex SHA-256 of a file. */
    public static String sha256(Path file) throws IOException {
        MessageDigest md = sha256Digest();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /**
     * Opens a package file without blocking on it ({@link RegularFiles}): a regular file of at most
     * {@link #MAX_PACKAGE_BYTES}, through a link only when {@code followLinks} (a user's own
     * {@code --design} may be one; a job's localized package, read by the NodeManager, may not).
     */
    public static RegularFiles.Open openRegular(Path file, boolean followLinks) throws IOException {
        try {
            return RegularFiles.open(file, MAX_PACKAGE_BYTES, followLinks);
        } catch (RegularFiles.Refused e) {
            throw new InvalidDesignException(file + ": " + e.getMessage() + " (a design package is a regular file of at most "
                + MAX_PACKAGE_BYTES + " bytes)");
        } catch (java.nio.file.NoSuchFileException e) {
            throw new InvalidDesignException(file + ": no such file");
        }
    }

    /**
     * Copies an open package file ({@code named} in messages) to {@code target}, refusing it once
     * more than {@link #MAX_PACKAGE_BYTES} came out (counted as it is read: the file may be another
     * user's, growing); returns the SHA-256 of the bytes copied.
     */
    public static String copy(RegularFiles.Open from, Path named, Path target) throws IOException {
        try (OutputStream out = Files.newOutputStream(target)) {
            return copy(from, named, out);
        }
    }

    private static String copy(RegularFiles.Open from, Path named, OutputStream out) throws IOException {
        MessageDigest md = sha256Digest();
        try (InputStream in = new DigestInputStream(Files.newInputStream(from.path()), md)) {
            copyBounded(in, out, MAX_PACKAGE_BYTES, named + ": a design package may not be larger than");
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /**
     * Refuses a package whose central directory is larger than a design package's can be, before
     * anything allocates for it ({@link ZipFile} reads the whole central directory, of the size the
     * end record declares, into memory): the end-of-central-directory record is read here from the
     * file's tail (APPNOTE.TXT 4.3.16), and its entry count and directory size are bounded by
     * {@link #MAX_ENTRIES} and {@link #MAX_CENTRAL_DIRECTORY_BYTES}. The record must end the file
     * (the one {@link ZipFile} takes then), and a zip64 one is refused (a package never needs it).
     */
    public static void checkCentralDirectory(RegularFiles.Open from, Path named) throws IOException {
        try (FileChannel ch = FileChannel.open(from.path())) {
            long size = ch.size();
            int n = (int) Math.min(size, END_RECORD_BYTES + 0xffff);
            if (n < END_RECORD_BYTES) {
                throw new InvalidDesignException(named + ": not a design package (not a readable zip file: only " + size + " bytes)");
            }
            ByteBuffer tail = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
            if (!readFully(ch, tail, size - n)) {
                throw new InvalidDesignException(named + ": changed while it was read");
            }
            for (int i = n - END_RECORD_BYTES; i >= 0; i--) {
                if (tail.getInt(i) != END_RECORD_SIGNATURE) {
                    continue;
                }
                if (i + END_RECORD_BYTES + Short.toUnsignedInt(tail.getShort(i + 20)) != n) {
                    throw new InvalidDesignException(named + ": not a design package (not a readable zip file: its end record does not end the file)");
                }
                long locator = size - n + i - ZIP64_LOCATOR_BYTES;
                ByteBuffer sig = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                if (locator >= 0 && readFully(ch, sig, locator) && sig.getInt(0) == ZIP64_LOCATOR_SIGNATURE) {
                    throw new InvalidDesignException(named + ": not a design package (not a readable zip file: zip64, which a design package never needs)");
                }
                long entries = Math.max(Short.toUnsignedInt(tail.getShort(i + 8)), Short.toUnsignedInt(tail.getShort(i + 10)));
                long bytes = Integer.toUnsignedLong(tail.getInt(i + 12));
                if (entries > MAX_ENTRIES || bytes > MAX_CENTRAL_DIRECTORY_BYTES) {
                    throw new InvalidDesignException(named + ": its zip end record declares a central directory of " + entries
                        + " entries in " + bytes + " bytes, more than a design package may have (" + MAX_ENTRIES + " entries, "
                        + MAX_CENTRAL_DIRECTORY_BYTES + " bytes)");
                }
                return;
            }
            throw new InvalidDesignException(named + ": not a design package (not a readable zip file: no end record)");
        }
    }

    /** Fills {@code buf} from {@code position}; false when the file ends first. */
    private static boolean readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long p = position;
        while (buf.hasRemaining()) {
            int r = ch.read(buf, p);
            if (r < 0) {
                return false;
            }
            p += r;
        }
        return true;
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The simulated device's model library with {@code pipelines} pipelines, where
     * {@link NativeArtifacts} finds it ({@code $FPGAMR_VSIM_DIR}, {@code -Dfpgamr.vsim.dir}, this
     * jar, the checkout's build).
     */
    public static Path findVsimModel(int pipelines) throws IOException {
        return findVsimModel(pipelines, NativeArtifacts.platform());
    }

    /** The model with {@code pipelines} pipelines built for {@code platform}; the error names the command that builds it. */
    public static Path findVsimModel(int pipelines, String platform) throws IOException {
        String lib = NativeArtifacts.vsimModel(pipelines);
        String build = "make -C jni-fpga/native/fpga vsim-libs" + (platform.equals(NativeArtifacts.platform()) ? ""
            : " PLATFORM=" + platform + " VSIM_PIPES=" + pipelines);
        return NativeArtifacts.find(platform, lib).orElseThrow(() -> new IOException("no simulated-device model " + lib + " for "
            + platform + " (looked in " + String.join(", ", NativeArtifacts.searched(platform, lib)) + "; build it: " + build + ")"));
    }

    /** A design package that is unreadable or inconsistent. */
    public static final class InvalidDesignException extends IOException {
        public InvalidDesignException(String message) {
            super(message);
        }
    }

    @Override
    public String toString() {
        return describe();
    }
}
