package io.fpgamr.md5.cluster;

import io.fpgamr.accel.NativeArtifacts;
import io.fpgamr.accel.design.DesignPackage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One NodeManager of the cluster: {@code x86}, a CPU node; {@code fpga}, an x86 host whose
 * {@code fpgaDevices} simulated FPGAs it offers as {@code yarn.io/fpga}; {@code arm}, a node whose
 * containers run Debian's armhf JVM under QEMU user-mode emulation of a Cortex-A9 ({@link ArmhfRoot})
 * and load the {@code linux-armhf} native library; {@code arm-fpga}, an ARM node with simulated FPGAs.
 */
public record NodeSpec(String type, int fpgaDevices) {
    public static final String X86 = "x86";
    public static final String FPGA = "fpga";
    public static final String ARM = "arm";
    public static final String ARM_FPGA = "arm-fpga";
    public static final List<String> TYPES = List.of(X86, FPGA, ARM, ARM_FPGA);
    /** The most NodeManagers an embedded cluster starts. */
    public static final int MAX_NODES = 16;

    public NodeSpec {
        if (!TYPES.contains(type) || hasFpga(type) != fpgaDevices > 0) {
            throw new IllegalArgumentException("a node is x86 or arm (no FPGA), or fpga or arm-fpga (with simulated FPGAs), got " + type
                + " with " + fpgaDevices + " FPGAs");
        }
    }

    private static boolean hasFpga(String type) {
        return type.equals(FPGA) || type.equals(ARM_FPGA);
    }

    /** Whether the node's containers run the armhf JVM, emulated. */
    public boolean arm() {
        return type.equals(ARM) || type.equals(ARM_FPGA);
    }

    /**
     * Checks that the nodes can start: an {@code arm-fpga} node's simulated FPGAs need the
     * accelerator's model built for armhf ({@link FpgaRequest#EMBEDDED_DESIGN}'s, which the
     * node's profiler and the job's default design load), which {@code make test} builds and
     * {@code make run} does not.
     *
     * @throws IllegalArgumentException in one line naming what is missing and the command that builds it
     */
    public static void requireModels(List<NodeSpec> specs) {
        if (specs.stream().anyMatch(n -> n.type().equals(ARM_FPGA))) {
            requireArmhfModel(FpgaRequest.embeddedDesignPipelines());
        }
    }

    /** Checks that the model of {@code pipelines} pipelines is built for armhf, in one line saying how to build it. */
    static void requireArmhfModel(int pipelines) {
        try {
            DesignPackage.findVsimModel(pipelines, ArmhfRoot.PLATFORM);
        } catch (IOException e) {
            throw new IllegalArgumentException("arm-fpga nodes need the simulated FPGA's model built for " + ArmhfRoot.PLATFORM + ", "
                + NativeArtifacts.vsimModel(pipelines) + ", which this build has not (make test builds it; make run does not): run "
                + "make -C jni-fpga/native/fpga vsim-libs PLATFORM=" + ArmhfRoot.PLATFORM + " VSIM_PIPES=" + pipelines);
        }
    }

    /** Today's shape: {@code nodes} NodeManagers, with FPGAs the last of them the FPGA node. */
    public static List<NodeSpec> of(int nodes, int fpgaDevices) {
        if (nodes < 1 || fpgaDevices > 0 && nodes < 2) {
            throw new IllegalArgumentException("an embedded cluster has at least one CPU node, and an FPGA node when it has FPGAs");
        }
        List<NodeSpec> specs = new ArrayList<>();
        for (int i = 0; i < (fpgaDevices > 0 ? nodes - 1 : nodes); i++) {
            specs.add(new NodeSpec(X86, 0));
        }
        if (fpgaDevices > 0) {
            specs.add(new NodeSpec(FPGA, fpgaDevices));
        }
        return specs;
    }

    /**
     * A list of node types with optional counts, {@code x86,arm} or {@code x86:2,fpga}, in
     * that order; nodes with FPGAs get {@code fpgaDevices} each. At least one x86 node: it runs the
     * job's ApplicationMaster and reducers.
     *
     * @throws IllegalArgumentException in one line naming what is wrong
     */
    public static List<NodeSpec> parse(String list, int fpgaDevices) {
        List<NodeSpec> specs = new ArrayList<>();
        for (String item : list.split(",", -1)) {
            String[] tc = item.strip().split(":", -1);
            String type = tc[0].strip();
            if (!TYPES.contains(type) || tc.length > 2) {
                throw new IllegalArgumentException("a node type is one of " + String.join(", ", TYPES) + ", with an optional count "
                    + "(x86:2); got '" + item.strip() + "'");
            }
            int count = 1;
            if (tc.length == 2) {
                try {
                    count = Integer.parseInt(tc[1].strip());
                } catch (NumberFormatException e) {
                    count = 0;
                }
                if (count < 1 || count > MAX_NODES) {
                    throw new IllegalArgumentException("the count of " + type + " nodes must be in 1.." + MAX_NODES + ", got '" + tc[1] + "'");
                }
            }
            if (hasFpga(type) && fpgaDevices < 1) {
                throw new IllegalArgumentException(type + " nodes need simulated FPGAs: --fpga-devices must be at least 1");
            }
            for (int i = 0; i < count; i++) {
                specs.add(new NodeSpec(type, hasFpga(type) ? fpgaDevices : 0));
            }
        }
        if (specs.size() > MAX_NODES) {
            throw new IllegalArgumentException("an embedded cluster has at most " + MAX_NODES + " nodes, got " + specs.size());
        }
        if (specs.stream().noneMatch(n -> n.type().equals(X86))) {
            throw new IllegalArgumentException("an embedded cluster needs an x86 node (it runs the job's ApplicationMaster and reducers)");
        }
        return specs;
    }
}
