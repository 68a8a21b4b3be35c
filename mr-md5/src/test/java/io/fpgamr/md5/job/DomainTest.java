package io.fpgamr.md5.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class DomainTest {
    @Test
    void widthIsAtLeastFourBytes() {
        assertEquals(4, new Domain(1).width());
        assertEquals(4, new Domain(28).width());
        assertEquals(4, new Domain(32).width());
        assertEquals(5, new Domain(33).width());
        assertEquals(5, new Domain(40).width());
    }

    @Test
    void potfileLineIsHashcatFormat() {
        byte[] digest = HexFormat.of().parseHex("096822475dd517c1089f4b58c7f346ef");
        assertEquals("096822475dd517c1089f4b58c7f346ef:$HEX[00000123]", new Domain(28).potfileLine(0x123, digest));
        assertEquals("096822475dd517c1089f4b58c7f346ef:$HEX[0000000123]", new Domain(40).potfileLine(0x123, digest));
    }

    @Test
    void bitsOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Domain(0));
        assertThrows(IllegalArgumentException.class, () -> new Domain(41));
    }
}
