package io.fpgamr.md5;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.fs.FileUtil;

/**
 * The build's training run for class-data sharing ({@code FPGAMR_CDS_DUMP=FILE bin/fpgamr}, see
 * mr-md5/pom.xml): a small search and a small bench on the local runner in one JVM, so that the
 * archive the JVM writes at exit holds the classes both modes load. Fails (exit 1) if either job does.
 */
public final class CdsTraining {
    private static final String THESIS_TARGET = "096822475dd517c1089f4b58c7f346ef";

    private CdsTraining() {
    }

    public static void main(String[] args) throws IOException {
        java.util.logging.LogManager.getLogManager().reset();
        Path work = Files.createTempDirectory("fpgamr-cds-training-");
        int code = 0;
        try {
            for (String mode : new String[] {"search", "bench"}) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int rc = Main.run(new String[] {mode, THESIS_TARGET, "--bits", "16", "--cluster", "local", "--output",
                    work.resolve(mode).toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
                if (rc != 0 || !out.toString(StandardCharsets.UTF_8).startsWith(THESIS_TARGET + ":")) {
                    System.err.println("fpgamr: class-data sharing training run: " + mode + " failed (exit " + rc + "):\n"
                        + err.toString(StandardCharsets.UTF_8));
                    code = 1;
                }
            }
        } finally {
            FileUtil.fullyDelete(work.toFile());
        }
        System.exit(code);
    }
}
