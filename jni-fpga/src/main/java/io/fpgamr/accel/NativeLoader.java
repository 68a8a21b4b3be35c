package io.fpgamr.accel;

import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Finds and loads libfpgamr for the running OS and architecture, the one loader of the project's
 * native code (CPU kernels and FPGA driver alike).
 *
 * <p>The jar carries one build per platform as resources {@code /native/<platform>/libfpgamr.so},
 * platform being {@code linux-x86_64}, {@code linux-aarch64} or {@code linux-armhf}. The library
 * is copied to a cache folder under a name holding its content hash ({@code
 * ${java.io.tmpdir}/fpgamr-native-${user.name}/<platform>/libfpgamr-<sha>.so}; written to a
 * temporary file and renamed, so concurrent containers on one node never see half a file) and
 * loaded from there. System properties: {@code fpgamr.native.lib} loads that file instead;
 * {@code fpgamr.native.dir} moves the cache folder.
 */
public final class NativeLoader {
    public static final String LIB_NAME = "libfpgamr.so";

    private static NativeLibrary library;
    private static UnsatisfiedLinkError failure;
    private static boolean md5Registered;

    private NativeLoader() {
    }

    /** The platform name of this JVM, e.g. {@code linux-x86_64}, or an {@code unsupported-...} name. */
    public static String platform() {
        return platform(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    static String platform(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux")) {
            return "unsupported-" + os.replace(' ', '_') + "-" + arch;
        }
        switch (arch) {
            case "amd64":
            case "x86_64":
                return "linux-x86_64";
            case "aarch64":
            case "arm64":
                return "linux-aarch64";
            case "arm":
            case "armv7l":
            case "armv7":
            case "armhf":
                return "linux-armhf";
            default:
                return "linux-" + arch;
        }
    }

    /** The resource path of the library built for {@code platform}. */
    public static String resourcePath(String platform) {
        return "/native/" + platform + "/" + LIB_NAME;
    }

    /** True if this jar carries a build for the running platform (or fpgamr.native.lib is set). */
    public static boolean available() {
        return System.getProperty("fpgamr.native.lib") != null
                || NativeLoader.class.getResource(resourcePath(platform())) != null;
    }

    /**
     * The loaded library, extracting it on first use.
     *
     * @throws UnsatisfiedLinkError naming the platform when this jar has no build for it, or the
     *     library cannot be extracted or loaded; the same error on every later call
     */
    public static synchronized NativeLibrary library() {
        if (library != null) {
            return library;
        }
        if (failure != null) {
            throw failure;
        }
        try {
            library = NativeLibrary.getInstance(locate(platform()).toString());
            return library;
        } catch (UnsatisfiedLinkError e) {
            failure = e;
            throw e;
        } catch (IOException | RuntimeException e) {
            UnsatisfiedLinkError u = new UnsatisfiedLinkError("cannot load libfpgamr for " + platform() + ": " + e);
            u.initCause(e);
            failure = u;
            throw u;
        }
    }

    /** Binds {@link NativeMd5}'s methods to the library (once). */
    static synchronized void registerMd5() {
        if (!md5Registered) {
            com.sun.jna.Native.register(NativeMd5.class, library());
            md5Registered = true;
        }
    }

    private static Path locate(String platform) throws IOException {
        String explicit = System.getProperty("fpgamr.native.lib");
        if (explicit != null) {
            Path p = Paths.get(explicit).toAbsolutePath();
            if (!Files.isRegularFile(p)) {
                throw new UnsatisfiedLinkError("fpgamr.native.lib=" + explicit + ": no such file");
            }
            return p;
        }
        return extract(resourcePath(platform), platform);
    }

    /**
     * Copies a resource of this jar (a native library) into the cache folder, named by its content
     * hash, and returns the file. For the FPGA driver's companion libraries too.
     */
    public static Path extract(String resource, String platform) throws IOException {
        byte[] bytes;
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("no native libfpgamr for platform " + platform + " (os.name="
                        + System.getProperty("os.name") + ", os.arch=" + System.getProperty("os.arch")
                        + "): resource " + resource + " is not in this jar; it carries "
                        + String.join(", ", packagedPlatforms()));
            }
            bytes = in.readAllBytes();
        }
        String sha = sha256(bytes).substring(0, 16);
        String file = resource.substring(resource.lastIndexOf('/') + 1);
        int dot = file.lastIndexOf('.');
        String name = file.substring(0, dot) + "-" + sha + file.substring(dot);
        Path dir = cacheDir().resolve(platform);
        Files.createDirectories(dir);
        Path target = dir.resolve(name);
        if (Files.isRegularFile(target) && Files.size(target) == bytes.length) {
            return target;
        }
        Path tmp = Files.createTempFile(dir, name, ".tmp");
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        return target;
    }

    /** The platforms whose build this jar carries. */
    public static java.util.List<String> packagedPlatforms() {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String p : new String[] {"linux-x86_64", "linux-aarch64", "linux-armhf"}) {
            if (NativeLoader.class.getResource(resourcePath(p)) != null) {
                out.add(p);
            }
        }
        if (out.isEmpty()) {
            out.add("no platform");
        }
        return out;
    }

    private static Path cacheDir() {
        String dir = System.getProperty("fpgamr.native.dir");
        if (dir != null) {
            return Paths.get(dir);
        }
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_");
        return Paths.get(System.getProperty("java.io.tmpdir"), "fpgamr-native-" + user);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
