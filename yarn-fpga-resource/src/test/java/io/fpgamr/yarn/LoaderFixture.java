package io.fpgamr.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.fpgamr.accel.design.DesignPackage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * The real design loader of the deployment ({@code deploy/ansible/roles/fpga/files/fpgamr-loader},
 * a root service) running on a Unix socket in a test's folders, with this JVM as its NodeManager
 * (its pid in the loader's NodeManager pid file, as systemd writes it). The folders stand in for
 * the node's: {@code staging} (root's), {@code firmware} (with a boot design, reached as on a
 * merged-/usr system through a link of root's, {@code lib -> usr/lib}), {@code overlays}
 * (configfs's device-tree overlays, a plain folder: an overlay "applies" when its {@code path} is
 * written), {@code state}; the platform devices are the caller's. The NodeManager pid file is
 * written by the deployment's own helper ({@code fpgamr-nodemanager-pid}, the unit's
 * ExecStartPost): its pid and start time. The tests run as root, as the loader does.
 *
 * <p>In a pid namespace of its own (the loader its first process, a /proc of its own), the test
 * chooses which pid the next process of the namespace gets ({@code /proc/sys/kernel/ns_last_pid}),
 * so that a process can be given the pid of one that has exited: {@link #inNamespace}.
 */
final class LoaderFixture implements AutoCloseable {
    static final Path SCRIPT = Path.of("../deploy/ansible/roles/fpga/files/fpgamr-loader").toAbsolutePath().normalize();
    static final Path PID_HELPER = Path.of("../deploy/ansible/roles/hadoop/files/fpgamr-nodemanager-pid").toAbsolutePath().normalize();
    static final Path OVERLAY_SOURCE = Path.of("../hdl/dts/fpgamr-md5acc.dtso").toAbsolutePath().normalize();
    static final String BOOT_RBF = "fpgamr-md5acc.rbf";
    static final String BOOT_BITS = "the boot design's bits\n";

    final Path staging;
    final Path firmware;
    final Path overlays;
    final Path state;
    final Path socket;
    final Path allowlist;
    final Path log;
    final Path pidFile;
    private final Process process;
    private final boolean ownPidNamespace;

    LoaderFixture(Path root, Path devices) throws IOException, InterruptedException {
        this(root, devices, root.resolve("staging"), false);
    }

    /**
     * A loader told that its staging folder is {@code stagingAs} (the folder itself, or a link to
     * it); with {@code ownPidNamespace} in a pid namespace of its own and no NodeManager yet (its
     * NodeManager is a process of that namespace: {@link #inNamespace}), else with this JVM as its
     * NodeManager.
     */
    LoaderFixture(Path root, Path devices, Path stagingAs, boolean ownPidNamespace) throws IOException, InterruptedException {
        staging = Files.createDirectories(root.resolve("staging"));
        Files.createDirectories(root.resolve("usr/lib/firmware"));
        Files.createSymbolicLink(root.resolve("lib"), Path.of("usr/lib"));
        firmware = root.resolve("lib/firmware");
        overlays = Files.createDirectories(root.resolve("overlays"));
        state = root.resolve("state");
        socket = root.resolve("run/loader.sock");
        allowlist = root.resolve("trusted-designs.sha256");
        log = root.resolve("loader.log");
        this.ownPidNamespace = ownPidNamespace;
        pidFile = Files.createDirectories(root.resolve("run")).resolve("nodemanager.pid");
        if (!ownPidNamespace) {
            recordNodeManager(ProcessHandle.current().pid());
        }
        Files.writeString(allowlist, "# the operator's trusted designs\n");
        Files.writeString(firmware.resolve(BOOT_RBF), BOOT_BITS);
        // unshare --kill-child: the loader (and with it the namespace) ends with unshare; unshare
        // ignores SIGTERM while it waits, and so does a namespace's first process: close() kills.
        List<String> cmd = new ArrayList<>(ownPidNamespace ? List.of("unshare", "--pid", "--fork", "--mount-proc", "--kill-child") : List.of());
        cmd.addAll(List.of(SCRIPT.toString(), "--socket", socket.toString(), "--nodemanager-pid-file",
            pidFile.toString(), "--staging", stagingAs.toString(), "--allowlist", allowlist.toString(), "--firmware", firmware.toString(),
            "--boot-file", BOOT_RBF, "--overlays", overlays.toString(), "--devices", devices.toString(), "--state-dir", state.toString()));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.currentTimeMillis() + 30_000;
        while (true) { // until it answers (any answer: a status of no device)
            try {
                client().ask("status none");
                return;
            } catch (IOException e) {
                if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                    close();
                    fail("the design loader did not answer: " + e.getMessage() + "; its log: " + Files.readString(log));
                }
                Thread.sleep(50);
            }
        }
    }

    /** Records process {@code pid} as the NodeManager, as its unit does (ExecStartPost=+, MAINPID). */
    private void recordNodeManager(long pid) throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(PID_HELPER.toString(), "write", pidFile.toString()).redirectErrorStream(true);
        b.environment().put("MAINPID", Long.toString(pid));
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "fpgamr-nodemanager-pid write: " + out);
    }

    /**
     * Runs {@code sh -c script} as the process of pid {@code pid} in the loader's pid namespace
     * (the pid must be free there; the namespace's last pid set below it just before the fork) and
     * returns its output, lines stripped; it must exit 0. The script's arguments {@code $1...} are
     * {@code args}; {@code $$} is {@code pid}.
     */
    List<String> inNamespace(int pid, String script, String... args) throws IOException, InterruptedException {
        Process p = startInNamespace(pid, script, args);
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "in the loader's pid namespace: " + out);
        return out.lines().map(String::strip).toList();
    }

    /**
     * Starts {@code sh -c script} as {@link #inNamespace} does and returns it running (its standard
     * input open, its output and errors on its standard output). The next process of the namespace
     * may be started once this one has said it is there (the pid is taken at its fork).
     */
    Process startInNamespace(int pid, String script, String... args) throws IOException {
        long init = process.toHandle().children().findFirst().orElseThrow().pid(); // the loader, pid 1 in there
        List<String> cmd = new ArrayList<>(List.of("nsenter", "--target", Long.toString(init), "--pid", "--mount", "--", "sh", "-c",
            "echo \"$1\" >/proc/sys/kernel/ns_last_pid || exit 1; shift; sh \"$@\"; exit $?", "launcher", Integer.toString(pid - 1),
            "-c", script, "sh"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** The command line of a container's process asking this loader with the plugin's own client (main below). */
    List<String> clientCommand(String request) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
            LoaderFixture.class.getName(), socket.toString(), staging.toString(), request);
    }

    /** The plugin's client of this loader. */
    DesignLoader client() {
        return new DesignLoader(socket, staging, 10_000);
    }

    /** A NodeManager configuration that uses this loader. */
    Configuration configure(Configuration c) {
        c.set(FpgaConf.LOADER_SOCKET, socket.toString());
        c.set(FpgaConf.LOADER_STAGING_DIR, staging.toString());
        return c;
    }

    /** Puts files on the operator's allowlist (sha256sum's format). */
    void trust(Path... files) throws IOException {
        for (Path f : files) {
            Files.writeString(allowlist, DesignPackage.sha256(f) + "  " + f.getFileName() + "\n", StandardOpenOption.APPEND);
        }
    }

    /** The overlay of hdl/ (its real .dtso, compiled with dtc) in {@code file}. */
    static Path overlay(Path file) throws IOException, InterruptedException {
        run("dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o", file.toString(), OVERLAY_SOURCE.toString());
        return file;
    }

    /** The firmware-name an overlay file says, as fdtget reads it. */
    static String firmwareName(Path dtbo) throws IOException, InterruptedException {
        return run("fdtget", "-t", "s", dtbo.toString(), "/fragment@0/__overlay__", "firmware-name").strip();
    }

    /** Every file under the firmware folder but the boot design. */
    List<String> loadedFiles() throws IOException {
        try (Stream<Path> s = Files.walk(firmware)) {
            return s.filter(Files::isRegularFile).map(p -> firmware.relativize(p).toString()).filter(p -> !p.equals(BOOT_RBF)).sorted()
                .toList();
        }
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        if (ownPidNamespace) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * A container of the NodeManager: a child process of its JVM, of its user, that asks the loader
     * with the plugin's own client; prints the answer.
     */
    public static void main(String[] args) throws IOException {
        System.out.println(new DesignLoader(Path.of(args[0]), Path.of(args[1]), 10_000).ask(args[2]));
    }
}
