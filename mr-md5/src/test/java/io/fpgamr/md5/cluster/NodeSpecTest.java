package io.fpgamr.md5.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The embedded cluster's node types on the command line ({@code --nodes x86:2,arm,arm-fpga}). */
class NodeSpecTest {
    @Test
    void aListOfTypesWithCountsInOrder() {
        assertEquals(List.of(new NodeSpec("x86", 0), new NodeSpec("x86", 0), new NodeSpec("fpga", 3), new NodeSpec("arm", 0),
            new NodeSpec("arm", 0)), NodeSpec.parse("x86:2, fpga,arm:2", 3));
        assertTrue(new NodeSpec("arm-fpga", 1).arm());
        assertTrue(new NodeSpec("arm", 0).arm());
    }

    @Test
    void armFpgaNodesTakeTheFpgaDevicesAndNeedTheModelBuiltForArmhf() {
        assertEquals(List.of(new NodeSpec("x86", 0), new NodeSpec("arm", 0), new NodeSpec("arm-fpga", 2)),
            NodeSpec.parse("x86,arm,arm-fpga", 2));
        assertEquals("arm-fpga nodes need simulated FPGAs: --fpga-devices must be at least 1",
            assertThrows(IllegalArgumentException.class, () -> NodeSpec.parse("x86,arm-fpga", 0)).getMessage());
        // no build makes a 16-pipeline model for armhf: the one line names it and the command that builds it
        assertEquals("arm-fpga nodes need the simulated FPGA's model built for linux-armhf, libfpgamr-vsim-p16.so, which this build "
            + "has not (make test builds it; make run does not): run make -C jni-fpga/native/fpga vsim-libs PLATFORM=linux-armhf "
            + "VSIM_PIPES=16", assertThrows(IllegalArgumentException.class, () -> NodeSpec.requireArmhfModel(16)).getMessage());
        NodeSpec.requireModels(List.of(new NodeSpec("x86", 0), new NodeSpec("arm", 0))); // no arm-fpga node: nothing to build
    }

    @Test
    void todaysShapeIsUnchanged() {
        assertEquals(List.of(new NodeSpec("x86", 0), new NodeSpec("fpga", 2)), NodeSpec.of(2, 2));
        assertEquals(List.of(new NodeSpec("x86", 0), new NodeSpec("x86", 0)), NodeSpec.of(2, 0));
    }

    @Test
    void aListWithoutAnX86NodeOrWithUnknownTypesIsRefused() {
        assertEquals("an embedded cluster needs an x86 node (it runs the job's ApplicationMaster and reducers)",
            assertThrows(IllegalArgumentException.class, () -> NodeSpec.parse("arm,arm:2", 2)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> NodeSpec.parse("x86,", 2));
        assertThrows(IllegalArgumentException.class, () -> NodeSpec.parse("x86:2:3", 2));
        assertThrows(IllegalArgumentException.class, () -> NodeSpec.parse("x86:17", 2));
        assertThrows(IllegalArgumentException.class, () -> new NodeSpec("arm", 2));
    }
}
