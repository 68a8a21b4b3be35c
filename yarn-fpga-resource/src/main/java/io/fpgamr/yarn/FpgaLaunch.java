package io.fpgamr.yarn;

import io.fpgamr.accel.design.DesignPackage;
import io.fpgamr.accel.design.FpgaContainer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.nodemanager.Context;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.Device;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.linux.resources.ResourceHandlerException;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.resourceplugin.ResourcePlugin;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.resourceplugin.deviceframework.DeviceMappingManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.resourceplugin.deviceframework.DevicePluginAdapter;
import org.apache.hadoop.yarn.exceptions.ConfigurationException;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerPrepareContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-container part of the FPGA plugin, run by the container executor: after the
 * NodeManager has localized a container and written its environment map, and before the launch
 * script is written ({@code prepareContainer}), it takes the devices the container asked for
 * through the device framework's bookkeeping (so {@link FpgaDevicePlugin#allocateDevices} picks
 * them), loads the container's design where a device holds another, and puts the device's driver
 * spec into the container's environment; when the container ends it reads the container's fault
 * report and frees the devices. A health thread checks the devices and keeps the
 * ResourceManager's count at the healthy ones.
 */
final class FpgaLaunch {
    private static final Logger LOG = LoggerFactory.getLogger(FpgaLaunch.class);
    private static final long GONE_MS = 10_000;
    private static final long VERIFY_MS = 10_000;

    private final Context nm;
    private final boolean linux;
    private final FpgaNode node;
    private final DeviceMappingManager dmm;
    private final long waitMs;
    private final long intervalMs;
    private final boolean lendToAuto;
    private final RmNodeResource rm;
    /** The platform of this node's containers, whose build of a simulated model they load ({@link FpgaConf#CONTAINER_PLATFORM}). */
    private final String containerPlatform;
    private final Map<String, Long> goneSince = new HashMap<>();
    private volatile Thread monitor;
    private int lastOffered = -1;
    private long lastVerifiedMs;
    private String lastPushError;

    private FpgaLaunch(Context nm, boolean linux, FpgaNode node, DeviceMappingManager dmm) {
        this.nm = nm;
        this.linux = linux;
        this.node = node;
        this.dmm = dmm;
        Configuration conf = nm.getConf();
        this.waitMs = conf.getLong(FpgaConf.WAIT_MS, 120_000);
        this.intervalMs = Math.max(50, conf.getLong(FpgaConf.HEALTH_INTERVAL_MS, 1000));
        this.lendToAuto = conf.getBoolean(FpgaConf.LEND_TO_AUTO, true);
        this.rm = node == null ? null : new RmNodeResource(conf);
        this.containerPlatform = FpgaConf.containerPlatform(conf);
    }

    /**
     * Hooks up with the FPGA device plugin of this NodeManager; a node without it gets hooks that
     * do nothing. Under the DefaultContainerExecutor the framework's resource handler never runs,
     * so the device set is registered here.
     */
    static FpgaLaunch create(Context nm, boolean linux) {
        ResourcePlugin p = nm.getResourcePluginManager() == null ? null
            : nm.getResourcePluginManager().getNameToPlugins().get(FpgaContainer.RESOURCE);
        if (!(p instanceof DevicePluginAdapter adapter) || !(adapter.getDevicePlugin() instanceof FpgaDevicePlugin plugin)) {
            LOG.info("no FPGA device plugin on this node: containers run without FPGAs");
            return new FpgaLaunch(nm, linux, null, null);
        }
        FpgaNode node = plugin.node();
        DeviceMappingManager dmm = adapter.getDeviceMappingManager();
        synchronized (dmm) {
            if (dmm.getAllAllowedDevices().get(FpgaContainer.RESOURCE) == null) {
                dmm.addDeviceSet(FpgaContainer.RESOURCE, node.yarnDevices());
            }
        }
        return new FpgaLaunch(nm, linux, node, dmm);
    }

    void start() {
        if (node == null) {
            return;
        }
        Thread t = new Thread(this::monitorLoop, "fpgamr-fpga-health");
        t.setDaemon(true);
        monitor = t;
        t.start();
    }

