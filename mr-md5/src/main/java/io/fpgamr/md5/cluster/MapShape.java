package io.fpgamr.md5.cluster;

import java.util.List;

/**
 * Fewer, fuller map containers (issue 40): a map per CPU node that drives all of the node's cores
 * with threads ({@code mapreduce.map.cpu.vcores} of them, as {@code EngineMapper} opens the CPU
 * engine), and a map per FPGA. Every map still asks YARN for its container, the same for all maps
 * (a MapReduce job's maps share one request): {@code vcores} each, so that a CPU node (a vcore per
 * core and one for the AM) holds one map and an FPGA node (a vcore per core and per device, and one
 * for the AM) holds a map per device, each lent its device by the node's FPGA plugin. Fewer task
 * JVMs start on the machine's cores: each costs seconds of task set-up, and the embedded cluster's
 * nodes share one machine's cores anyway.
 *
 * @param maps   the maps that run at once in this shape
 * @param vcores each map's vcores, and its CPU engine's threads
 */
public record MapShape(int maps, int vcores) {

    /**
     * The fuller shape of a cluster of {@code nodes} with {@code cores} map slots per node, or null
     * where it does not apply: ARM nodes (their maps run emulated, one per core, as the study measures
     * them), or nodes too small for a map of two vcores or more per device on the FPGA node.
     */
    public static MapShape fuller(List<NodeSpec> nodes, int cores) {
        if (nodes.stream().anyMatch(NodeSpec::arm)) {
            return null;
        }
        int vcores = cores;
        int maps = 0;
        for (NodeSpec n : nodes) {
            if (n.fpgaDevices() > 0) {
                // the FPGA node offers a vcore per core and per device (EmbeddedNode): a map per device must fit
                vcores = Math.min(vcores, (cores + n.fpgaDevices()) / n.fpgaDevices());
                maps += n.fpgaDevices();
            } else {
                maps++;
            }
        }
        return vcores < 2 ? null : new MapShape(maps, vcores);
    }
}
