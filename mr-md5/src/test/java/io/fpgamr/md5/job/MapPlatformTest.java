package io.fpgamr.md5.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MapPlatformTest {
    @Test
    void theLineReadsBack() {
        MapPlatform p = new MapPlatform("arm", "linux-armhf", true);
        assertEquals("arm,linux-armhf,true", p.line());
        assertEquals(p, MapPlatform.parse(p.line() + "\n"));
    }

    @Test
    void thisJvmsPlatform() {
        MapPlatform p = MapPlatform.of("cpu:avx2");
        assertEquals(System.getProperty("os.arch"), p.osArch());
        assertEquals(io.fpgamr.accel.NativeArtifacts.platform(), p.nativePlatform());
        assertFalse(p.emulated());
        assertEquals(MapPlatform.NO_NATIVE, MapPlatform.of("java").nativePlatform());
    }

    @Test
    void aBadLineIsRefusedByName() {
        assertEquals("a map platform line is os.arch,native platform,true|false; got 'arm,linux-armhf'",
            assertThrows(IllegalArgumentException.class, () -> MapPlatform.parse("arm,linux-armhf")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> MapPlatform.parse("arm,linux-armhf,yes"));
    }
}
