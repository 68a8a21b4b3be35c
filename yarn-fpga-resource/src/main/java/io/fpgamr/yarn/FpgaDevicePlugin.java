package io.fpgamr.yarn;

import io.fpgamr.accel.design.FpgaContainer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.Device;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.DevicePlugin;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.DevicePluginScheduler;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.DeviceRegisterRequest;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.DeviceRuntimeSpec;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.YarnRuntimeType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fpgamr's FPGAs in YARN's pluggable device framework, as resource {@value FpgaContainer#RESOURCE}:
 * the node's accelerators (simulated ones declared in the configuration, real ones found in sysfs),
 * their count for the ResourceManager, and the choice of devices for a container, which prefers
 * devices that already hold the design the container asked for.
 *
 * <p>Enabled in yarn-site.xml with {@code yarn.nodemanager.pluggable-device-framework.enabled=true}
 * and {@code yarn.nodemanager.pluggable-device-framework.device-classes=io.fpgamr.yarn.FpgaDevicePlugin};
 * the container executor {@link FpgaContainerExecutor} (or {@link FpgaLinuxContainerExecutor})
 * does the per-container part the framework leaves out: loading the design and telling the
 * container its device.
 */
public class FpgaDevicePlugin implements DevicePlugin, DevicePluginScheduler, Configurable {
    private static final Logger LOG = LoggerFactory.getLogger(FpgaDevicePlugin.class);

    private Configuration conf;
    private FpgaNode node;

    @Override
    public void setConf(Configuration conf) {
        this.conf = conf;
    }

    @Override
    public Configuration getConf() {
        return conf;
    }

    /** This NodeManager's devices, discovered on first use. */
    synchronized FpgaNode node() {
        if (node == null) {
            try {
                node = FpgaNode.discover(conf != null ? conf : new Configuration());
            } catch (IOException e) {
                throw new UncheckedIOException("FPGA discovery failed: " + e.getMessage(), e);
            }
        }
        return node;
    }

    @Override
    public DeviceRegisterRequest getRegisterRequestInfo() {
        node();
        return DeviceRegisterRequest.Builder.newInstance().setResourceName(FpgaContainer.RESOURCE).setPluginVersion("0.1.0").build();
    }

    /**
     * Every device, each marked healthy or not: the framework counts them all when the node
     * registers; {@link FpgaContainerExecutor} then keeps the ResourceManager's count at the
     * healthy ones.
     */
    @Override
    public Set<Device> getDevices() {
        return node().yarnDevices();
    }

    /**
     * Nothing for the framework to do: the environment of a non-Docker container is set by the
     * executor (the framework ignores a runtime spec outside Docker), and the device cgroup is
     * the framework's own work under the LinuxContainerExecutor.
     */
    @Override
    public DeviceRuntimeSpec onDevicesAllocated(Set<Device> allocated, YarnRuntimeType runtime) {
        LOG.debug("devices allocated: {} ({})", allocated, runtime);
        return null;
    }

    @Override
    public void onDevicesReleased(Set<Device> released) {
        LOG.debug("devices released: {}", released);
    }

    @Override
    public Set<Device> allocateDevices(Set<Device> available, int count, Map<String, String> env) {
        Set<Device> pick = node().allocate(available, count, env);
        LOG.info("{} {} for {} (design {}): {}", pick.size() == count ? "allocated" : "only", pick.size(),
            env.get("CONTAINER_ID"), env.getOrDefault(FpgaContainer.DESIGN_SHA256_ENV, "as loaded"), pick);
        return pick;
    }
}
