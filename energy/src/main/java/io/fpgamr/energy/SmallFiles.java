package io.fpgamr.energy;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a small file others may have put in a folder this process reads (the progress spool): it
 * is opened with {@code O_NOFOLLOW|O_NONBLOCK} (a link is refused, a FIFO does not block the open)
 * and read only when the open file is a regular one of at most the given size. Java's own I/O
 * cannot open without blocking, so this goes through libc (JNA).
 */
final class SmallFiles {
    private static final int O_RDONLY = 0;
    private static final int O_NONBLOCK = 04000;
    private static final int O_CLOEXEC = 02000000;
    /** asm/fcntl.h: ARM and ARM64 have their own value, x86 the generic one (the project's platforms). */
    private static final int O_NOFOLLOW = Platform.isARM() || Platform.ARCH.equals("aarch64") ? 0100000 : 0400000;
    private static final int ELOOP = 40;

    /** Why a file was not read: a link, not a regular file, too large. */
    static final class NotReadable extends IOException {
        NotReadable(String message) {
            super(message);
        }
    }

    private interface LibC extends Library {
        LibC INSTANCE = Native.load("c", LibC.class);

        int open(String path, int flags) throws LastErrorException;

        NativeLong read(int fd, Pointer buf, NativeLong count) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    private SmallFiles() {
    }

    /** The whole file, if it is a regular file (not through a link) of at most {@code max} bytes. */
    static byte[] read(Path file, int max) throws IOException {
        int fd;
        try {
            fd = LibC.INSTANCE.open(file.toString(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == ELOOP) {
                throw new NotReadable("a symbolic link");
            }
            throw new IOException("cannot open it (errno " + e.getErrorCode() + ")");
        }
        try {
            // The open file itself, through /proc (its magic link leads to what fd holds, whatever the name says now).
            BasicFileAttributes a = Files.readAttributes(Path.of("/proc/self/fd/" + fd), BasicFileAttributes.class);
            if (!a.isRegularFile()) {
                throw new NotReadable("not a regular file (" + (a.isDirectory() ? "a folder" : "a FIFO, socket or device") + ")");
            }
            if (a.size() > max) {
                throw new NotReadable(a.size() + " bytes, more than " + max);
            }
            try (Memory buf = new Memory(max + 1L)) {
                long n = 0;
                for (long r; n < buf.size() && (r = LibC.INSTANCE.read(fd, buf.share(n), new NativeLong(buf.size() - n)).longValue()) > 0;) {
                    n += r;
                }
                if (n > max) {
                    throw new NotReadable("more than " + max + " bytes");
                }
                return buf.getByteArray(0, (int) n);
            }
        } catch (LastErrorException e) {
            throw new IOException("cannot read it (errno " + e.getErrorCode() + ")");
        } finally {
            LibC.INSTANCE.close(fd);
        }
    }
}
