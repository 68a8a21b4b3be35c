package io.fpgamr.energy.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IpmiSourceTest {
    @TempDir
    Path tmp;

    /** A script standing in for ipmitool: prints a recorded transcript and exits with the code. */
    Path script(String transcript, int exit) throws IOException {
        Path text = tmp.resolve(transcript);
        try (InputStream in = getClass().getResourceAsStream("/transcripts/" + transcript)) {
            Files.copy(in, text);
        }
        Path sh = tmp.resolve("ipmitool-" + transcript + ".sh");
        Files.writeString(sh, "#!/bin/sh\ncat '" + text + "'\nexit " + exit + "\n");
        return sh;
    }

    @Test
    void takesTheInstantaneousReadingOfIpmitoolsDcmiOutput() throws IOException {
        IpmiSource s = IpmiSource.open(List.of("sh", script("ipmitool-dcmi-power-reading.txt", 0).toString()), 5000);
        assertEquals(List.of(new DomainPower("dcmi", 187.0)), s.read(0));
        assertEquals(PowerSource.Coverage.NODE, s.coverage());
    }

    @Test
    void aDeactivatedReadingIsNotZeroWatts() throws IOException {
        IpmiSource s = new IpmiSource(List.of("sh", script("ipmitool-dcmi-deactivated.txt", 0).toString()), 5000);
        IOException e = assertThrows(IOException.class, () -> s.read(0));
        assertEquals("the BMC's power reading is deactivated, not activated", e.getMessage());
    }

    @Test
    void aFailingCommandIsAFailedRead() throws IOException {
        Path sh = tmp.resolve("no-bmc.sh");
        Files.writeString(sh, "#!/bin/sh\necho 'Could not open device at /dev/ipmi0 or /dev/ipmi/0 or /dev/ipmidev/0: No such file or directory' >&2\nexit 1\n");
        IpmiSource s = new IpmiSource(List.of("sh", sh.toString()), 5000);
        IOException e = assertThrows(IOException.class, () -> s.read(0));
        assertEquals("`sh " + sh + "` exited with 1: Could not open device at /dev/ipmi0 or /dev/ipmi/0 or /dev/ipmidev/0: No such file or directory",
            e.getMessage());
        IOException missing = assertThrows(IOException.class, () -> new IpmiSource(List.of(tmp.resolve("absent").toString()), 5000).read(0));
        assertTrue(missing.getMessage().startsWith("cannot run `" + tmp.resolve("absent") + "`"), missing.getMessage());
    }

    @Test
    void aHangingCommandTimesOut() throws IOException {
        Path sh = tmp.resolve("hang.sh");
        Files.writeString(sh, "#!/bin/sh\nexec sleep 30\n");
        IpmiSource s = new IpmiSource(List.of("sh", sh.toString()), 300);
        IOException e = assertThrows(IOException.class, () -> s.read(0));
        assertEquals("`sh " + sh + "` did not finish within 300 ms", e.getMessage());
    }
}
