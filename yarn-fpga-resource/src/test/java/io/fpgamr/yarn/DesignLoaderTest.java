package io.fpgamr.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.accel.design.DesignPackage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The privileged design loader's refusals, each deterministic: a design not on the operator's
 * allowlist, a staged file that is a link, a staged file behind a folder that is a link, a FIFO,
 * a device it was not given; a process of the NodeManager's user that is not the NodeManager
 * (a container under the DefaultContainerExecutor) gets nothing loaded, and neither does a
 * process given the pid of a NodeManager that has exited (a pid namespace of the loader's own,
 * the next pid chosen through {@code ns_last_pid}), nor a connection left waiting by a process that
 * exited, once a NodeManager has taken its pid. Each time nothing reaches the firmware folder or
 * the overlays. The loading itself, through the plugin, is in
 * {@link FpgaNodeTest}.
 */
class DesignLoaderTest {
    private static final String DEVICE = "ff200000.md5acc";
    /**
     * A NodeManager in the loader's pid namespace: recorded as its unit records it (with {@code $1},
     * deploy's helper, into {@code $2}), then a shell command of the test's ({@code %s}), then the
     * rest of its arguments (exec: the same process, the same start time).
     */
    private static final String NODE_MANAGER = "MAINPID=$$ \"$1\" write \"$2\" || exit 1; %s shift 2; exec \"$@\"";

    @TempDir
    Path tmp;
    private LoaderFixture loader;
    private Path rbf;
    private Path dtbo;

    @BeforeEach
    void start() throws Exception {
        Path devices = Files.createDirectories(tmp.resolve("sys/devices/platform/soc"));
        Files.createDirectories(devices.resolve(DEVICE));
        loader = new LoaderFixture(tmp.resolve("node"), devices);
        Path design = Files.createDirectories(loader.staging.resolve("d1"));
        rbf = Files.writeString(design.resolve("md5acc.rbf"), "a trusted configuration");
        dtbo = LoaderFixture.overlay(design.resolve("md5acc.dtbo"));
        loader.trust(rbf, dtbo);
    }

    @AfterEach
    void stop() throws Exception {
        loader.close();
    }

    private String ask(String request) throws IOException {
        return loader.client().ask(request);
    }

    private void assertNothingLoaded() throws IOException {
        assertNothingWritten();
        assertEquals("ok none", ask("status " + DEVICE));
    }

    private void assertNothingWritten() throws IOException {
        assertEquals(List.of(), loader.loadedFiles(), "nothing in the firmware folder");
        try (var s = Files.list(loader.overlays)) {
            assertEquals(0, s.count(), "no overlay");
        }
        assertEquals(LoaderFixture.BOOT_BITS, Files.readString(loader.firmware.resolve(LoaderFixture.BOOT_RBF)));
    }

    @Test
    void aDesignNotOnTheAllowlistIsRefused() throws Exception {
        Path other = Files.writeString(loader.staging.resolve("d1/other.rbf"), "a configuration nobody trusted");
        assertEquals("error d1/other.rbf (sha256 " + DesignPackage.sha256(other) + ") is not on the allowlist " + loader.allowlist,
            ask("load " + DEVICE + " d1/other.rbf d1/md5acc.dtbo"));
        Path otherOverlay = Files.copy(dtbo, loader.staging.resolve("d1/other.dtbo"));
        Files.write(otherOverlay, " ".getBytes(StandardCharsets.US_ASCII), java.nio.file.StandardOpenOption.APPEND);
        assertEquals("error d1/other.dtbo (sha256 " + DesignPackage.sha256(otherOverlay) + ") is not on the allowlist " + loader.allowlist,
            ask("load " + DEVICE + " d1/md5acc.rbf d1/other.dtbo"));
        assertNothingLoaded();
    }

