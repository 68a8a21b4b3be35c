package io.fpgamr.it;

import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.md5.cluster.EmbeddedCluster;
import io.fpgamr.md5.cluster.NodeSpec;
import io.fpgamr.md5.run.JvmOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.GenericOptionsParser;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * The embedded cluster in a process of its own, run until its standard input closes: the standing
 * cluster of the integration tests ({@link StandingCluster}), which submit their jobs to it through
 * {@code bin/fpgamr -conf FILE ... --cluster conf}, and stop its FPGA node mid-job ({@link FaultsTest})
 * with a line on its standard input. On the test class path: nothing in production needs it.
 */
final class EmbeddedClusterProcess {
    /** The line on {@link #main}'s standard input that stops the FPGA node. */
    static final String STOP_FPGA_NODE = "stop-fpga-node";

    private EmbeddedClusterProcess() {
    }

    /**
     * {@code EmbeddedClusterProcess [-D key=value]... --client-conf FILE [--fpga-devices N] [--nodes TYPES]}
     * writes the client configuration to FILE once the cluster is up. A line {@value #STOP_FPGA_NODE}
     * on standard input stops the FPGA node's NodeManager.
     */
    public static void main(String[] args) throws Exception {
        java.util.logging.LogManager.getLogManager().reset();
        GenericOptionsParser generic = new GenericOptionsParser(new Configuration(), args);
        Options options = new Options();
        options.addOption(Option.builder().longOpt("client-conf").hasArg().argName("FILE").required()
            .desc("where to write the client configuration once the cluster is up").build());
        options.addOption(Option.builder().longOpt("fpga-devices").hasArg().argName("N").type(Number.class)
            .desc("simulated FPGAs of the FPGA node (default " + EmbeddedCluster.DEFAULT_FPGA_DEVICES + ")").build());
        options.addOption(Option.builder().longOpt("nodes").hasArg().argName("TYPES")
            .desc("node types with optional counts, e.g. x86,arm (default: an x86 node and the FPGA node)").build());
        CommandLine cl;
        int devices;
        List<NodeSpec> specs;
        try {
            cl = new DefaultParser().parse(options, generic.getRemainingArgs());
            devices = cl.hasOption("fpga-devices") ? ((Number) cl.getParsedOptionValue("fpga-devices")).intValue() : EmbeddedCluster.DEFAULT_FPGA_DEVICES;
            specs = cl.hasOption("nodes") ? NodeSpec.parse(cl.getOptionValue("nodes"), devices) : NodeSpec.of(EmbeddedCluster.DEFAULT_NODES, devices);
        } catch (ParseException | IllegalArgumentException e) {
            System.err.println("EmbeddedClusterProcess: " + e.getMessage() + " (usage: EmbeddedClusterProcess [-D k=v]... --client-conf FILE "
                + "[--fpga-devices N] [--nodes TYPES])");
            System.exit(2);
            return;
        }
        Path clientConf = Path.of(cl.getOptionValue("client-conf")).toAbsolutePath();
        try (EmbeddedCluster c = EmbeddedCluster.start(generic.getConfiguration(), JvmOptions.JDK17_OPENS, specs)) {
            AtomicFiles.write(clientConf, c.config()::writeXml);
            System.out.println("fpgamr: embedded cluster up; client configuration in " + clientConf);
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null;) {
                if (line.strip().equals(STOP_FPGA_NODE)) {
                    stop(c.fpgaNode());
                    System.out.println("fpgamr: FPGA node stopped");
                    System.out.flush();
                }
            }
        }
        System.exit(0);
    }

    /** Stops the FPGA node's NodeManager (as a node that goes down mid-job): its containers die, the ResourceManager loses it. */
    private static void stop(NodeManager fpgaNode) {
        if (fpgaNode != null) {
            fpgaNode.stop();
        }
    }
}
