package io.fpgamr.md5.cli;

import io.fpgamr.md5.run.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Reads and checks target digests: given on the command line, or a hashcat-style hash list file. */
final class Targets {
    private static final Pattern MD5_HEX = Pattern.compile("[0-9a-fA-F]{32}");

    private Targets() {
    }

    static String check(String digest, String where) throws UsageException {
        if (!MD5_HEX.matcher(digest).matches()) {
            throw new UsageException(where + ": '" + digest + "' is not an MD5 digest (32 hex digits)");
        }
        return digest.toLowerCase(Locale.ROOT);
    }

    /** One digest per line; blank lines and lines starting with '#' are skipped. */
    static List<String> readHashList(String file) throws UsageException {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException("--hash-list: no such file: " + file);
        } catch (IOException e) {
            throw new UsageException("--hash-list: cannot read " + file + ": " + e.getMessage());
        }
        List<String> digests = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                digests.add(check(line, file + ":" + (i + 1)));
            }
        }
        if (digests.isEmpty()) {
            throw new UsageException("--hash-list: " + file + " holds no digest");
        }
        return digests;
    }

    static List<String> unique(List<String> digests) {
        return new ArrayList<>(new LinkedHashSet<>(digests));
    }
}
