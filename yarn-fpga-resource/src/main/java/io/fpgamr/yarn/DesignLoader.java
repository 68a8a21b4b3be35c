package io.fpgamr.yarn;

import io.fpgamr.accel.design.DesignPackage;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The NodeManager's side of the privileged design loader ({@code deploy/ansible}'s
 * {@code fpgamr-loader}, a root service on a Unix socket): this process stages a hardware design's
 * configuration and overlay in the loader's staging folder (root's, the NodeManager writes inside
 * it) and asks, over the socket, for them to be loaded onto a device. The loader serves only the
 * NodeManager's own process (it checks the connecting process against the NodeManager unit's main
 * pid and that process's start time), so the request must come from this JVM: a container, even
 * one running as the NodeManager's user, cannot ask for a design (the deployment starts this JVM
 * with attach disabled, so no container loads code into it). It loads only designs on the operator's
 * allowlist and answers with the SHA-256 of the configuration and overlay it applied, which is
 * what {@link #holds} reports later.
 */
final class DesignLoader {
    private static final int MAX_REPLY = 4096;

    private final Path socket;
    private final Path staging;
    private final long timeoutMs;

    DesignLoader(Path socket, Path staging, long timeoutMs) {
        this.socket = socket;
        this.staging = staging;
        this.timeoutMs = timeoutMs;
    }

    Path staging() {
        return staging;
    }

    /**
     * Loads a hardware design onto {@code device} (its platform device name); returns what the
     * loader applied, {@code <rbf sha256> <overlay sha256>}. The staged copies are removed
     * afterwards, loaded or not. The staging folder is the NodeManager's user's to write, so under
     * the DefaultContainerExecutor a container may swap a staged file before the loader reads it:
     * the loader then applies another design of the allowlist, and this fails, naming both.
     */
    String load(String device, DesignPackage design) throws IOException {
        Files.createDirectories(staging);
        Path dir = Files.createTempDirectory(staging, design.sha256().substring(0, 12) + "-");
        try {
            String rbf = Path.of(design.rbfEntry()).getFileName().toString();
            String overlay = Path.of(design.overlayEntry()).getFileName().toString();
            String staged = design.extract(design.rbfEntry(), dir.resolve(rbf)) + " " + design.extract(design.overlayEntry(), dir.resolve(overlay));
            String rel = dir.getFileName() + "/";
            String applied = ok(ask("load " + device + " " + rel + rbf + " " + rel + overlay), "loading " + design.describe());
            if (!applied.equals(staged)) {
                throw new IOException("the design loader applied " + applied + ", not the files staged for " + design.describe() + " ("
                    + staged + "): another process of the NodeManager's user rewrote them in " + dir);
            }
            return applied;
        } finally {
            DesignCache.removeTree(dir);
        }
    }

    /** What the loader says {@code device} holds: {@code <rbf sha256> <overlay sha256>}, {@code boot} or {@code none}. */
    String holds(String device) throws IOException {
        return ok(ask("status " + device), "asking what " + device + " holds");
    }

    private String ok(String reply, String what) throws IOException {
        if (reply.startsWith("ok ")) {
            return reply.substring(3);
        }
        throw new IOException("the design loader refused " + what + ": " + (reply.startsWith("error ") ? reply.substring(6) : reply));
    }

    /** One request, one line back, within the timeout. */
    String ask(String request) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX); Selector sel = Selector.open()) {
            try {
                ch.connect(UnixDomainSocketAddress.of(socket));
            } catch (IOException e) {
                throw new IOException("cannot reach the design loader at " + socket + ": " + e.getMessage(), e);
            }
            ByteBuffer out = ByteBuffer.wrap((request + "\n").getBytes(StandardCharsets.US_ASCII));
            try {
                while (out.hasRemaining()) {
                    ch.write(out);
                }
            } catch (IOException e) {
                // The loader refuses a process before reading its request: its answer is there to read.
            }
            ch.configureBlocking(false);
            ch.register(sel, SelectionKey.OP_READ);
            ByteBuffer in = ByteBuffer.allocate(MAX_REPLY);
            while (in.hasRemaining()) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    throw new IOException("the design loader did not answer within " + timeoutMs + " ms");
                }
                sel.select(left);
                sel.selectedKeys().clear();
                if (ch.read(in) < 0 || (in.position() > 0 && in.get(in.position() - 1) == '\n')) {
                    break;
                }
            }
            String reply = new String(in.array(), 0, in.position(), StandardCharsets.UTF_8);
            if (!reply.endsWith("\n")) {
                throw new IOException("the design loader's answer was cut short: '" + reply.strip() + "'");
            }
            return reply.strip();
        }
    }
}
