package io.fpgamr.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Runs bin/fpgamr of this checkout as a user would, in its own process. */
public final class Fpgamr {
    public static final Path ROOT = Path.of(System.getProperty("fpgamr.root", "../..")).toAbsolutePath().normalize();

    public record Result(int code, String out, String err) {
        public List<String> outLines() {
            return out.lines().toList();
        }
    }

    private Fpgamr() {
    }

    public static Result run(Path workDir, Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ROOT.resolve("bin/fpgamr").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        pb.environment().remove("HADOOP_CONF_DIR");
        pb.environment().put("FPGAMR_LOG", workDir.resolve("fpgamr.log").toString());
        pb.environment().putAll(env);
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        // A guard against a hung job, not a performance assertion.
        if (!p.waitFor(15, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("bin/fpgamr did not finish: " + cmd);
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    public static Result run(Path workDir, String... args) throws IOException, InterruptedException {
        return run(workDir, Map.of(), args);
    }

    /** MD5 of value v as the job encodes it: big-endian in max(4, ceil(bits/8)) bytes. */
    public static String md5Hex(long v, int bits) {
        int width = Math.max(4, (bits + 7) / 8);
        byte[] m = new byte[width];
        for (int i = 0; i < width; i++) {
            m[i] = (byte) (v >>> (8 * (width - 1 - i)));
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(m));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The line the job prints for a preimage: hashcat's potfile format. */
    public static String potLine(long v, int bits) {
        int width = Math.max(4, (bits + 7) / 8);
        return md5Hex(v, bits) + ":$HEX[" + String.format("%0" + (2 * width) + "x", v) + "]";
    }

    /** The job id of the "fpgamr: submitted job_..." line on a run's stderr. */
    public static String jobId(String err) {
        Matcher m = Pattern.compile("submitted (job_\\d+_\\d+)").matcher(err);
        if (!m.find()) {
            throw new AssertionError("no job submitted: " + err);
        }
        return m.group(1);
    }

    /** A job's --summary-json file. */
    public static JsonNode summary(Path json) throws IOException {
        return new ObjectMapper().readTree(json.toFile());
    }

    /** The lines of a local job output's part files, sorted. */
    public static List<String> outputLines(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("part-"))
                .flatMap(p -> {
                    try {
                        return Files.readAllLines(p).stream();
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .sorted().toList();
        }
    }
}
