package io.fpgamr.energy.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApcupsdSourceTest {
    static List<String> transcript() throws IOException {
        try (InputStream in = ApcupsdSourceTest.class.getResourceAsStream("/transcripts/apcupsd-status.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines().toList();
        }
    }

    @Test
    void readsLoadPercentTimesNominalPowerOverTheNisProtocol() throws IOException {
        try (NisServer server = new NisServer(transcript())) {
            Map<String, String> status = ApcupsdSource.status("127.0.0.1", server.port(), 2000);
            assertEquals(37, status.size());
            assertEquals("17.0 Percent", status.get("LOADPCT"));
            assertEquals("865 Watts", status.get("NOMPOWER"));
            assertEquals("2024-03-11 10:15:05 +0100", status.get("END APC"));
            assertEquals(List.of("status"), server.requests);

            ApcupsdSource s = ApcupsdSource.open("127.0.0.1", server.port(), 2000, null);
            // 17.0 % of 865 W
            assertEquals(List.of(new DomainPower("backups", 147.05)), s.read(1_000));
            assertEquals(PowerSource.Coverage.NODE, s.coverage());
        }
    }

    @Test
    void aUpsWithoutNominalPowerNeedsOneGiven() throws IOException {
        List<String> lines = transcript().stream().filter(l -> !l.startsWith("NOMPOWER")).toList();
        try (NisServer server = new NisServer(lines)) {
            IOException e = assertThrows(IOException.class, () -> ApcupsdSource.open("127.0.0.1", server.port(), 2000, null));
            assertEquals("apcupsd at 127.0.0.1:" + server.port() + " reports no NOMPOWER (give the UPS's nominal power in watts)", e.getMessage());
            ApcupsdSource s = ApcupsdSource.open("127.0.0.1", server.port(), 2000, 900.0);
            assertEquals(153.0, s.read(0).get(0).watts(), 1e-12);
        }
    }

    @Test
    void lostContactWithTheUpsAndACutAnswerAreFailedReads() throws IOException {
        try (NisServer server = new NisServer(transcript())) {
            ApcupsdSource s = new ApcupsdSource("127.0.0.1", server.port(), 2000, null);
            server.answer(transcript().stream().map(l -> l.startsWith("STATUS") ? "STATUS   : COMMLOST " : l).toList());
            IOException lost = assertThrows(IOException.class, () -> s.read(0));
            assertEquals("apcupsd at 127.0.0.1:" + server.port() + " lost contact with the UPS (STATUS COMMLOST)", lost.getMessage());
            server.answer(transcript());
            server.truncate(true);
            IOException cut = assertThrows(IOException.class, () -> s.read(0));
            assertEquals("apcupsd at 127.0.0.1:" + server.port() + " closed the connection before the end of the status", cut.getMessage());
        }
    }

    @Test
    void nobodyListeningIsAFailedRead() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        ApcupsdSource s = new ApcupsdSource("127.0.0.1", port, 500, null);
        IOException e = assertThrows(IOException.class, () -> s.read(0));
        assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
    }
}
