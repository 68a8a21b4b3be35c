package io.fpgamr.accel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine specs that involve the FPGA: fpga:, fpga:<device>, auto, auto:<device>, and FPGAMR_DEVICE. */
class EnginesFpgaTest {
    private static final BiFunction<String, Integer, Md5Engine> NATIVE = NativeMd5Engine::open;

    @TempDir
    Path tmp;

    private String device() {
        return "vsim:pipelines=1,lock=" + tmp.resolve("dev.lock");
    }

    private static Md5Engine open(String spec, Map<String, String> env) {
        return Engines.open(EngineSpec.parse(spec), 1, NATIVE, env);
    }

    @Test
    void fpgaSpecsOpenTheDeviceGivenOrTheEnvironments() {
        try (Md5Engine e = open("fpga:" + device(), Map.of())) {
            assertEquals("fpga:vsim:p1", e.name());
            assertEquals("fpga", e.kind());
        }
        for (String spec : new String[] {"fpga:", "fpga"}) {
            try (Md5Engine e = open(spec, Map.of(Engines.DEVICE_ENV, device()))) {
                assertEquals("fpga:vsim:p1", e.name());
            }
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> open(spec, Map.of()));
            assertEquals("no FPGA device given (--device SPEC)", x.getMessage());
        }
        // the device named in the spec wins over the environment's
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> open("fpga:uio:/dev/fpgamr-no-such-uio", Map.of(Engines.DEVICE_ENV, device())));
        assertTrue(x.getMessage().contains("cannot open /dev/fpgamr-no-such-uio"), x.getMessage());
    }

    @Test
    void fpgaOnABusyDeviceIsAnErrorWithTheDriversMessage() {
        try (Md5Engine owner = open("fpga:" + device(), Map.of())) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> open("fpga:" + device(), Map.of()));
            assertTrue(x.getMessage().contains("device busy"), x.getMessage());
        }
    }

    @Test
    void autoTakesTheFpgaWhenFreeElseTheCpu() {
        String cpu = NativeMd5Engine.open(null, 1).name();
        // nothing configured
        try (Md5Engine e = open("auto", Map.of())) {
            assertEquals("cpu", e.kind());
            assertEquals(cpu, e.name());
        }
        // the environment's device, free
        try (Md5Engine e = open("auto", Map.of(Engines.DEVICE_ENV, device()))) {
            assertEquals("fpga:vsim:p1", e.name());
            // ... and busy: the CPU, at once
            try (Md5Engine other = open("auto:" + device(), Map.of())) {
                assertEquals("cpu", other.kind());
            }
            try (Md5Engine other = open("auto", Map.of(Engines.DEVICE_ENV, device()))) {
                assertEquals(cpu, other.name());
            }
        }
        // a device that is not there, a model that is not built: the CPU
        try (Md5Engine e = open("auto:uio:/dev/fpgamr-no-such-uio", Map.of())) {
            assertEquals(cpu, e.name());
        }
        try (Md5Engine e = open("auto:vsim:pipelines=3,lock=" + tmp.resolve("p3.lock"), Map.of())) {
            assertEquals(cpu, e.name());
        }
        // a malformed device spec is the user's error, not a reason to fall back
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> open("auto:pcie:0", Map.of()));
        assertTrue(x.getMessage().contains("unknown device spec"), x.getMessage());
    }

    @Test
    void unknownSpecsNameTheValidOnes() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> open("gpu", Map.of()));
        assertTrue(x.getMessage().contains("auto:<device>"), x.getMessage());
    }
}
