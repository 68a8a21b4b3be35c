package io.fpgamr.accel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.accel.fpga.DeviceSpec;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Engine and device specs: parsed once, typed, and back to the same canonical text. */
class EngineSpecTest {

    private static void roundTrip(String canonical) {
        EngineSpec s = EngineSpec.parse(canonical);
        assertEquals(canonical, s.toString());
        assertEquals(s, EngineSpec.parse(s.toString()));
    }

    @Test
    void everyKindReadsBackToTheSameText() {
        roundTrip("java");
        roundTrip("cpu");
        roundTrip("cpu:avx2");
        roundTrip("fpga");
        roundTrip("auto");
        roundTrip("fpga:vsim:pipelines=4,mhz=50");
        roundTrip("auto:uio:/dev/uio0,timeout_ms=2000");
        roundTrip("fpga:vsim:pipelines=4,wait_ms=1000,fault=hang@2,lib=/d/model.so,lock=/d/lock");
        // options in any order, spaces around them: the canonical order
        assertEquals("fpga:vsim:pipelines=4,mhz=25,lock=/l", EngineSpec.parse(" fpga: vsim:lock=/l, mhz=25,pipelines=4 ").toString());
        assertEquals("fpga", EngineSpec.parse("fpga:").toString());
        assertEquals("vsim", DeviceSpec.parse("vsim:").toString());
    }

    @Test
    void theFieldsAreTyped() {
        EngineSpec cpu = EngineSpec.parse("cpu:avx512");
        assertEquals(EngineSpec.Kind.CPU, cpu.kind());
        assertEquals("avx512", cpu.kernel());
        assertNull(cpu.device());
        assertFalse(cpu.usesFpga());

        EngineSpec f = EngineSpec.parse("fpga:vsim:pipelines=4,fault=drop@3");
        assertTrue(f.usesFpga());
        DeviceSpec d = f.device();
        assertEquals(DeviceSpec.Bus.VSIM, d.bus());
        assertTrue(d.simulated());
        assertEquals(4, d.pipelines());
        assertEquals(OptionalLong.empty(), d.waitMs());
        assertEquals(new DeviceSpec.Fault(DeviceSpec.Fault.Kind.DROP, 3), d.fault().orElseThrow());
        DeviceSpec waiting = d.withWaitMs(540_000);
        assertEquals(OptionalLong.of(540_000), waiting.waitMs());
        assertEquals("vsim:pipelines=4,wait_ms=540000,fault=drop@3", waiting.toString());
        assertEquals("vsim:pipelines=4", d.without(DeviceSpec.Option.FAULT).toString());
        assertEquals(d, DeviceSpec.vsim(4).withOptions("fault=drop@3"));

        DeviceSpec u = DeviceSpec.parse("uio:/dev/uio1,wait_ms=5");
        assertEquals("/dev/uio1", u.node());
        assertFalse(u.simulated());
        assertEquals(OptionalLong.of(5), u.waitMs());
        assertEquals("uio:/dev/uio1,timeout_ms=2000,wait_ms=5", u.withOptions("timeout_ms=2000").toString());

        // the board's broken wiring, for the doctor's tests
        DeviceSpec w = DeviceSpec.parse("vsim:regmap=2.7,fault=irq_lost@1,pipelines=4");
        assertEquals("vsim:pipelines=4,fault=irq_lost@1,regmap=2.7", w.toString());
        assertEquals(new DeviceSpec.Fault(DeviceSpec.Fault.Kind.IRQ_LOST, 1), w.fault().orElseThrow());
        assertEquals(DeviceSpec.Fault.Kind.DMA_STALL, DeviceSpec.parse("vsim:fault=dma_stall@2").fault().orElseThrow().kind());
    }

    @Test
    void badSpecsSayWhatIsWrong() {
        assertMessage("unknown engine spec 'gpu'", "gpu");
        assertMessage("unknown engine spec 'java:x'", "java:x");
        assertMessage("unknown CPU kernel 'sse9'", "cpu:sse9");
        assertMessage("unknown device spec 'pcie:0'", "fpga:pcie:0");
        assertMessage("unknown device option 'pipeline' in a vsim spec", "fpga:vsim:pipeline=4");
        assertMessage("device option pipelines must be a number in 1..64, got '0'", "auto:vsim:pipelines=0");
        assertMessage("device option wait_ms must be a number", "fpga:vsim:wait_ms=soon");
        assertMessage("device option lib applies to vsim devices only, not uio", "fpga:uio:/dev/uio0,lib=/x.so");
        assertMessage("uio device spec must name the UIO node", "fpga:uio:");
        assertMessage("device option 'mhz' is not key=value", "fpga:vsim:mhz");
        assertMessage("device option fault must be dma_error@K, hang@K, drop@K, irq_lost@K, dma_stall@K or wedge@K", "fpga:vsim:fault=melt@1");
        assertMessage("device option fault must be dma_error@K, hang@K, drop@K, irq_lost@K, dma_stall@K or wedge@K", "fpga:vsim:fault=hang@0");
        assertMessage("device option regmap must be a register map version MAJOR[.MINOR], got '3.x'", "fpga:vsim:regmap=3.x");
        assertMessage("device option regmap applies to vsim devices only, not uio", "fpga:uio:/dev/uio0,regmap=2");
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> DeviceSpec.parse(" "));
        assertEquals("no FPGA device given (--device SPEC)", x.getMessage());
    }

    private static void assertMessage(String part, String spec) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> EngineSpec.parse(spec));
        assertTrue(x.getMessage().contains(part), x.getMessage());
    }

    @Test
    void aContainerOpensTheDeviceItWasGiven() {
        Map<String, String> env = Map.of(Engines.DEVICE_ENV, "vsim:pipelines=4,lib=/d/model.so");
        assertEquals("fpga:vsim:pipelines=4,lib=/d/model.so", EngineSpec.parse("fpga:").inContainer(env).toString());
        assertEquals("fpga:vsim:pipelines=4,lib=/d/model.so", EngineSpec.parse("fpga:vsim:pipelines=1").inContainer(env).toString());
        assertEquals("auto:vsim:pipelines=4,lib=/d/model.so", EngineSpec.parse("auto").inContainer(env).toString());
        assertEquals("cpu", EngineSpec.parse("cpu").inContainer(env).toString());
        assertEquals("fpga", EngineSpec.parse("fpga:").inContainer(Map.of()).toString());
        assertEquals("auto", EngineSpec.parse("auto").inContainer(Map.of()).toString());
    }
}