    @Test
    void aLinkOrALinkedFolderOrAFifoIsRefused() throws Exception {
        Files.createSymbolicLink(loader.staging.resolve("d1/link.rbf"), rbf);
        assertEquals("error d1/link.rbf is a symbolic link", ask("load " + DEVICE + " d1/link.rbf d1/md5acc.dtbo"));
        Files.createSymbolicLink(loader.staging.resolve("linked"), loader.staging.resolve("d1"));
        assertEquals("error linked/md5acc.rbf: the folder linked on the way is a symbolic link",
            ask("load " + DEVICE + " linked/md5acc.rbf linked/md5acc.dtbo"));
        Path fifo = loader.staging.resolve("d1/fifo.rbf");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, mk.waitFor());
        assertEquals("error d1/fifo.rbf is not a regular file", ask("load " + DEVICE + " d1/fifo.rbf d1/md5acc.dtbo"));
        assertEquals("error d1/../d1/md5acc.rbf: not a plain path inside the staging folder",
            ask("load " + DEVICE + " d1/../d1/md5acc.rbf d1/md5acc.dtbo"));
        assertNothingLoaded();
    }

    @Test
    void onlyTheDeviceItIsGivenAndOnlyAKnownOne() throws Exception {
        assertEquals("error no such device ff210000.md5acc (" + tmp.resolve("sys/devices/platform/soc") + ")",
            ask("load ff210000.md5acc d1/md5acc.rbf d1/md5acc.dtbo"));
        assertNothingLoaded();
    }

    @Test
    void aStagingFolderReachedThroughALinkOfAnotherUserIsNotTrusted() throws Exception {
        loader.close();
        Path link = tmp.resolve("staging-link");
        Files.createSymbolicLink(link, loader.staging);
        Files.getFileAttributeView(link, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
            .setOwner(link.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        loader = new LoaderFixture(tmp.resolve("node2"), tmp.resolve("sys/devices/platform/soc"), link, false);
        assertEquals("error " + link + " is a link that is not root's (on the way to " + link + ")",
            ask("load " + DEVICE + " d1/md5acc.rbf d1/md5acc.dtbo"));
        assertNothingLoaded();
    }

    @Test
    void aProcessOfTheNodeManagersUserThatIsNotTheNodeManagerGetsNothingLoaded() throws Exception {
        Process container = new ProcessBuilder(loader.clientCommand("load " + DEVICE + " d1/md5acc.rbf d1/md5acc.dtbo"))
            .redirectErrorStream(true).start();
        String answer = new String(container.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, container.waitFor(), answer);
        assertEquals("error refused: process " + container.pid() + " (uid " + new com.sun.security.auth.module.UnixSystem().getUid()
            + ") is not the NodeManager (process " + ProcessHandle.current().pid() + ")", answer);
        assertNothingLoaded();
        assertTrue(Files.readString(loader.log).contains("error refused: process " + container.pid()), "the loader logs the refusal");
    }

    /** The loader in a pid namespace of its own, the test's trusted design staged in it. */
    private void restartInPidNamespace() throws Exception {
        loader.close();
        loader = new LoaderFixture(tmp.resolve("node2"), tmp.resolve("sys/devices/platform/soc"), tmp.resolve("node2/staging"), true);
        Path design = Files.createDirectories(loader.staging.resolve("d1"));
        Files.copy(rbf, design.resolve("md5acc.rbf"));
        Files.copy(dtbo, design.resolve("md5acc.dtbo"));
        loader.trust(rbf, dtbo);
    }

    private String[] nodeManager(List<String> then) {
        return concat(List.of(LoaderFixture.PID_HELPER.toString(), loader.pidFile.toString()), then);
    }

    @Test
    void aProcessGivenTheNodeManagersPidAfterItExitedGetsNothingLoaded() throws Exception {
        restartInPidNamespace();
        int pid = 100;
        // The NodeManager: process 100 of the namespace, asking with the plugin's client. It is served.
        List<String> nodeManager =
            loader.inNamespace(pid, String.format(NODE_MANAGER, ""), nodeManager(loader.clientCommand("status " + DEVICE)));
        assertEquals(List.of("ok none"), nodeManager);
        String[] recorded = Files.readString(loader.pidFile).strip().split(" ");
        assertEquals("100", recorded[0], "the pid file: " + String.join(" ", recorded));
        // It has exited; the file still names it (as until the unit's ExecStopPost). The next process
        // given pid 100 started later (by the client's whole run at least, many clock ticks).
        List<String> impostor = loader.inNamespace(pid, "cut -d' ' -f22 /proc/$$/stat; exec \"$@\"",
            loader.clientCommand("load " + DEVICE + " d1/md5acc.rbf d1/md5acc.dtbo").toArray(String[]::new));
        assertEquals(2, impostor.size(), "its start time and the loader's answer: " + impostor);
        assertTrue(Long.parseLong(impostor.get(0)) > Long.parseLong(recorded[1]), "started later: " + impostor + " " + recorded[1]);
        assertEquals("error refused: process 100 (uid " + new com.sun.security.auth.module.UnixSystem().getUid() + ") started at tick "
            + impostor.get(0) + ", not the NodeManager's start (tick "
            + recorded[1] + "): the NodeManager's pid, reused", impostor.get(1));
        assertNothingWritten(); // (its status is for processes of its namespace only: this JVM's pid is 0 to it)
        assertTrue(Files.readString(loader.log).contains("error " + impostor.get(1).substring(6)), "the loader logs the refusal");
    }

    @Test
    void aConnectionLeftByAProcessThatExitedIsNotServedToTheNodeManagerThatTookItsPid() throws Exception {
        restartInPidNamespace();
        String socket = loader.socket.toString();
        // A NodeManager (process 100) holds the loader: connected, it sends nothing until its input ends.
        Process holder = loader.startInNamespace(100, String.format(NODE_MANAGER, ""), nodeManager(List.of("python3", "-c",
            "import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print('connected', flush=True); sys.stdin.read()",
            socket)));
        BufferedReader holderOut = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("connected", holderOut.readLine());
        // Meanwhile process 200 connects, asks for a load and exits: its connection waits in the queue.
        assertEquals(List.of(), loader.inNamespace(200, "exec \"$@\"", "python3", "-c",
            "import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode() + b'\\n')",
            socket, "load " + DEVICE + " d1/md5acc.rbf d1/md5acc.dtbo"));
        // The NodeManager restarts as process 200 (recorded: pid and start time both its own) and waits.
        Process restarted = loader.startInNamespace(200, String.format(NODE_MANAGER, "echo recorded; read -r go;"),
            nodeManager(loader.clientCommand("status " + DEVICE)));
        BufferedReader restartedOut = new BufferedReader(new InputStreamReader(restarted.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("recorded", restartedOut.readLine());
        holder.getOutputStream().close();
        assertEquals(0, holder.waitFor());
        String refusal =
            "error refused: the NodeManager (process 200) does not hold this connection: a process that had its pid before made it";
        long deadline = System.currentTimeMillis() + 30_000;
        while (!Files.readString(loader.log).contains("process 200")) {
            assertTrue(System.currentTimeMillis() < deadline, "the loader took up the waiting connection: " + Files.readString(loader.log));
            Thread.sleep(50);
        }
        assertEquals("fpgamr-loader: " + refusal,
            Files.readString(loader.log).lines().filter(l -> l.contains("process 200")).findFirst().orElseThrow());
        assertNothingWritten();
        // The restarted NodeManager itself is served.
        restarted.getOutputStream().write("go\n".getBytes(StandardCharsets.US_ASCII));
        restarted.getOutputStream().close();
        assertEquals("ok none", restartedOut.readLine());
        assertEquals(0, restarted.waitFor());
    }

    @Test
    void aStagedFileRewrittenBeforeTheLoaderReadsItFailsTheLoadNamingBoth() throws Exception {
        // What a container of the NodeManager's user can do under the DefaultContainerExecutor: swap a
        // staged file for another design on the allowlist while the load waits for the loader.
        Path otherRbf = Files.writeString(tmp.resolve("other.rbf"), "another trusted configuration");
        loader.trust(otherRbf);
        DesignPackage design = DesignPackage.createRbf(tmp.resolve("hw.zip"), "md5acc-de10-p4", 4, "0x4d443541", rbf, dtbo);
        CompletableFuture<String> load;
        Path staged;
        // Another connection of the NodeManager's holds the loader (connected, nothing sent): the load waits.
        try (SocketChannel holder = SocketChannel.open(UnixDomainSocketAddress.of(loader.socket))) {
            load = CompletableFuture.supplyAsync(() -> {
                try {
                    return loader.client().load(DEVICE, design);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            staged = stagedRbf();
            Path swap = Files.copy(otherRbf, staged.resolveSibling("swap.tmp"));
            Files.move(swap, staged, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        ExecutionException failed = assertThrows(ExecutionException.class, () -> load.get(30, TimeUnit.SECONDS));
        String other = DesignPackage.sha256(otherRbf) + " " + DesignPackage.sha256(dtbo);
        assertEquals("the design loader applied " + other + ", not the files staged for " + design.describe() + " ("
            + DesignPackage.sha256(rbf) + " " + DesignPackage.sha256(dtbo) + "): another process of the NodeManager's user rewrote them in "
            + staged.getParent(), failed.getCause().getCause().getMessage());
        assertEquals("ok " + other, ask("status " + DEVICE), "the swapped design, allowlisted, is what the device holds");
    }

    /** The configuration the plugin staged for a load (not the test's own d1/), once both its files are there. */
    private Path stagedRbf() throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            try (var s = Files.walk(loader.staging)) {
                List<Path> files = s.filter(f -> !f.getParent().getFileName().toString().equals("d1") && Files.isRegularFile(f)
                    && !f.getFileName().toString().startsWith(".")).sorted().toList();
                if (files.size() == 2) {
                    return files.stream().filter(f -> f.toString().endsWith(".rbf")).findFirst().orElseThrow();
                }
            }
            assertTrue(System.currentTimeMillis() < deadline, "the plugin staged no design");
            Thread.sleep(20);
        }
    }

    private static String[] concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all.toArray(String[]::new);
    }
}
