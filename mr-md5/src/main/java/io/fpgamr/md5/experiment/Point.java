package io.fpgamr.md5.experiment;

import io.fpgamr.md5.job.Md5Job.Mode;
import io.fpgamr.md5.shuffle.TimedMapOutputBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.task.reduce.Shuffle;

/**
 * One job of a plan: which job, on which node type, over what. Its {@link #id()} is its key in
 * {@code results.csv}: a resumed run skips the runs of a point already there.
 *
 * @param job      {@code fpgamr} (the bench job), {@code baseline} (the plain Hadoop job) or {@code stock} (the bench job on
 *                 Hadoop's own collector and shuffle)
 * @param nodeType {@code x86} (this machine's CPU), {@code fpga} (the FPGA node: on the embedded cluster a simulated device, which the
 *                 run's flags say), {@code arm} (ARM nodes: on the embedded cluster an armhf JVM under QEMU, emulated) or
 *                 {@code arm-fpga} (ARM nodes with FPGAs: on the embedded cluster both emulated and simulated)
 * @param nodes    NodeManagers doing the work: CPU nodes for x86, the one FPGA node for fpga, ARM nodes for arm and arm-fpga
 */
public record Point(String job, String nodeType, int bits, int ppk, int maps, int reducers, int nodes) {

    public String id() {
        return job + "/" + nodeType + "/bits=" + bits + "/ppk=" + ppk + "/maps=" + maps + "/reducers=" + reducers + "/nodes=" + nodes;
    }

    /** A name for the point's folders: its id with '/' and '=' made plain. */
    public String folder() {
        return id().replace("/", "_").replace("=", "");
    }

    /** The launcher's mode of the point's job. */
    public Mode mode() {
        return job.equals("baseline") ? Mode.BASELINE : Mode.BENCH;
    }

    /**
     * Hadoop settings of the point's job besides its arguments, given as a user's {@code -D} would be: the
     * {@code stock} job's Hadoop collector (its flush timed: {@link TimedMapOutputBuffer}) and Hadoop's
     * shuffle in place of fpgamr's; the plain job sets its own collector ({@code BaselineJob}).
     */
    public Map<String, String> settings() {
        return job.equals("stock") ? Map.of(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, TimedMapOutputBuffer.class.getName(),
            MRConfig.SHUFFLE_CONSUMER_PLUGIN, Shuffle.class.getName()) : Map.of();
    }

    public boolean fpga() {
        return nodeType.equals("fpga");
    }

    /** An ARM point (arm or arm-fpga): its maps run on ARM nodes, emulated on the embedded cluster. */
    public boolean arm() {
        return nodeType.equals("arm") || nodeType.equals("arm-fpga");
    }

    /** Its maps hash on FPGAs: the FPGA node's (an x86 host) or the ARM-FPGA nodes'. */
    public boolean fpgaMaps() {
        return fpga() || nodeType.equals("arm-fpga");
    }

    /**
     * The embedded cluster this point needs: its NodeManagers and simulated FPGAs. An FPGA point's
     * maps run on the FPGA node only (every map asks for a device); a CPU node beside it takes reduces.
     * An ARM point's maps run on its ARM nodes only ({@code --maps-on arm}), an ARM-FPGA point's on
     * its ARM-FPGA nodes' FPGAs (no other node has one); an x86 node beside them runs the
     * ApplicationMaster and the reduces.
     */
    public Shape shape(int fpgaDevices) {
        if (arm()) {
            return new Shape(nodes + 1, fpgaMaps() ? fpgaDevices : 0, nodes);
        }
        return fpga() ? new Shape(nodes + 1, fpgaDevices) : new Shape(nodes, 0);
    }

    /**
     * An embedded cluster's size: its NodeManagers, its simulated FPGAs, and of its nodes the ARM
     * nodes beside one x86 node (ARM-FPGA nodes when it has FPGAs: they hold them).
     */
    public record Shape(int nodes, int fpgaDevices, int armNodes) {
        public Shape(int nodes, int fpgaDevices) {
            this(nodes, fpgaDevices, 0);
        }

        /** The launcher's flags that start such a cluster. */
        public List<String> args() {
            if (armNodes > 0 && fpgaDevices > 0) {
                return List.of("--cluster", "embedded", "--nodes", "x86,arm-fpga:" + armNodes, "--fpga-devices", Integer.toString(fpgaDevices));
            }
            if (armNodes > 0) {
                return List.of("--cluster", "embedded", "--nodes", "x86,arm:" + armNodes, "--maps-on", "arm");
            }
            return List.of("--cluster", "embedded", "--nodes", Integer.toString(nodes), "--fpga-devices", Integer.toString(fpgaDevices));
        }

        @Override
        public String toString() {
            return nodes + " node" + (nodes == 1 ? "" : "s") + (fpgaDevices > 0 ? ", " + fpgaDevices + " simulated FPGAs" : "")
                + (armNodes > 0 ? ", " + armNodes + " of them ARM" + (fpgaDevices > 0 ? "-FPGA" : "") + " (armhf JVM under QEMU, emulated)" : "");
        }
    }

    /** The launcher's arguments for one run of this point (the cluster's flags come from the session). */
    public List<String> args(String target, int timeoutS) {
        List<String> a = new ArrayList<>(List.of(target, "--bits", Integer.toString(bits), "--ppk", Integer.toString(ppk),
            "--maps", Integer.toString(maps), "--reducers", Integer.toString(reducers), "--repeat", "1",
            "--timeout", Integer.toString(timeoutS), "--accel", fpgaMaps() ? "fpga" : "cpu"));
        return a;
    }
}
