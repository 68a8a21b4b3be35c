package io.fpgamr.accel;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Opens a file that someone else may have put or swapped there (a job's localized design package,
 * a user's {@code --design}) without ever blocking on it: it is looked at without following a link,
 * then opened with {@code O_NONBLOCK} (and {@code O_NOFOLLOW} when links are refused), and kept only
 * when the open file is the regular file that was looked at, of at most the given size. A FIFO is
 * never opened for reading in blocking mode (that open waits for a writer, forever if the file's
 * owner wants), which Java's own I/O cannot promise, so the open goes through libc (JNA).
 *
 * <p>The open file is then read through {@link Open#path()}, {@code /proc/self/fd/N}: its magic link
 * leads to the inode the descriptor holds, whatever the name now points at.
 */
public final class RegularFiles {
    private static final int O_RDONLY = 0;
    private static final int O_NONBLOCK = 04000;
    private static final int O_CLOEXEC = 02000000;
    /** asm/fcntl.h: ARM and ARM64 have their own value, x86 the generic one (the project's platforms). */
    private static final int O_NOFOLLOW = Platform.isARM() || Platform.ARCH.equals("aarch64") ? 0100000 : 0400000;
    private static final int ENOENT = 2;
    private static final int ELOOP = 40;

    private interface LibC extends Library {
        LibC INSTANCE = Native.load("c", LibC.class);

        int open(String path, int flags) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    /** Why a file was not opened or read, in a few words without its name: a link, a FIFO, too large. */
    public static final class Refused extends IOException {
        public Refused(String message) {
            super(message);
        }
    }

    /**
     * An open regular file (its descriptor, and its file key, size and modification time when it
     * was opened): read it through {@link #path()} while this is open.
     */
    public record Open(int fd, Object fileKey, long size, long modifiedMs) implements Closeable {
        /** {@code /proc/self/fd/N}: the open file itself, for Java's I/O (opening it opens this inode again). */
        public Path path() {
            return Path.of("/proc/self/fd/" + fd);
        }

        /** The file's identity as opened: device and inode, size and modification time. */
        public String identity() {
            return fileKey + "|" + size + "|" + modifiedMs;
        }

        @Override
        public void close() {
            try {
                LibC.INSTANCE.close(fd);
            } catch (LastErrorException e) {
                // Nothing was written through it.
            }
        }
    }

    private RegularFiles() {
    }

    /**
     * Opens {@code file} for reading if it is a regular file of at most {@code maxBytes} bytes;
     * a link is refused unless {@code followLinks} (then its target must be such a file). A file
     * that is not there (or no longer) is a {@link NoSuchFileException}, anything else refused a
     * {@link Refused}.
     */
    public static Open open(Path file, long maxBytes, boolean followLinks) throws IOException {
        LinkOption[] how = followLinks ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        BasicFileAttributes seen = Files.readAttributes(file, BasicFileAttributes.class, how);
        check(seen, maxBytes);
        int fd;
        try {
            fd = LibC.INSTANCE.open(file.toString(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW));
        } catch (LastErrorException e) {
            throw switch (e.getErrorCode()) {
                case ELOOP -> new Refused("a symbolic link");
                case ENOENT -> new NoSuchFileException(file.toString());
                default -> new IOException("cannot open it (errno " + e.getErrorCode() + ")");
            };
        }
        try {
            BasicFileAttributes a = Files.readAttributes(Path.of("/proc/self/fd/" + fd), BasicFileAttributes.class);
            check(a, maxBytes);
            if (!Objects.equals(a.fileKey(), seen.fileKey())) {
                throw new Refused("replaced while it was being opened");
            }
            return new Open(fd, a.fileKey(), a.size(), a.lastModifiedTime().toMillis());
        } catch (IOException | RuntimeException e) {
            LibC.INSTANCE.close(fd);
            throw e;
        }
    }

    private static void check(BasicFileAttributes a, long maxBytes) throws Refused {
        if (a.isSymbolicLink()) {
            throw new Refused("a symbolic link");
        }
        if (!a.isRegularFile()) {
            throw new Refused("not a regular file (" + (a.isDirectory() ? "a folder" : "a FIFO, socket or device") + ")");
        }
        if (a.size() > maxBytes) {
            throw new Refused(a.size() + " bytes, more than " + maxBytes);
        }
    }
}
