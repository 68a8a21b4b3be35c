package io.fpgamr.energy.source;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reading one-value sysfs attributes, with errors that name the file. */
final class SysfsFiles {
    private SysfsFiles() {
    }

    static String readString(Path file) throws IOException {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
        } catch (AccessDeniedException e) {
            throw new IOException(file + ": permission denied", e);
        } catch (NoSuchFileException e) {
            throw new IOException(file + ": no such file", e);
        }
    }

    static long readLong(Path file) throws IOException {
        String s = readString(file);
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IOException(file + ": not an integer: '" + s + "'", e);
        }
    }
}
