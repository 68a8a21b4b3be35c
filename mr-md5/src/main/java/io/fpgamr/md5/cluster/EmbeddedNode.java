package io.fpgamr.md5.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/** Starting one node of the embedded cluster: a NodeManager of its own, joined to the cluster's ResourceManager. */
final class EmbeddedNode {
    private EmbeddedNode() {
    }

    /**
     * A NodeManager of the cluster at {@code host} (a loopback address of its own): the cluster's
     * configuration (with the ResourceManager's bound addresses) plus its own directories, ports and
     * resources (the AM and a map per core, and one map per FPGA), its speed profile as node
     * attributes, and on an FPGA node the FPGA device plugin and the executor that gives containers
     * their devices. Settings from {@code base} under {@code fpgamr.fpga.} (health intervals, say)
     * apply to it.
     */
    static NodeManager start(MiniMRYarnCluster yarn, Path dir, String host, NodeSpec spec, int slots, Path fpgaState,
        Configuration base, ArmhfRoot armhf) throws IOException {
        Configuration rm = yarn.getResourceManager().getConfig();
        YarnConfiguration c = new YarnConfiguration(yarn.getConfig());
        for (String k : new String[] {YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
            YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS}) {
            c.set(k, rm.get(k));
        }
        Files.createDirectories(dir.resolve("local"));
        Files.createDirectories(dir.resolve("log"));
        c.set(YarnConfiguration.NM_LOCAL_DIRS, dir.resolve("local").toString());
        c.set(YarnConfiguration.NM_LOG_DIRS, dir.resolve("log").toString());
        c.set(YarnConfiguration.NM_ADDRESS, host + ":0");
        c.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
        c.set(YarnConfiguration.NM_WEBAPP_ADDRESS, host + ":0");
        c.set(YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS, host + ":0");
        int maps = slots + spec.fpgaDevices();
        c.setInt(YarnConfiguration.NM_PMEM_MB, EmbeddedCluster.AM_MB + maps * EmbeddedCluster.MAP_MB);
        c.setInt(YarnConfiguration.NM_VCORES, maps + 1);
        c.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
        c.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, false);
        c.setLong(YarnConfiguration.NM_RESOURCE_MON_INTERVAL_MS, 0);
        c.set(YarnConfiguration.NM_NODE_ATTRIBUTES_PROVIDER_CONFIG, "io.fpgamr.yarn.SpeedAttributesProvider");
        c.set("fpgamr.speed.profile", dir.resolve(EmbeddedCluster.PROFILE_FILE).toString());
        if (spec.arm()) {
            // As an operator sets an ARM board's NodeManager: its containers' JVM is the armhf one (here
            // under QEMU's emulation of a Cortex-A9), forced over the launcher's JAVA_HOME.
            StringBuilder env = new StringBuilder(c.get(YarnConfiguration.NM_ADMIN_USER_ENV, YarnConfiguration.DEFAULT_NM_ADMIN_USER_ENV));
            armhf.containerEnv().forEach((k, v) -> env.append(',').append(k).append('=').append(v));
            c.set(YarnConfiguration.NM_ADMIN_USER_ENV, env.toString());
            c.setInt(YarnConfiguration.NM_RESOURCES_PREFIX + EmbeddedCluster.ARM_RESOURCE, maps);
        } else if (armhf != null) {
            c.setInt(YarnConfiguration.NM_RESOURCES_PREFIX + EmbeddedCluster.FRAMEWORK_RESOURCE, maps + 1);
        }
        if (spec.fpgaDevices() > 0) {
            if (spec.arm()) {
                // the x86 NodeManager's containers are armhf: its devices load the armhf build of a design's model
                c.set("fpgamr.fpga.container-platform", ArmhfRoot.PLATFORM);
            }
            c.set(YarnConfiguration.NM_CONTAINER_EXECUTOR, "io.fpgamr.yarn.FpgaContainerExecutor");
            c.setBoolean(YarnConfiguration.NM_PLUGGABLE_DEVICE_FRAMEWORK_ENABLED, true);
            c.set(YarnConfiguration.NM_PLUGGABLE_DEVICE_FRAMEWORK_DEVICE_CLASSES, "io.fpgamr.yarn.FpgaDevicePlugin");
            c.setInt("fpgamr.fpga.vsim.devices", spec.fpgaDevices());
            c.set("fpgamr.fpga.state-dir", fpgaState.toString());
            c.setBoolean("fpgamr.fpga.uio.discover", false);
            base.getPropsWithPrefix("fpgamr.fpga.").forEach((k, v) -> c.set("fpgamr.fpga." + k, v));
        }
        NodeManager nm = new NodeManager();
        // A JVM keeps the first NodeManager's resource types (yarn.nodemanager.resource-type.*) for all:
        // each node of this one JVM reads its own (only x86 nodes offer FRAMEWORK_RESOURCE, only ARM nodes ARM_RESOURCE).
        ResourceUtils.resetNodeResources();
        nm.init(c);
        nm.start();
        if (nm.getServiceState() != Service.STATE.STARTED) {
            throw new IOException("the " + spec.type() + " NodeManager at " + host + " failed to start");
        }
        return nm;
    }
}
