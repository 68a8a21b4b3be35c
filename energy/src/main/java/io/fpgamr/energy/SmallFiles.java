package io.fpgamr.energy;

import io.fpgamr.accel.RegularFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;

/**
 * Reads a small file others may have put in a folder this process reads (the progress spool):
 * opened without following a link and without blocking (jni-fpga's {@link RegularFiles}: a FIFO
 * does not block the open) and read only when the open file is a regular one of at most the given
 * size, with its owner (the open inode's, whatever the name is by then).
 */
final class SmallFiles {
    private SmallFiles() {
    }

    /** A file's bytes and the user who owns it. */
    record Content(byte[] bytes, UserPrincipal owner) {
    }

    /** The whole file and its owner, if it is a regular file (not through a link) of at most {@code max} bytes. */
    static Content read(Path file, int max) throws IOException {
        try (RegularFiles.Open f = RegularFiles.open(file, max, false); InputStream in = Files.newInputStream(f.path())) {
            byte[] b = in.readNBytes(max + 1);
            if (b.length > max) {
                throw new RegularFiles.Refused("more than " + max + " bytes");
            }
            // /proc/self/fd/N leads to the inode the descriptor holds: the owner of what was read,
            // not of a file swapped in under the name since.
            return new Content(b, Files.getOwner(f.path()));
        }
    }
}
