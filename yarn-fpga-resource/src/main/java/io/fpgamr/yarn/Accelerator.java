package io.fpgamr.yarn;

import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.accel.design.DesignPackage;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Properties;
import org.apache.hadoop.yarn.server.nodemanager.api.deviceplugin.Device;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One accelerator of this node: its identity for YARN, the design it holds, its health, and its
 * state directory, which keeps across NodeManager restarts what is loaded
 * ({@value #DESIGN_FILE}) and an append-only event log ({@value #LOG_FILE}: loads, assignments,
 * faults, health changes; one tab-separated line each).
 *
 * <p>Health: a device that fails a check, a load, or a container's work (its fault report) is
 * unhealthy, gets no container and does not count in the node's resources; after
 * {@link FpgaConf#RECOVERY_MS} it is tried again (its design reloaded and checked) and returns
 * when that passes.
 */
abstract class Accelerator {
    private static final Logger LOG = LoggerFactory.getLogger(Accelerator.class);
    static final String DESIGN_FILE = "design.properties";
    static final String LOG_FILE = "device.log";

    final int id;
    final String name;
    final Path stateDir;
    /** The node's privileged design loader (hardware devices load through it; null for a simulated one). */
    protected final DesignLoader loader;
    private final Device device;

    // Written under this; the volatile ones are read without it (scheduling must not wait for a load).
    private volatile Loaded loaded;
    private volatile String problem;
    private long nextRecoveryMs;
    private volatile long lastUsedMs;
    private volatile String holder;

    /**
     * The design a device holds, as recorded when it was loaded; for hardware {@code firmware} is
     * what the design loader applied ({@code <rbf sha256> <overlay sha256>}), for a simulated
     * device {@code modelSha256} the installed model's hash.
     */
    record Loaded(String sha256, String name, String kind, int pipelines, String designId, String modelSha256, String firmware) {
        Properties toProperties() {
            Properties p = new Properties();
            p.setProperty("sha256", sha256);
            p.setProperty("name", name);
            p.setProperty("kind", kind);
            p.setProperty("pipelines", Integer.toString(pipelines));
            p.setProperty("design_id", designId);
            if (modelSha256 != null) {
                p.setProperty("model_sha256", modelSha256);
            }
            if (firmware != null) {
                p.setProperty("firmware", firmware);
            }
            return p;
        }

        static Loaded of(Properties p) {
            return new Loaded(p.getProperty("sha256"), p.getProperty("name"), p.getProperty("kind"),
                Integer.parseInt(p.getProperty("pipelines")), p.getProperty("design_id"), p.getProperty("model_sha256"),
                p.getProperty("firmware"));
        }

        static Loaded of(DesignPackage d, String modelSha256) {
            return new Loaded(d.sha256(), d.name(), d.kind().name().toLowerCase(java.util.Locale.ROOT), d.pipelines(), d.designId(),
                modelSha256, null);
        }

        Loaded withFirmware(String applied) {
            return new Loaded(sha256, name, kind, pipelines, designId, modelSha256, applied);
        }
    }

    Accelerator(int id, String name, Path stateDir, DesignLoader loader, Device.Builder device) throws IOException {
        this.id = id;
        this.name = name;
        this.stateDir = stateDir;
        this.loader = loader;
        this.device = device.setId(id).build();
        Files.createDirectories(stateDir);
        Path f = stateDir.resolve(DESIGN_FILE);
        if (Files.isRegularFile(f)) {
            Properties p = new Properties();
            p.load(new StringReader(Files.readString(f, StandardCharsets.ISO_8859_1)));
            try {
                loaded = Loaded.of(p);
            } catch (RuntimeException e) {
                loaded = null;
            }
        }
    }

    /** {@code vsim} or {@code uio}. */
    abstract String kind();

    /**
     * The driver spec of the device as it is now (a canonical {@code DeviceSpec}, with the node's
     * and the device's own driver options, checked), for the container's {@code FPGAMR_DEVICE}.
     */
    abstract String spec() throws IOException;

    /** Checks the device; null when it is fine, else what is wrong. */
    abstract String probe();

    /**
     * Null when the device can take {@code design} (loading it if need be); else the one line that
     * refuses it: a node that loads designs only at boot refuses all but the boot design.
     */
    String refuses(DesignPackage design) throws IOException {
        return null;
    }

    /** Loads a design onto the device and checks it; returns what is loaded. */
    protected abstract Loaded install(DesignPackage design) throws IOException;

    /** The device as YARN sees it (identity fixed at discovery; health as now). */
    Device yarnDevice() {
        return Device.Builder.newInstance().setId(device.getId()).setDevPath(device.getDevPath())
            .setMajorNumber(device.getMajorNumber()).setMinorNumber(device.getMinorNumber()).setBusID(device.getBusID())
            .setHealthy(problem == null).setStatus(problem != null ? "unhealthy: " + problem : loaded != null ? loaded.name() : "no design")
            .build();
    }

    Loaded loaded() {
        return loaded;
    }

    /** Whether the device is known to hold a design: one it recorded loading (hardware that loads designs only at boot: the boot's). */
    boolean holdsDesign() {
        return loaded != null;
    }

    boolean healthy() {
        return problem == null;
    }

    String problem() {
        return problem;
    }

    String holder() {
        return holder;
    }

    long lastUsedMs() {
        return lastUsedMs;
    }

    synchronized void hold(String container, long now) {
        holder = container;
        lastUsedMs = now;
    }

    synchronized void unhold(String container) {
        if (container.equals(holder)) {
            holder = null;
        }
    }

    /**
     * Makes the device hold {@code design}: nothing to do when it already does (the same SHA-256),
     * else a load. Returns true when it loaded. After a failed load the device is back on its
     * previous design (reloaded from {@code cache} and checked) or unhealthy, with the reason.
     */
    synchronized boolean ensure(DesignPackage design, String container, long recoveryMs, DesignCache cache) throws IOException {
        if (loaded != null && loaded.sha256().equals(design.sha256())) {
            return false;
        }
        load(design, container, recoveryMs, cache);
        return true;
    }

    private void load(DesignPackage design, String container, long recoveryMs, DesignCache cache) throws IOException {
        Loaded before = loaded;
        try {
            loaded = install(design);
            writeLoaded(loaded);
            log("load", "sha256=" + design.sha256(), "name=" + design.name(), "container=" + container,
                "replaces=" + (before == null ? "-" : before.sha256()));
        } catch (IOException | RuntimeException e) {
            String why = "loading " + design.describe() + " failed: " + e.getMessage();
            forget();
            String notBack = restore(before, cache);
            if (notBack == null) {
                log("restored", "sha256=" + before.sha256(), "name=" + before.name(), "after=" + why);
                throw new IOException(name + ": " + why + " (the device is back on " + before.name() + ")", e);
            }
            markUnhealthy(why + notBack, recoveryMs);
            throw new IOException(name + ": " + why, e);
        }
    }

    /**
     * Puts the device back on the design it held before a failed load: nothing to do when it still
     * holds it (a load refused before the device was touched), else a reload from the node's copy;
     * null when it is back, else why not.
     */
    private String restore(Loaded before, DesignCache cache) {
        if (before == null) {
            return "";
        }
        loaded = before;
        try {
            if (mismatch() == null) {
                writeLoaded(before);
                return null;
            }
            loaded = null;
            DesignPackage d = cache.get(before.sha256());
            if (d == null) {
                return "; no copy of " + before.name() + " to go back to";
            }
            loaded = install(d);
            writeLoaded(loaded);
            String p = probe();
            if (p == null) {
                return null;
            }
            forget();
            return "; back on " + before.name() + " it fails its check: " + p;
        } catch (IOException | RuntimeException e) {
            loaded = null;
            return "; going back to " + before.name() + " failed too: " + e.getMessage();
        }
    }

    /**
     * Checks, before the device goes to a container, that it holds what its record says; when it
     * does not, the record is dropped (a requested design is then loaded again) and the reason
     * returned; null when it holds what it should.
     */
    synchronized String verify() {
        String p = mismatch();
        Loaded l = loaded;
        if (p != null && l != null) {
            log("mismatch", "sha256=" + l.sha256(), "reason=" + p);
            try {
                forget();
            } catch (IOException e) {
                loaded = null;
            }
        }
        return p;
    }

    /**
     * Whether the device holds what its record says: its own check ({@link #probe}) and, for a
     * hardware design, the loader's word on the firmware it applied last (a design loaded behind
     * the NodeManager's back shows there). Null when it does, else why not.
     */
    private String mismatch() {
        String p = probe();
        Loaded l = loaded;
        if (p != null || l == null || l.firmware() == null) {
            return p;
        }
        try {
            String now = loader.holds(name);
            return now.equals(l.firmware()) ? null : "the device holds firmware " + now + ", not " + l.name() + "'s (" + l.firmware() + ")";
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** Forgets the loaded design (the device's contents are unknown after a failed load). */
    final void forget() throws IOException {
        loaded = null;
        Files.deleteIfExists(stateDir.resolve(DESIGN_FILE));
    }

    private void writeLoaded(Loaded l) throws IOException {
        StringWriter w = new StringWriter();
        l.toProperties().store(w, "the design " + name + " holds");
        AtomicFiles.write(stateDir.resolve(DESIGN_FILE), w.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    synchronized void markUnhealthy(String why, long recoveryMs) {
        nextRecoveryMs = System.currentTimeMillis() + recoveryMs;
        if (!why.equals(problem)) {
            // one line in the NodeManager's log when the device leaves YARN's offer (not again while it stays out)
            if (problem == null) {
                LOG.warn("{} leaves the FPGA offer: {}", name, why);
            }
            problem = why;
            log("unhealthy", "reason=" + why);
        }
    }

    /**
     * One health round: a healthy device is checked; an unhealthy one that nobody holds is, once
     * its recovery time has come, reloaded with its design (from {@code cache}) and checked.
     */
    synchronized void check(DesignCache cache, long recoveryMs) {
        long now = System.currentTimeMillis();
        if (problem == null) {
            String p = probe();
            if (p != null) {
                markUnhealthy(p, recoveryMs);
            }
            return;
        }
        if (holder != null || now < nextRecoveryMs) {
            return;
        }
        String p;
        try {
            DesignPackage d = loaded != null ? cache.get(loaded.sha256()) : null;
            if (d != null) {
                loaded = install(d);
                writeLoaded(loaded);
                log("load", "sha256=" + d.sha256(), "name=" + d.name(), "container=recovery", "replaces=" + d.sha256());
            }
            p = probe();
        } catch (IOException | RuntimeException e) {
            p = "recovery failed: " + e.getMessage();
        }
        if (p == null) {
            LOG.info("{} is back in the FPGA offer (was: {})", name, problem);
            problem = null;
            log("healthy");
        } else {
            nextRecoveryMs = now + recoveryMs;
        }
    }

    /** Appends one event to the device's log: time, event, then key=value fields, tab-separated. */
    synchronized void log(String event, String... fields) {
        StringBuilder line = new StringBuilder().append(System.currentTimeMillis()).append('\t').append(event);
        for (String f : fields) {
            line.append('\t').append(f.replaceAll("[\\t\\r\\n]+", " "));
        }
        line.append('\n');
        try {
            Files.writeString(stateDir.resolve(LOG_FILE), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        } catch (IOException e) {
            // The log is for people and tests; the device works without it.
        }
    }

    @Override
    public String toString() {
        return name + (problem != null ? " (unhealthy: " + problem + ")" : holder != null ? " (in use by " + holder + ")" : " (free)");
    }
}
