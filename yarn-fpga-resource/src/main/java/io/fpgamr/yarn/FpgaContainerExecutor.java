package io.fpgamr.yarn;

import java.io.IOException;
import org.apache.hadoop.yarn.exceptions.ConfigurationException;
import org.apache.hadoop.yarn.server.nodemanager.Context;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerPrepareContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;

/**
 * Hadoop's DefaultContainerExecutor with the FPGA plugin's per-container part ({@link FpgaLaunch},
 * which both executors delegate to): the device framework's resource handler runs only under the
 * LinuxContainerExecutor, so without this a container would be counted against the node's FPGAs
 * but never be given one. Set {@code yarn.nodemanager.container-executor.class} to this class on
 * FPGA nodes.
 */
public class FpgaContainerExecutor extends DefaultContainerExecutor {
    private FpgaLaunch fpga;

    // One line each, as in FpgaLinuxContainerExecutor: FpgaLaunch does the work.
    @Override public void init(Context nm) throws IOException { super.init(nm); fpga = FpgaLaunch.create(nm, false); }
    @Override public void start() { super.start(); fpga.start(); }
    @Override public void stop() { fpga.stop(); super.stop(); }
    @Override public void prepareContainer(ContainerPrepareContext c) throws IOException { fpga.prepare(c); super.prepareContainer(c); }
    @Override public int launchContainer(ContainerStartContext c) throws IOException, ConfigurationException { return fpga.launch(c, super::launchContainer); }
}
