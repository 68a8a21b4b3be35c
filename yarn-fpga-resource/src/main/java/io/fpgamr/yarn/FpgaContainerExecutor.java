package io.fpgamr.yarn;

import java.io.IOException;
import org.apache.hadoop.yarn.server.nodemanager.Context;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerPrepareContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;
import org.apache.hadoop.yarn.exceptions.ConfigurationException;

/**
 * Hadoop's DefaultContainerExecutor with the FPGA plugin's per-container part ({@link FpgaLaunch}):
 * the device framework's resource handler runs only under the LinuxContainerExecutor, so without
 * this a container would be counted against the node's FPGAs but never be given one. Set
 * {@code yarn.nodemanager.container-executor.class} to this class on FPGA nodes.
 */
public class FpgaContainerExecutor extends DefaultContainerExecutor {
    private FpgaLaunch fpga;

    @Override
    public void init(Context nmContext) throws IOException {
        super.init(nmContext);
        fpga = FpgaLaunch.create(nmContext, false);
    }

    @Override
    public void start() {
        super.start();
        fpga.start();
    }

    @Override
    public void stop() {
        fpga.stop();
        super.stop();
    }

    @Override
    public void prepareContainer(ContainerPrepareContext ctx) throws IOException {
        fpga.prepare(ctx);
        super.prepareContainer(ctx);
    }

    @Override
    public int launchContainer(ContainerStartContext ctx) throws IOException, ConfigurationException {
        try {
            return super.launchContainer(ctx);
        } finally {
            fpga.finished(ctx.getContainer());
        }
    }
}
