package io.fpgamr.md5.run;

import java.nio.file.Path;

/**
 * The JVM options the launcher and the JVMs it starts share: the flags Hadoop's daemons and task
 * JVMs need on JDK 17, and the names of the class-data sharing archives (bin/fpgamr's, and the one
 * the build's training run, {@code cli/CdsTraining}, dumps beside it for the embedded cluster's
 * containers).
 */
public final class JvmOptions {
    /** Flags that Hadoop's daemons and task JVMs need on JDK 17. */
    public static final String JDK17_OPENS = String.join(" ",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.util=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
        "--add-opens=java.base/java.net=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED",
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED");
    /** The system property bin/fpgamr sets to the class-data archive its JVM maps. */
    public static final String CDS_ARCHIVE_KEY = "fpgamr.cds.archive";

    private JvmOptions() {
    }

    /** The archive of the embedded cluster's container classes that the training leaves beside {@code launcherArchive}. */
    public static Path tasksArchive(Path launcherArchive) {
        String name = launcherArchive.getFileName().toString().replaceFirst("\\.jsa$", "");
        return launcherArchive.resolveSibling(name + "-tasks.jsa");
    }
}
