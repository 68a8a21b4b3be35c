package io.fpgamr.energy.source;

import io.fpgamr.energy.config.Setting;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A UPS through apcupsd's network information server (NIS, TCP 3551 by default), as the thesis
 * measured its x86 node. The client sends one record, {@code status}, framed as every NIS record
 * is: a two-byte big-endian length and the bytes. The server answers with one record per
 * {@code KEY : value} line and a zero-length record at the end. Power is {@code LOADPCT} percent
 * of {@code NOMPOWER} watts; where the UPS reports no nominal power, it must be given. The UPS
 * sees everything plugged into it, so it measures the node only when the node is alone on it.
 */
public final class ApcupsdSource implements PowerSource {
    public static final int DEFAULT_PORT = 3551;
    public static final SourceKind KIND = new SourceKind("apcupsd", List.of(
        Setting.of("address", "--apcupsd", Setting.HOST_PORT, "apcupsd's NIS, HOST[:PORT]; without it 127.0.0.1:3551 is probed briefly"),
        Setting.of("nominal_watts", "--ups-nominal-watts", Setting.POSITIVE, "the UPS's nominal power where it reports no NOMPOWER")),
        (o, timeoutMs) -> {
            String hp = o.has("address") ? o.text("address") : "127.0.0.1:" + DEFAULT_PORT;
            int colon = hp.lastIndexOf(':');
            String host = colon > 0 ? hp.substring(0, colon) : hp;
            int port = colon > 0 ? Integer.parseInt(hp.substring(colon + 1)) : DEFAULT_PORT;
            try {
                return open(host, port, o.has("address") ? timeoutMs : Math.min(timeoutMs, 300), o.number("nominal_watts"));
            } catch (IOException e) {
                throw new IOException("no apcupsd NIS answering at " + hp + ": " + e.getMessage(), e);
            }
        });
    private static final int MAX_RECORD = 8192;

    private final String host;
    private final int port;
    private final int timeoutMs;
    private final Double nominalWatts;

    public ApcupsdSource(String host, int port, int timeoutMs, Double nominalWatts) {
        this.host = host;
        this.port = port;
        this.timeoutMs = timeoutMs;
        this.nominalWatts = nominalWatts;
    }

    /** Connects once to check that the server answers with a load and a nominal power. */
    public static ApcupsdSource open(String host, int port, int timeoutMs, Double nominalWatts) throws IOException {
        ApcupsdSource s = new ApcupsdSource(host, port, timeoutMs, nominalWatts);
        s.read(System.currentTimeMillis());
        return s;
    }

    @Override
    public String kind() {
        return KIND.name();
    }

    @Override
    public String describe() {
        return "UPS load through apcupsd's NIS at " + host + ":" + port
            + (nominalWatts != null ? " (nominal power given: " + fmt(nominalWatts) + " W)" : " (LOADPCT x NOMPOWER)");
    }

    @Override
    public Coverage coverage() {
        return Coverage.NODE;
    }

    @Override
    public List<DomainPower> read(long nowMs) throws IOException {
        Map<String, String> status = status(host, port, timeoutMs);
        String st = status.getOrDefault("STATUS", "");
        if (st.contains("COMMLOST")) {
            throw new IOException("apcupsd at " + host + ":" + port + " lost contact with the UPS (STATUS " + st + ")");
        }
        double load = number(status, "LOADPCT");
        double nominal = nominalWatts != null ? nominalWatts : number(status, "NOMPOWER");
        String ups = status.getOrDefault("UPSNAME", "ups");
        return List.of(new DomainPower(ups.isBlank() ? "ups" : ups, load / 100.0 * nominal));
    }

    private double number(Map<String, String> status, String key) throws IOException {
        String v = status.get(key);
        if (v == null) {
            throw new IOException("apcupsd at " + host + ":" + port + " reports no " + key
                + (key.equals("NOMPOWER") ? " (give the UPS's nominal power in watts)" : ""));
        }
        String first = v.trim().split("\\s+")[0];
        try {
            return Double.parseDouble(first);
        } catch (NumberFormatException e) {
            throw new IOException("apcupsd at " + host + ":" + port + ": " + key + " is not a number: '" + v + "'", e);
        }
    }

    /** One NIS {@code status} exchange: the records as key to value, in the server's order. */
    public static Map<String, String> status(String host, int port, int timeoutMs) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] cmd = "status".getBytes(StandardCharsets.US_ASCII);
            out.writeShort(cmd.length);
            out.write(cmd);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            Map<String, String> records = new LinkedHashMap<>();
            while (true) {
                int len = in.readUnsignedShort();
                if (len == 0) {
                    break;
                }
                if (len > MAX_RECORD) {
                    throw new IOException("apcupsd at " + host + ":" + port + " sent a " + len + "-byte record: not an NIS server?");
                }
                byte[] rec = in.readNBytes(len);
                if (rec.length < len) {
                    throw new EOFException("apcupsd at " + host + ":" + port + " closed the connection inside a record");
                }
                String line = new String(rec, StandardCharsets.US_ASCII).trim();
                int colon = line.indexOf(':');
                if (colon > 0) {
                    records.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
                }
            }
            return records;
        } catch (EOFException e) {
            throw new IOException("apcupsd at " + host + ":" + port + " closed the connection before the end of the status", e);
        }
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
