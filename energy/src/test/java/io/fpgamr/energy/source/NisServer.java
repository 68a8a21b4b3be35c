package io.fpgamr.energy.source;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * A loopback server speaking apcupsd's NIS protocol: it reads one request (two-byte big-endian
 * length, then the bytes), and for "status" answers each line as a record (two-byte length and the
 * line with its newline) followed by a zero-length record. Records the requests it got.
 */
public final class NisServer implements AutoCloseable {
    private final ServerSocket socket;
    private final Thread thread;
    public final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    private volatile Supplier<List<String>> lines;
    private volatile boolean truncate;

    public NisServer(List<String> statusLines) throws IOException {
        this.lines = () -> statusLines;
        this.socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        this.thread = new Thread(this::serve, "nis-test-server");
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return socket.getLocalPort();
    }

    public void answer(List<String> statusLines) {
        this.lines = () -> statusLines;
    }

    /** Close connections in the middle of the answer, as a dying daemon would. */
    public void truncate(boolean t) {
        this.truncate = t;
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket s = socket.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                int len = in.readUnsignedShort();
                String request = new String(in.readNBytes(len), StandardCharsets.US_ASCII);
                requests.add(request);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                if (request.equals("status")) {
                    List<String> ls = lines.get();
                    int n = truncate ? ls.size() / 2 : ls.size();
                    for (int i = 0; i < n; i++) {
                        byte[] b = (ls.get(i) + "\n").getBytes(StandardCharsets.US_ASCII);
                        out.writeShort(b.length);
                        out.write(b);
                    }
                    if (!truncate) {
                        out.writeShort(0);
                    }
                } else {
                    byte[] b = "Invalid command\n".getBytes(StandardCharsets.US_ASCII);
                    out.writeShort(b.length);
                    out.write(b);
                    out.writeShort(0);
                }
                out.flush();
            } catch (IOException e) {
                // next connection
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
