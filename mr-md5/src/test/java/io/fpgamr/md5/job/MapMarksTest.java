package io.fpgamr.md5.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MapMarksTest {
    @Test
    void theLineReadsBack() {
        MapMarks m = new MapMarks(1000, 1200, 3500);
        assertEquals("1000,1200,3500", m.line());
        assertEquals(m, MapMarks.parse(m.line() + "\n"));
    }

    @Test
    void aMapThatHashedNothingHashedAtItsEngineOpen() {
        assertEquals(new MapMarks(1000, 1000, 1000), MapMarks.of(1000, 0, 0));
        assertEquals(new MapMarks(1000, 1100, 1400), MapMarks.of(1000, 1100, 1400));
    }

    @Test
    void badLinesAndMarksOutOfOrderAreRefusedByName() {
        assertEquals("a map marks line is engine open,hash start,hash end in ms; got '1,2'",
            assertThrows(IllegalArgumentException.class, () -> MapMarks.parse("1,2")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> MapMarks.parse("1,x,3"));
        assertEquals("map marks out of order: engine open 5, hashing 4 to 6",
            assertThrows(IllegalArgumentException.class, () -> MapMarks.parse("5,4,6")).getMessage());
    }
}
