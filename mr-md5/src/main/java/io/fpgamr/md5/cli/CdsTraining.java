package io.fpgamr.md5.cli;

import io.fpgamr.md5.run.JvmOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The build's training run for class-data sharing ({@code FPGAMR_CDS_DUMP=FILE bin/fpgamr}, see
 * mr-md5/pom.xml): a small search and a small bench on the local runner and a small bench on the
 * embedded cluster in one JVM, so that the archive the JVM writes at exit holds the classes these
 * load. The embedded cluster's MR AM and task JVMs list the classes they load, and from those lists
 * a second, static archive is dumped beside the first ({@link JvmOptions#tasksArchive}), for the class path
 * the embedded cluster's containers run on (EmbeddedCluster): a task JVM loads about 6,000 classes,
 * few of which the launcher loads. Fails (exit 1) if a job does; without the second archive (its
 * dump failed) the containers map the first.
 */
public final class CdsTraining {
    private static final String THESIS_TARGET = "096822475dd517c1089f4b58c7f346ef";
    private static final String[] CONTAINER_OPTS = {MRJobConfig.MR_AM_COMMAND_OPTS, MRJobConfig.MAP_JAVA_OPTS,
        MRJobConfig.REDUCE_JAVA_OPTS};

    private CdsTraining() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        java.util.logging.LogManager.getLogManager().reset();
        Path work = Files.createTempDirectory("fpgamr-cds-training-");
        int code = 0;
        try {
            for (String mode : new String[] {"search", "bench"}) {
                code |= train(mode, work, List.of(), List.of("--cluster", "local"));
            }
            List<String> listClasses = new ArrayList<>();
            for (int i = 0; i < CONTAINER_OPTS.length; i++) {
                listClasses.addAll(List.of("-D", CONTAINER_OPTS[i] + "=-XX:DumpLoadedClassList=" + classList(work, i)));
            }
            int embeddedRc = train("bench", work.resolve("embedded"), listClasses,
                List.of("--cluster", "embedded", "--fpga-devices", "0", "--maps", "1", "--reducers", "1"));
            code |= embeddedRc;
            String dump = System.getenv("FPGAMR_CDS_DUMP");
            if (embeddedRc == 0 && dump != null) {
                dumpTasksArchive(work, JvmOptions.tasksArchive(Path.of(dump)));
            }
        } finally {
            FileUtil.fullyDelete(work.toFile());
        }
        System.exit(code);
    }

    /** Runs {@code mode} over 2^16 values with Hadoop's {@code generic} options and {@code options}; 0 when it found the thesis's preimage. */
    private static int train(String mode, Path work, List<String> generic, List<String> options) {
        List<String> args = new ArrayList<>(List.of(mode));
        args.addAll(generic);
        // One run each: a repeat loads no class the first did not, and bench mode's default (5 runs,
        // as the thesis measured) made the training the longest step of a first build.
        args.addAll(List.of(THESIS_TARGET, "--bits", "16", "--repeat", "1", "--output", work.resolve(mode).toString()));
        args.addAll(options);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        if (rc != 0 || !out.toString(StandardCharsets.UTF_8).startsWith(THESIS_TARGET + ":")) {
            System.err.println("fpgamr: class-data sharing training run: " + String.join(" ", args) + " failed (exit " + rc + "):\n"
                + err.toString(StandardCharsets.UTF_8));
            return 1;
        }
        return 0;
    }

    /** Where the JVMs of container kind {@code i} ({@link #CONTAINER_OPTS}) list the classes they load. */
    private static Path classList(Path work, int i) {
        return work.resolve(i + ".classlist");
    }

    /**
     * Dumps the classes the containers listed into a static archive for this JVM's class path, and
     * keeps it only if a JVM maps it ({@code -Xshare:on} refuses an archive it cannot use).
     */
    private static void dumpTasksArchive(Path work, Path archive) throws IOException, InterruptedException {
        Set<String> classes = new LinkedHashSet<>();
        for (int i = 0; i < CONTAINER_OPTS.length; i++) {
            Path list = classList(work, i);
            if (Files.exists(list)) {
                // Only the class names: the JVMs' lambda-form lines come interleaved with others at
                // times (JDK 17), and a JVM stopped while writing leaves its last line cut.
                String text = Files.readString(list);
                text.substring(0, text.lastIndexOf('\n') + 1).lines().filter(l -> l.matches("[\\w$/]+")).forEach(classes::add);
            }
        }
        Path merged = Files.write(work.resolve("containers.classlist"), classes);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        Files.deleteIfExists(archive);
        boolean made = java(work, java, "-Xshare:dump", "-XX:SharedClassListFile=" + merged, "-XX:SharedArchiveFile=" + archive, "-cp", cp)
            && java(work, java, "-Xshare:on", "-XX:SharedArchiveFile=" + archive, "-cp", cp, "-version");
        if (!made) {
            Files.deleteIfExists(archive);
            List<String> log = Files.readAllLines(work.resolve("java.log"));
            System.err.println("fpgamr: class-data sharing: the containers' archive " + archive + " could not be made; they map the"
                + " launcher's:\n" + String.join("\n", log.subList(Math.max(0, log.size() - 20), log.size())));
        }
    }

    private static boolean java(Path work, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve("java.log").toFile())).start();
        return p.waitFor() == 0;
    }
}
