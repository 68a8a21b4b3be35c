package io.fpgamr.yarn;

import io.fpgamr.accel.design.DesignPackage;
import io.fpgamr.accel.design.FpgaContainer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.Device;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accelerators of one NodeManager and who holds them: discovery, the choice of a device for
 * a container (one that already holds the requested design first), design loading, faults and
 * health. Thread-safe; when both are needed, the device framework's lock is taken before this
 * one (the framework calls {@link #allocate} while holding its own).
 */
public final class FpgaNode {
    private static final Logger LOG = LoggerFactory.getLogger(FpgaNode.class);

    private final List<Accelerator> devices;
    private final DesignCache designs;
    /** The node's own simulated design (a vsim device's "boot design"), or null when the node has no model of its own. */
    private final DesignPackage bootVsim;
    private final long recoveryMs;
    private final Map<String, List<Accelerator>> held = new LinkedHashMap<>();
    private final Set<String> lent = new HashSet<>();
    private int waiting;

    FpgaNode(List<Accelerator> devices, DesignCache designs, DesignPackage bootVsim, long recoveryMs) {
        this.devices = List.copyOf(devices);
        this.designs = designs;
        this.bootVsim = bootVsim;
        this.recoveryMs = recoveryMs;
    }

    /**
     * The node's accelerators: {@link FpgaConf#VSIM_DEVICES} simulated ones ({@code vsim0..}, ids
     * from 0), then the real ones sysfs shows, by platform device name.
     */
    static FpgaNode discover(Configuration conf) throws IOException {
        Path state = FpgaConf.stateDir(conf);
        Files.createDirectories(state);
        List<Accelerator> found = new ArrayList<>();
        int vsim = conf.getInt(FpgaConf.VSIM_DEVICES, 0);
        for (int i = 0; i < vsim; i++) {
            found.add(new VsimAccelerator(found.size(), state.resolve("vsim" + i), conf.get(FpgaConf.VSIM_OPTIONS, ""),
                FpgaConf.containerPlatform(conf)));
        }
        long timeoutMs = conf.getLong(FpgaConf.PROGRAM_TIMEOUT_MS, 30_000);
        Path staging = FpgaConf.stagingDir(conf);
        DesignLoader loader = new DesignLoader(Path.of(conf.get(FpgaConf.LOADER_SOCKET, FpgaConf.DEFAULT_LOADER_SOCKET)), staging,
            timeoutMs);
        if (conf.getBoolean(FpgaConf.UIO_DISCOVER, true)) {
            Path sysfs = Path.of(conf.get(FpgaConf.SYSFS_ROOT, "/sys"));
            Path dev = Path.of(conf.get(FpgaConf.DEV_ROOT, "/dev"));
            List<UioAccelerator.Info> uio = UioAccelerator.scan(sysfs);
            BootDesign boot = uio.isEmpty() ? null : BootDesign.of(conf, sysfs, state);
            if (boot != null) {
                LOG.info("FPGA {}", boot);
            }
            for (UioAccelerator.Info info : uio) {
                found.add(new UioAccelerator(found.size(), info, state.resolve(info.platformDevice()), sysfs, dev,
                    conf.get(FpgaConf.UIO_OPTIONS, ""), loader, timeoutMs, boot));
            }
        }
        DesignCache cache = new DesignCache(state.resolve("designs"), staging, conf.getLong(FpgaConf.DESIGN_CACHE_MAX_BYTES, 1L << 30),
            conf.getLong(FpgaConf.DESIGN_CACHE_MAX_AGE_MS, 7L * 24 * 3600 * 1000));
        DesignPackage boot = vsim > 0 ? bootVsim(conf, state, cache) : null;
        FpgaNode node = new FpgaNode(found, cache, boot, conf.getLong(FpgaConf.RECOVERY_MS, 30_000));
        for (Accelerator a : found) {
            Accelerator.Loaded l = a.loaded();
            a.log("discovered", "kind=" + a.kind(), "holds=" + (l == null ? "-" : l.sha256()));
        }
        node.checkAll();
        LOG.info("FPGA devices of this node: {}", found);
        return node;
    }

    /**
     * The node's own simulated design, packed from its own model library ({@link
     * FpgaConf#VSIM_BOOT_MODEL}) and kept in the node's copies; null, with one line in the log,
     * when the node has none (containers that name no design then get no simulated device).
     */
    private static DesignPackage bootVsim(Configuration conf, Path state, DesignCache cache) {
        String platform = FpgaConf.containerPlatform(conf);
        int pipelines = conf.getInt(FpgaConf.VSIM_BOOT_PIPELINES, 4);
        try {
            String given = conf.get(FpgaConf.VSIM_BOOT_MODEL, "");
            Path model = given.isBlank() ? DesignPackage.findVsimModel(pipelines, platform) : Path.of(given);
            Path pkg = Files.createDirectories(state.resolve("boot")).resolve("md5acc-vsim-p" + pipelines + "-" + platform + ".zip");
            return cache.keep(DesignPackage.createVsim(pkg, pipelines, model, platform));
        } catch (IOException e) {
            LOG.warn("no simulated design of this node's own: containers that name no design get no simulated device: {}",
                e.getMessage());
            return null;
        }
    }

    List<Accelerator> devices() {
        return devices;
    }

    DesignCache designs() {
        return designs;
    }

    long recoveryMs() {
        return recoveryMs;
    }

    Accelerator byId(int id) {
        for (Accelerator a : devices) {
            if (a.id == id) {
                return a;
            }
        }
        throw new IllegalArgumentException("no FPGA device with id " + id);
    }

    /** Every device as YARN sees it, healthy or not. */
    Set<Device> yarnDevices() {
        Set<Device> s = new TreeSet<>();
        for (Accelerator a : devices) {
            s.add(a.yarnDevice());
        }
        return s;
    }

    int healthyCount() {
        return (int) devices.stream().filter(Accelerator::healthy).count();
    }

    /** The free devices ({@code free}: those the framework has not given out) that are healthy and held by nobody. */
    synchronized int usable(Set<Device> free) {
        return (int) free.stream().map(d -> byId(d.getId())).filter(a -> a.healthy() && a.holder() == null).count();
    }

    /**
     * Picks {@code count} devices for a container among {@code available}: healthy ones held by
     * nobody, those already holding the requested design ({@value FpgaContainer#DESIGN_SHA256_ENV})
     * first, then empty ones, then the least recently used. A container that already holds
     * devices (the second call under the LinuxContainerExecutor) gets them again. May return
     * fewer than asked when there are not enough.
     */
    synchronized Set<Device> allocate(Set<Device> available, int count, Map<String, String> env) {
        String container = env.getOrDefault("CONTAINER_ID", "?");
        Set<Integer> availableIds = available.stream().map(Device::getId).collect(Collectors.toSet());
        List<Accelerator> mine = held.get(container);
        if (mine != null && mine.size() == count && mine.stream().allMatch(a -> availableIds.contains(a.id))) {
            return toDevices(mine);
        }
        List<Accelerator> pick = rank(availableIds, env.get(FpgaContainer.DESIGN_SHA256_ENV), false).stream().limit(count).toList();
        hold(container, pick);
        return toDevices(pick);
    }

    /**
     * Lends a free device to a container that asked for none (FPGAMR_ACCEL=auto): only when no
     * container that asked for FPGAs is waiting; without a design, a hardware device only when it
     * holds one, a simulated one only when the node has a model of its own ({@link #prepare}
     * puts it there). Null when there is none to lend.
     */
    synchronized Accelerator lend(Set<Device> free, String container, String wantSha) {
        if (waiting > 0) {
            return null;
        }
        List<Accelerator> r = rank(free.stream().map(Device::getId).collect(Collectors.toSet()), wantSha, wantSha == null);
        if (r.isEmpty()) {
            return null;
        }
        hold(container, List.of(r.get(0)));
        lent.add(container);
        return r.get(0);
    }

    private List<Accelerator> rank(Set<Integer> ids, String wantSha, boolean loadedOnly) {
        String boot = bootVsim == null ? null : bootVsim.sha256();
        return devices.stream()
            .filter(a -> ids.contains(a.id) && a.healthy() && a.holder() == null)
            .filter(a -> wantSha != null || (a instanceof VsimAccelerator ? boot != null : !loadedOnly || a.holdsDesign()))
            .sorted(Comparator.<Accelerator>comparingInt(a -> {
                Accelerator.Loaded l = a.loaded();
                String want = wantSha == null && a instanceof VsimAccelerator ? boot : wantSha;
                if (l != null && (want == null || l.sha256().equals(want))) {
                    return 0;
                }
                return l == null ? 1 : 2;
            }).thenComparingLong(Accelerator::lastUsedMs).thenComparingInt(a -> a.id))
            .toList();
    }

    private static Set<Device> toDevices(List<Accelerator> l) {
        Set<Device> s = new TreeSet<>();
        for (Accelerator a : l) {
            s.add(a.yarnDevice());
        }
        return s;
    }

    private void hold(String container, List<Accelerator> pick) {
        long now = System.currentTimeMillis();
        for (Accelerator a : pick) {
            a.hold(container, now);
        }
        held.put(container, new ArrayList<>(pick));
    }

    synchronized void waiting(int delta) {
        waiting += delta;
    }

    synchronized List<Accelerator> held(String container) {
        List<Accelerator> l = held.get(container);
        return l == null ? List.of() : List.copyOf(l);
    }

    synchronized boolean isLent(String container) {
        return lent.contains(container);
    }

    synchronized Set<String> holders() {
        return Set.copyOf(held.keySet());
    }

    /** Frees a container's devices; returns them. */
    synchronized List<Accelerator> release(String container, String why) {
        List<Accelerator> l = held.remove(container);
        lent.remove(container);
        if (l == null) {
            return List.of();
        }
        for (Accelerator a : l) {
            a.unhold(container);
            a.log("release", "container=" + container, "why=" + why);
        }
        return l;
    }

    /**
     * Gives a device the design the container asked for, loading it only when the device holds
     * another one, after checking that it really holds what its record says ({@link
     * Accelerator#verify}: a design changed behind the NodeManager's back is loaded again, or the
     * device, asked for no design, is taken out), and records the assignment ({@code want} and
     * {@code holds} in the log are the same hash whenever a design was asked for). A container that
     * names no design gets a simulated device on the node's own design ({@link #bootVsim}), loaded
     * again where a job's model was: never the model (native code) a previous job shipped. A device
     * that cannot take the design (a node that loads designs only at boot, {@link BootDesign}) is
     * refused in one line, untouched.
     */
    void prepare(Accelerator a, DesignPackage design, String container) throws IOException {
        String refused = design == null ? null : a.refuses(design);
        if (refused != null) {
            // Before anything touches the device: a refused job leaves it healthy, on its design.
            a.log("refused", "container=" + container, "want=" + design.sha256(), "reason=" + refused);
            throw new IOException(refused);
        }
        boolean lentTo = isLent(container);
        String mismatch = a.verify();
        DesignPackage load = design;
        if (design == null && a instanceof VsimAccelerator) {
            if (bootVsim == null) {
                throw new IOException(a.name + ": the container named no design (" + FpgaContainer.DESIGN_ENV + ") and this node has "
                    + "no simulated design of its own (" + FpgaConf.VSIM_BOOT_MODEL + ") to give it instead of a job's");
            }
            load = bootVsim;
        } else if (design == null && mismatch != null) {
            a.markUnhealthy(mismatch, recoveryMs);
            throw new IOException(a.name + ": " + mismatch);
        }
        if (load != null) {
            a.ensure(designs.keep(load), container, recoveryMs, designs);
        }
        Accelerator.Loaded l = a.loaded();
        a.log("assign", "container=" + container, "want=" + (design == null ? "-" : design.sha256()),
            "holds=" + (l == null ? "-" : l.sha256()), "mode=" + (lentTo ? "lent" : "requested"));
    }

    /**
     * When a container that held devices has ended: if it left a fault report in its working
     * directory ({@link FpgaContainer#reportFault}: its engine failed, e.g. a DMA error or a device
     * that timed out), its devices are taken out ({@link #fault}). Returns true when it did.
     */
    boolean faultReported(String container, Path workDir) {
        String reason;
        try {
            reason = FpgaContainer.readFault(workDir).orElse(null);
        } catch (IOException e) {
            reason = "unreadable fault report: " + e.getMessage();
        }
        if (reason == null) {
            return false;
        }
        LOG.warn("{} reports its FPGA failed: {}", container, reason);
        fault(container, reason);
        return true;
    }

    /** A container reported its device as failed: take its devices out. */
    void fault(String container, String reason) {
        for (Accelerator a : held(container)) {
            a.log("fault", "container=" + container, "reason=" + reason);
            a.markUnhealthy("container " + container + " reported: " + reason, recoveryMs);
        }
    }

    /** One health round over every device, and the design copies no device holds trimmed. */
    void checkAll() {
        Set<String> held = new HashSet<>();
        if (bootVsim != null) {
            held.add(bootVsim.sha256());
        }
        for (Accelerator a : devices) {
            a.check(designs, recoveryMs);
            Accelerator.Loaded l = a.loaded();
            if (l != null) {
                held.add(l.sha256());
            }
        }
        designs.trim(held);
    }

    @Override
    public String toString() {
        return devices.toString();
    }
}
