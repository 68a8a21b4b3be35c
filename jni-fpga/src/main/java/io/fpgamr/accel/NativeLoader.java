package io.fpgamr.accel;

import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Loads libfpgamr for the running OS and architecture, the one loader of the project's native code
 * (CPU kernels and FPGA driver alike): the file {@link NativeArtifacts} finds (by default the
 * jar's build for the platform, copied to a content-hashed name in a cache folder), loaded once
 * with JNA. Another binding (the FPGA engine) registers its own direct-mapped class on the same
 * library: {@code Native.register(MyNative.class, NativeLoader.library())}.
 */
public final class NativeLoader {
    private static NativeLibrary library;
    private static UnsatisfiedLinkError failure;
    private static boolean md5Registered;

    private NativeLoader() {
    }

    /**
     * The loaded library, found on first use.
     *
     * @throws UnsatisfiedLinkError naming the platform and where it looked when there is no build
     *     for it, or the library cannot be loaded; the same error on every later call
     */
    public static synchronized NativeLibrary library() {
        if (library != null) {
            return library;
        }
        if (failure != null) {
            throw failure;
        }
        try {
            Path lib = NativeArtifacts.find(NativeArtifacts.LIBRARY).orElseThrow(() -> new UnsatisfiedLinkError(
                    "no native libfpgamr for platform " + NativeArtifacts.platform() + " (os.name=" + System.getProperty("os.name")
                            + ", os.arch=" + System.getProperty("os.arch") + "): looked in "
                            + String.join(", ", NativeArtifacts.searched(NativeArtifacts.LIBRARY))));
            library = NativeLibrary.getInstance(lib.toString());
            return library;
        } catch (UnsatisfiedLinkError e) {
            failure = e;
            throw e;
        } catch (IOException | RuntimeException e) {
            UnsatisfiedLinkError u = new UnsatisfiedLinkError("cannot load libfpgamr for " + NativeArtifacts.platform() + ": " + e);
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
}
