package io.fpgamr.accel;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the project's native libraries are, for the running platform: libfpgamr.so (the CPU
 * kernels and the FPGA driver) and the simulated devices' models libfpgamr-vsim-pN.so. The one
 * resolver of them: the loader, the FPGA engine, the design packages and the NodeManager plugin
 * all ask here. A library is looked for, in this order:
 * <ol>
 *   <li>libfpgamr.so: the file {@code -Dfpgamr.native.lib} names; a model: in {@code $FPGAMR_VSIM_DIR}
 *       or {@code -Dfpgamr.vsim.dir};
 *   <li>in this jar ({@code /native/<platform>/<name>}), copied into a cache folder under a name
 *       holding its content hash ({@code ${java.io.tmpdir}/fpgamr-native-${user.name}/<platform>/};
 *       {@code -Dfpgamr.native.dir} moves it), written atomically ({@link AtomicFiles}), so that
 *       concurrent containers and checkouts never see half a file or another build's;
 *   <li>in the checkout this code was built in ({@code jni-fpga/native/build/<platform>/<name>}).
 * </ol>
 */
public final class NativeArtifacts {
    /** The CPU kernels' and FPGA driver's library. */
    public static final String LIBRARY = "libfpgamr.so";
    /** The platforms the build makes libraries for. */
    public static final List<String> PLATFORMS = List.of("linux-x86_64", "linux-aarch64", "linux-armhf");

    private NativeArtifacts() {
    }

    /** The simulated device's model with {@code pipelines} pipelines: {@code libfpgamr-vsim-pN.so}. */
    public static String vsimModel(int pipelines) {
        return "libfpgamr-vsim-p" + pipelines + ".so";
    }

    /** The platform name of this JVM, e.g. {@code linux-x86_64}, or an {@code unsupported-...} name. */
    public static String platform() {
        return platform(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    /** The platform name of a JVM of {@code os.name} and {@code os.arch} (a node's, as its profile gives them). */
    public static String platform(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux")) {
            return "unsupported-" + os.replace(' ', '_') + "-" + arch;
        }
        return switch (arch) {
            case "amd64", "x86_64" -> "linux-x86_64";
            case "aarch64", "arm64" -> "linux-aarch64";
            case "arm", "armv7l", "armv7", "armhf" -> "linux-armhf";
            default -> "linux-" + arch;
        };
    }

    /** The resource path of library {@code name} built for {@code platform}. */
    public static String resource(String platform, String name) {
        return "/native/" + platform + "/" + name;
    }

    /** True if this jar carries {@code name} for the running platform. */
    public static boolean packaged(String name) {
        return NativeArtifacts.class.getResource(resource(platform(), name)) != null;
    }

    /** The platforms whose libfpgamr.so this jar carries. */
    public static List<String> packagedPlatforms() {
        List<String> out = new ArrayList<>();
        for (String p : PLATFORMS) {
            if (NativeArtifacts.class.getResource(resource(p, LIBRARY)) != null) {
                out.add(p);
            }
        }
        return out;
    }

    /** The library {@code name} of this platform as a file, where the order above finds it first. */
    public static Optional<Path> find(String name) throws IOException {
        return find(platform(), name);
    }

    /**
     * The library {@code name} built for {@code platform} as a file: for this JVM's platform as
     * {@link #find(String)}; for another (an ARM node's simulated model, which an x86 launcher packs
     * into the design its containers load) in this jar or the checkout's build only, for the
     * explicit places name this platform's files.
     */
    public static Optional<Path> find(String platform, String name) throws IOException {
        for (Path p : explicit(platform, name)) {
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        Optional<Path> jar = extract(platform, name);
        if (jar.isPresent()) {
            return jar;
        }
        for (Path p : checkout(platform, name)) {
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Where {@link #find} looked for {@code name}, for an error message. */
    public static List<String> searched(String name) {
        return searched(platform(), name);
    }

    /** Where {@link #find(String, String)} looked for {@code name} of {@code platform}, for an error message. */
    public static List<String> searched(String platform, String name) {
        List<String> where = new ArrayList<>();
        explicit(platform, name).forEach(p -> where.add(p.toString()));
        where.add("this jar's " + resource(platform, name) + " (it carries " + String.join(", ", packagedPlatforms()) + ")");
        checkout(platform, name).forEach(p -> where.add(p.toString()));
        return where;
    }

    private static List<Path> explicit(String platform, String name) {
        List<Path> out = new ArrayList<>();
        if (!platform.equals(platform())) {
            return out;
        }
        if (name.equals(LIBRARY)) {
            String lib = System.getProperty("fpgamr.native.lib");
            if (lib != null && !lib.isBlank()) {
                out.add(Path.of(lib).toAbsolutePath());
            }
            return out;
        }
        for (String dir : new String[] {System.getenv("FPGAMR_VSIM_DIR"), System.getProperty("fpgamr.vsim.dir")}) {
            if (dir != null && !dir.isBlank()) {
                out.add(Path.of(dir, name));
            }
        }
        return out;
    }

    /** The jar's copy of {@code name} of {@code platform}, extracted into the cache folder; empty when the jar has none. */
    private static Optional<Path> extract(String platform, String name) throws IOException {
        byte[] bytes;
        try (InputStream in = NativeArtifacts.class.getResourceAsStream(resource(platform, name))) {
            if (in == null) {
                return Optional.empty();
            }
            bytes = in.readAllBytes();
        }
        int dot = name.lastIndexOf('.');
        if (dot < 0) {  // a program (fpgamr-doctor)
            dot = name.length();
        }
        String file = name.substring(0, dot) + "-" + sha256(bytes).substring(0, 16) + name.substring(dot);
        Path target = cacheDir().resolve(platform).resolve(file);
        if (!Files.isRegularFile(target) || Files.size(target) != bytes.length) {
            AtomicFiles.write(target, bytes);
        }
        return Optional.of(target);
    }

    /** The checkout's build folder of {@code platform}, looked for above the code's location. */
    private static List<Path> checkout(String platform, String name) {
        List<Path> out = new ArrayList<>();
        try {
            Path here = Path.of(NativeArtifacts.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = here; p != null; p = p.getParent()) {
                Path build = p.resolve("jni-fpga/native/build").resolve(platform);
                if (Files.isDirectory(build)) {
                    out.add(build.resolve(name));
                }
            }
        } catch (URISyntaxException | RuntimeException e) {
            // No code location (an unusual class loader): the other places only.
        }
        return out;
    }

    private static Path cacheDir() {
        String dir = System.getProperty("fpgamr.native.dir");
        if (dir != null) {
            return Path.of(dir);
        }
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "fpgamr-native-" + user);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
