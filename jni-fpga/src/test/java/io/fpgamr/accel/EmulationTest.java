package io.fpgamr.accel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EmulationTest {
    @Test
    void anArmJvmOnAnX86KernelIsEmulated() {
        assertTrue(Emulation.emulated("arm", "x86"));
        assertTrue(Emulation.emulated("aarch64", Emulation.family("x86_64")));
        assertTrue(Emulation.emulated("amd64", Emulation.family("aarch64")));
    }

    @Test
    void aJvmOfTheKernelsFamilyIsNot() {
        assertFalse(Emulation.emulated("amd64", Emulation.family("x86_64")));
        // a 32-bit ARM user space on a 64-bit ARM kernel runs natively
        assertFalse(Emulation.emulated("arm", Emulation.family("aarch64")));
        assertFalse(Emulation.emulated("arm", Emulation.family("armv7l")));
        // no way to tell: not labelled
        assertFalse(Emulation.emulated("arm", null));
    }

    @Test
    void cpuinfoTellsTheHostsFamily() {
        assertEquals("x86", Emulation.cpuinfoFamily("processor\t: 0\nvendor_id\t: GenuineIntel\n"));
        assertEquals("arm", Emulation.cpuinfoFamily("processor\t: 0\nmodel name\t: ARMv7 Processor rev 10 (v7l)\nCPU architecture: 7\n"));
        assertNull(Emulation.cpuinfoFamily(""));
    }

    @Test
    void thisTestJvmIsNotEmulated() {
        // the test runs on the build host's own JVM
        assertFalse(Emulation.emulated());
    }
}
