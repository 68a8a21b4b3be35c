package io.fpgamr.md5.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The embedded cluster's fewer, fuller maps: a map per CPU node on all its cores, a map per FPGA. */
class MapShapeTest {
    @Test
    void theDefaultClusterOnTwoCoresRunsOneCpuMapOfTwoVcoresAndAMapPerFpga() {
        assertEquals(new MapShape(3, 2), MapShape.fuller(NodeSpec.of(2, 2), 2));
        // two CPU nodes, no FPGA: a map each
        assertEquals(new MapShape(2, 2), MapShape.fuller(NodeSpec.of(2, 0), 2));
        assertEquals(new MapShape(4, 8), MapShape.fuller(List.of(new NodeSpec("x86", 0), new NodeSpec("x86", 0),
            new NodeSpec("x86", 0), new NodeSpec("fpga", 1)), 8));
    }

    @Test
    void theFpgaNodeMustHoldAMapPerDevice() {
        // 4 cores, 2 devices: the FPGA node offers 6 vcores to maps, so a map of 3 (not 4) per device
        assertEquals(new MapShape(3, 3), MapShape.fuller(NodeSpec.of(2, 2), 4));
        // 2 cores, 4 devices: 6 vcores, 4 maps of 1: no fuller than a map per slot
        assertNull(MapShape.fuller(NodeSpec.of(2, 4), 2));
        assertNull(MapShape.fuller(NodeSpec.of(2, 0), 1));
    }

    @Test
    void armNodesKeepAMapPerCore() {
        assertNull(MapShape.fuller(List.of(new NodeSpec("x86", 0), new NodeSpec("arm", 0)), 2));
    }
}
