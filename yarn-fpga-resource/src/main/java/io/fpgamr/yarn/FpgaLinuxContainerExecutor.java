package io.fpgamr.yarn;

import java.io.IOException;
import org.apache.hadoop.yarn.exceptions.ConfigurationException;
import org.apache.hadoop.yarn.server.nodemanager.Context;
import org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerPrepareContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;

/**
 * Hadoop's LinuxContainerExecutor with the FPGA plugin's per-container part ({@link FpgaLaunch},
 * which both executors delegate to): the device framework's handler confines each container to its
 * devices with the devices cgroup (through container-executor), and this adds what the framework
 * leaves out for non-Docker containers: the design load and the container's environment.
 * Containers that asked for no FPGA get none here (the cgroup denies them every device), so
 * {@code auto} maps use the CPU.
 */
public class FpgaLinuxContainerExecutor extends LinuxContainerExecutor {
    private FpgaLaunch fpga;

    // One line each, as in FpgaContainerExecutor: FpgaLaunch does the work.
    @Override public void init(Context nm) throws IOException { super.init(nm); fpga = FpgaLaunch.create(nm, true); }
    @Override public void start() { super.start(); fpga.start(); }
    @Override public void stop() { fpga.stop(); super.stop(); }
    @Override public void prepareContainer(ContainerPrepareContext c) throws IOException { fpga.prepare(c); super.prepareContainer(c); }
    @Override public int launchContainer(ContainerStartContext c) throws IOException, ConfigurationException { return fpga.launch(c, super::launchContainer); }
}
