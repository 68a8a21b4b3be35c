package io.fpgamr.md5.job;

import io.fpgamr.accel.Emulation;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.NativeArtifacts;

/**
 * The platform a map ran on, as the map itself saw it: its JVM's {@code os.arch}, the platform of
 * the native library its engine loaded ({@code linux-armhf}, ...; {@code none} for the Java engine),
 * and whether its JVM ran under an emulator ({@link Emulation}: an armhf JVM under QEMU user mode).
 * Each map writes it beside its span ({@link TaskSpans}); the summary's {@code maps_by_node} shows it.
 */
public record MapPlatform(String osArch, String nativePlatform, boolean emulated) {
    /** The engine of a map that loaded no native library. */
    public static final String NO_NATIVE = "none";

    public MapPlatform {
        if (osArch.isBlank() || osArch.contains(",") || nativePlatform.isBlank() || nativePlatform.contains(",")) {
            throw new IllegalArgumentException("a map platform is os.arch,native platform,emulated; got " + osArch + "," + nativePlatform);
        }
    }

    /** This JVM's, running {@code engine}. */
    public static MapPlatform of(Md5Engine engine) {
        return of(engine.name());
    }

    /** This JVM's, running the engine named {@code engineName} ({@code java}: no native library). */
    static MapPlatform of(String engineName) {
        return new MapPlatform(System.getProperty("os.arch", "unknown"), engineName.equals("java") ? NO_NATIVE : NativeArtifacts.platform(),
            Emulation.emulated());
    }

    /** {@code arm,linux-armhf,true}: the side file's one line. */
    public String line() {
        return osArch + "," + nativePlatform + "," + emulated;
    }

    /** Parses {@link #line()}; an IllegalArgumentException names what is wrong. */
    public static MapPlatform parse(String line) {
        String[] f = line.strip().split(",", -1);
        if (f.length != 3 || !(f[2].equals("true") || f[2].equals("false"))) {
            throw new IllegalArgumentException("a map platform line is os.arch,native platform,true|false; got '" + line.strip() + "'");
        }
        return new MapPlatform(f[0], f[1], Boolean.parseBoolean(f[2]));
    }
}