    void stop() {
        Thread t = monitor;
        monitor = null;
        if (t != null) {
            t.interrupt();
            try {
                t.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (rm != null) {
            rm.close();
        }
    }

    /** Before the launch script is written: devices, design, environment. */
    void prepare(ContainerPrepareContext ctx) throws IOException {
        if (node == null) {
            return;
        }
        Container c = ctx.getContainer();
        Map<String, String> env = c.getLaunchContext().getEnvironment();
        String cid = c.getContainerId().toString();
        int want = DeviceMappingManager.getRequestedDeviceCount(FpgaContainer.RESOURCE, c.getResource());
        boolean auto = want == 0 && "auto".equals(env.get(FpgaContainer.ACCEL_ENV)) && lendToAuto && !linux;
        if (want == 0 && !auto) {
            return;
        }
        DesignPackage design;
        try {
            design = findDesign(env.get(FpgaContainer.DESIGN_ENV), ctx.getLocalizedResources());
        } catch (IOException e) {
            if (auto) {
                LOG.warn("{}: no FPGA lent: {}", cid, e.getMessage());
                return;
            }
            throw e;
        }
        if (design != null) {
            env.put(FpgaContainer.DESIGN_SHA256_ENV, design.sha256());
        }
        List<Accelerator> got = want > 0 ? take(c, want) : lend(c, design);
        if (got.isEmpty()) {
            return;
        }
        try {
            List<String> specs = new ArrayList<>();
            for (Accelerator a : got) {
                node.prepare(a, design, cid);
                specs.add(a.spec());
            }
            env.put(FpgaContainer.DEVICE_ENV, specs.get(0));
            env.put(FpgaContainer.DEVICES_ENV, String.join(";", specs));
            LOG.info("{} gets {} ({})", cid, specs, design == null ? "design as loaded" : design.describe());
        } catch (IOException | RuntimeException e) {
            release(c.getContainerId(), "not started: " + e.getMessage());
            if (auto) {
                LOG.warn("{}: no FPGA lent: {}", cid, e.getMessage());
                return;
            }
            throw new IOException(cid + ": " + e.getMessage(), e);
        }
        if (linux && want > 0) {
            // The framework's own handler assigns again in preStart; the plugin's scheduler gives
            // it the devices held here (and the handler sets up the device cgroup).
            dmm.cleanupAssignedDevices(FpgaContainer.RESOURCE, c.getContainerId());
        }
    }

    /**
     * The design package the container brought, localized under the link name it gave; of several
     * (a comma-separated list, one per platform), the one for this node's containers' platform.
     */
    private DesignPackage findDesign(String links, Map<Path, List<String>> localized) throws IOException {
        if (links == null || links.isBlank()) {
            return null;
        }
        List<java.nio.file.Path> files = new ArrayList<>();
        for (String link : links.split(",")) {
            java.nio.file.Path file = null;
            if (localized != null) {
                for (Map.Entry<Path, List<String>> e : localized.entrySet()) {
                    if (e.getValue() != null && e.getValue().contains(link.strip())) {
                        file = java.nio.file.Path.of(e.getKey().toUri().getPath());
                    }
                }
            }
            if (file == null) {
                throw new IOException("the container names design package '" + link.strip() + "' (" + FpgaContainer.DESIGN_ENV
                    + ") but brought no such file");
            }
            files.add(file);
        }
        return node.designs().openFor(files, containerPlatform);
    }

    /**
     * The devices a container asked for, through the framework's bookkeeping, waiting (up to
     * {@link FpgaConf#WAIT_MS}) while fewer healthy ones are free: a device lent to an
     * {@code auto} container comes back when that container ends.
     */
    private List<Accelerator> take(Container c, int want) throws IOException {
        String cid = c.getContainerId().toString();
        long deadline = System.currentTimeMillis() + waitMs;
        node.waiting(1);
        try {
            while (true) {
                synchronized (dmm) {
                    if (node.usable(free()) >= want) {
                        try {
                            dmm.assignDevices(FpgaContainer.RESOURCE, c);
                        } catch (ResourceHandlerException e) {
                            node.release(cid, "not assigned");
                            throw new IOException(cid + ": " + e.getMessage(), e);
                        }
                        List<Accelerator> got = node.held(cid);
                        if (got.size() != want) {
                            release(c.getContainerId(), "not assigned");
                            throw new IOException(cid + ": got " + got.size() + " of " + want + " " + FpgaContainer.RESOURCE);
                        }
                        return got;
                    }
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException(cid + ": no " + want + " free healthy " + FpgaContainer.RESOURCE + " on this node after "
                        + waitMs / 1000 + " s: " + node);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(cid + ": interrupted while waiting for an FPGA");
                }
            }
        } finally {
            node.waiting(-1);
        }
    }

    /** A free device for a container that asked for none, marked used in the framework's books. */
    private List<Accelerator> lend(Container c, DesignPackage design) {
        synchronized (dmm) {
            Set<Device> allowed = dmm.getAllAllowedDevices().get(FpgaContainer.RESOURCE);
            Accelerator a = node.lend(free(), c.getContainerId().toString(), design == null ? null : design.sha256());
            if (a == null || allowed == null) {
                return List.of();
            }
            for (Device d : allowed) {
                if (d.getId() == a.id) {
                    dmm.getAllUsedDevices().get(FpgaContainer.RESOURCE).put(d, c.getContainerId());
                }
            }
            return List.of(a);
        }
    }

    /** The devices the framework has not given out. Called holding the framework's lock. */
    private Set<Device> free() {
        Set<Device> allowed = dmm.getAllAllowedDevices().get(FpgaContainer.RESOURCE);
        Map<Device, ContainerId> used = dmm.getAllUsedDevices().get(FpgaContainer.RESOURCE);
        Set<Device> free = new TreeSet<>();
        if (allowed != null) {
            free.addAll(allowed);
            if (used != null) {
                free.removeAll(used.keySet());
            }
        }
        return free;
    }

    /** The executor's own launch of a container. */
    @FunctionalInterface
    interface Launch {
        int launch(ContainerStartContext ctx) throws IOException, ConfigurationException;
    }

    /** Launches the container with the executor's {@code launch}, then takes back its devices ({@link #finished}). */
    int launch(ContainerStartContext ctx, Launch launch) throws IOException, ConfigurationException {
        try {
            return launch.launch(ctx);
        } finally {
            finished(ctx.getContainer());
        }
    }

    /** After the container's process ended: its fault report, then its devices back. */
    private void finished(Container c) {
        if (node == null) {
            return;
        }
        String cid = c.getContainerId().toString();
        if (node.held(cid).isEmpty()) {
            return;
        }
        String wd = c.getWorkDir();
        boolean fault = wd != null && node.faultReported(cid, java.nio.file.Path.of(wd));
        release(c.getContainerId(), "exited");
        if (fault) {
            offer(); // out of the ResourceManager's count now, not at the next health round
        }
    }

    private void release(ContainerId id, String why) {
        synchronized (dmm) {
            dmm.cleanupAssignedDevices(FpgaContainer.RESOURCE, id);
            node.release(id.toString(), why);
        }
    }

    private void monitorLoop() {
        while (monitor == Thread.currentThread()) {
            try {
                node.checkAll();
                reclaim();
                offer();
            } catch (RuntimeException e) {
                LOG.warn("FPGA health round failed", e);
            }
            try {
                Thread.sleep(intervalMs);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Devices still held for containers that are gone (killed before they ran, say) come back after a while. */
    private void reclaim() {
        long now = System.currentTimeMillis();
        for (String cid : node.holders()) {
            ContainerId id = ContainerId.fromString(cid);
            Container c = nm.getContainers().get(id);
            if (c == null || c.isContainerInFinalStates()) {
                long since = goneSince.computeIfAbsent(cid, k -> now);
                if (now - since >= GONE_MS) {
                    release(id, "container gone");
                    goneSince.remove(cid);
                }
            } else {
                goneSince.remove(cid);
            }
        }
        goneSince.keySet().retainAll(node.holders());
    }

    /** Keeps the ResourceManager's count of this node's FPGAs at the healthy ones. */
    private synchronized void offer() {
        NodeId id = nm.getNodeId();
        if (id == null) {
            return;
        }
        int healthy = node.healthyCount();
        long now = System.currentTimeMillis();
        if (healthy == lastOffered && now - lastVerifiedMs < VERIFY_MS) {
            return;
        }
        try {
            if (rm.setFpgas(id, healthy) >= 0) {
                lastOffered = healthy;
                lastVerifiedMs = now;
            }
            lastPushError = null;
        } catch (Exception e) {
            String m = String.valueOf(e.getMessage());
            if (!m.equals(lastPushError)) {
                LOG.warn("cannot tell the ResourceManager that {} offers {} {}: {}", id, healthy, FpgaContainer.RESOURCE, m);
                lastPushError = m;
            }
        }
    }
}
