package io.fpgamr.accel.fpga;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The packaged register map is hdl/regmap/md5acc.json, and says what the generated C header says. */
class RegisterMapTest {
    private static final Path REPO = Path.of(System.getProperty("user.dir")).getParent();

    @Test
    void thePackagedMapIsTheOneSource() throws Exception {
        try (InputStream in = RegisterMap.class.getResourceAsStream(RegisterMap.RESOURCE)) {
            assertArrayEquals(Files.readAllBytes(REPO.resolve("hdl/regmap/md5acc.json")), in.readAllBytes());
        }
    }

    @Test
    void itAgreesWithTheGeneratedHeader() throws Exception {
        String h = Files.readString(REPO.resolve("jni-fpga/native/include/fpgamr_regs.h"));
        RegisterMap m = RegisterMap.current();
        assertEquals(define(h, "FPGAMR_REGMAP_MAJOR"), m.major());
        assertEquals(define(h, "FPGAMR_REGMAP_MINOR"), m.minor());
        assertEquals(define(h, "FPGAMR_REGMAP_VERSION"), m.version());
        assertEquals(String.format("0x%08x", define(h, "FPGAMR_DESIGN_ID")), m.designId());
        assertEquals(define(h, "FPGAMR_WINDOW_BYTES"), m.windowBytes());
        assertEquals(define(h, "FPGAMR_USER_PAGE_BYTES"), m.userPageBytes());
        assertEquals(define(h, "FPGAMR_CLOCK_MHZ"), m.clockMhz());
        assertEquals(define(h, "FPGAMR_DEFAULT_DATA_W"), m.dataW());
        assertEquals("0x4d443541", m.designId());
        assertEquals(3, m.major(), "register map 3: the kernel page");
    }

    @Test
    void aDeviceOfAnotherMajorOrALowerMinorIsNotSpoken() {
        RegisterMap m = RegisterMap.current();
        assertTrue(m.speaks(m.version()));
        assertTrue(m.speaks(m.version() + 7));
        assertFalse(m.speaks((long) (m.major() - 1) << 16));
        assertFalse(m.speaks(m.version() - 1), "a lower minor (3.0: its ABORT can jam)");
        assertFalse(m.speaks((long) (m.major() + 1) << 16));
    }

    private static long define(String header, String name) {
        Matcher mm = Pattern.compile("#define " + name + " (0x[0-9A-Fa-f]+|\\d+)u").matcher(header);
        assertTrue(mm.find(), name);
        return Long.decode(mm.group(1));
    }
}
