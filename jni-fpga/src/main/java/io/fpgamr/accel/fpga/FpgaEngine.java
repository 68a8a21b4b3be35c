package io.fpgamr.accel.fpga;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import io.fpgamr.accel.NativeEngine;
import io.fpgamr.accel.NativeArtifacts;
import io.fpgamr.accel.NativeTargets;
import io.fpgamr.accel.TargetSet;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The FPGA engine: the MD5 accelerator (hdl/rtl/md5acc_top) through its C driver in libfpgamr
 * (native/include/fpgamr_fpga.h), on the real device ({@code uio:/dev/uioN}) or on its Verilated
 * model ({@code vsim:pipelines=N,...}). One native call per range: the driver cuts it into 2^18-value
 * device batches with two in flight. Nothing is copied in Java: {@link #hashRange} hands the
 * caller's direct buffer to the driver (and the device writes it itself when the buffer came from
 * {@link #digestBuffer}); {@link #searchRange} hands it the target set's native digests, sorted once
 * ({@link TargetSet#nativeSet()}, shared with the CPU engine).
 *
 * <p>A device belongs to one process at a time (the driver takes an flock): a second opener gets
 * {@link FpgaOpenException} with {@link FpgaOpenException#busy()}, at once or after the spec's
 * {@code wait_ms}. The simulated devices' libraries ({@code libfpgamr-vsim-pN.so}) travel in the jar
 * beside libfpgamr.so; a {@code vsim} spec without {@code lib=} loads the jar's copy (unless
 * {@code FPGAMR_VSIM_DIR} names a folder).
 */
public final class FpgaEngine extends NativeEngine {
    private static final Cleaner CLEANER = Cleaner.create();

    /** The device handle and the DMA buffers handed out, freed once, by close() or the cleaner. */
    private static final class Handle implements Runnable {
        Pointer dev;
        final List<Pointer> dma = new ArrayList<>();
        /** The driver's word when the device did not stop at close (it is wedged), for close() to throw; else null. */
        String closeError;

        @Override
        public synchronized void run() {
            if (dev != null) {
                for (Pointer p : dma) {
                    FpgaNative.fpgamr_dma_free(dev, p);
                }
                dma.clear();
                byte[] err = new byte[512];
                int rc = FpgaNative.fpgamr_close_rc(dev, err, new NativeLong(err.length));
                dev = null;
                if (rc != FpgaNative.OK) {
                    closeError = "close: " + FpgaNative.fpgamr_strerror(rc) + ": " + cString(err);
                }
            }
        }
    }

    /** A NUL-terminated message the driver wrote into {@code err}. */
    private static String cString(byte[] err) {
        int len = 0;
        while (len < err.length && err[len] != 0) {
            len++;
        }
        return new String(err, 0, len, StandardCharsets.UTF_8);
    }

    /**
     * The driver's figures since open (or {@link #resetStats()}). {@code values} is what the device
     * counted (its DONE register), {@code shortBatches} the batches whose count fell short of what
     * they were given. {@code modelledDeviceSeconds} is modelled, never measured: the device's
     * cycle counter over the clock the spec names ({@code mhz}, default the design's, CLOCK_KHZ), on the board as on the
     * simulated device; {@code simulated} says the device itself was the Verilated model, so that
     * every figure derived from these (and the maps' times, energy and TpW of the process that ran
     * it) is labelled as such. Host and wall seconds are measured on this host.
     */
    public record Stats(boolean simulated, long batches, long values, long deviceCycles, double modelledDeviceSeconds,
            double hostSeconds, double wallSeconds, double maxBatchHostSeconds, long filterHits, long fallbackBatches,
            long zeroCopyBatches, long shortBatches) {
        /** Host time per batch over modelled device time per batch. */
        public double hostShare() {
            return modelledDeviceSeconds > 0 ? hostSeconds / modelledDeviceSeconds : 0;
        }
    }

    private final Handle handle = new Handle();
    private final Cleaner.Cleanable cleanable;
    private final DeviceSpec spec;
    private final String bus;
    private final int pipelines;
    private final double mhz;
    private final int minWidth;
    private final int maxWidth;
    private final Memory counts = new Memory(16);

    private FpgaEngine(Pointer dev, DeviceSpec spec) {
        handle.dev = dev;
        cleanable = CLEANER.register(this, handle);
        this.spec = spec;
        FpgaNative.Info info = new FpgaNative.Info();
        FpgaNative.fpgamr_get_info(dev, info);
        int n = 0;
        while (n < info.bus.length && info.bus[n] != 0) {
            n++;
        }
        bus = new String(info.bus, 0, n, StandardCharsets.US_ASCII);
        pipelines = info.pipelines;
        mhz = info.mhz;
        minWidth = info.min_width;
        maxWidth = info.max_width;
    }

    /**
     * Opens the device of a driver spec ({@code vsim:pipelines=4}, {@code uio:/dev/uio0}, with the
     * driver's options, {@link DeviceSpec}), parsed here.
     *
     * @throws FpgaOpenException (an IllegalArgumentException) with the driver's message: busy, no
     *     such device, design id mismatch, library missing, bad spec
     * @throws UnsatisfiedLinkError when the jar has no native build for this platform
     */
    public static FpgaEngine open(String spec) {
        DeviceSpec d;
        try {
            d = DeviceSpec.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new FpgaOpenException(FpgaNative.EINVAL, e.getMessage());
        }
        return open(d, System.getenv());
    }

    /**
     * Opens a device. {@code env} is the process environment the driver sees
     * ({@code FPGAMR_VSIM_DIR}: where a vsim model is looked for).
     *
     * @throws FpgaOpenException (an IllegalArgumentException) with the driver's message: busy, no
     *     such device, design id mismatch, library missing
     * @throws UnsatisfiedLinkError when the jar has no native build for this platform
     */
    public static FpgaEngine open(DeviceSpec spec, Map<String, String> env) {
        FpgaNative.register();
        String driverSpec = withPackagedModel(spec, env).toString();
        byte[] err = new byte[1024];
        int[] rc = new int[1];
        Pointer dev = FpgaNative.fpgamr_open_rc(driverSpec, rc, err, new NativeLong(err.length));
        if (dev == null) {
            String msg = cString(err);
            if (msg.isEmpty()) {
                msg = FpgaNative.fpgamr_strerror(rc[0]);
            }
            if (rc[0] == FpgaNative.ENOMEM) {
                throw new OutOfMemoryError("FPGA device '" + spec + "': " + msg);
            }
            throw new FpgaOpenException(rc[0], "FPGA device '" + spec + "': " + msg);
        }
        return new FpgaEngine(dev, spec);
    }

    /**
     * A vsim spec without {@code lib=} (and no {@code FPGAMR_VSIM_DIR}) gets the model library
     * {@link NativeArtifacts} finds (the jar's, extracted). Other specs are left alone (the driver
     * then looks in FPGAMR_VSIM_DIR, beside libfpgamr.so and on the loader path).
     */
    static DeviceSpec withPackagedModel(DeviceSpec spec, Map<String, String> env) {
        String dir = env.get("FPGAMR_VSIM_DIR");
        if (!spec.simulated() || (dir != null && !dir.isEmpty()) || spec.lib().isPresent()) {
            return spec;
        }
        Path lib = packagedModel(spec.pipelines());
        return lib == null ? spec : spec.withLib(lib);
    }

    /** The simulated device's model libfpgamr-vsim-pN.so as {@link NativeArtifacts} finds it; null when it finds none. */
    public static Path packagedModel(int pipelines) {
        String model = NativeArtifacts.vsimModel(pipelines);
        try {
            return NativeArtifacts.find(model).orElse(null);
        } catch (IOException e) {
            throw new FpgaOpenException(FpgaNative.ENODEV, "cannot extract " + model + ": " + e);
        }
    }

    /** {@code fpga:<bus>:p<pipelines>}, e.g. {@code fpga:vsim:p4}. */
    @Override
    public String name() {
        return "fpga:" + bus + ":p" + pipelines;
    }

    @Override
    public String kind() {
        return "fpga";
    }

    /** The spec this engine was opened with. */
    public DeviceSpec spec() {
        return spec;
    }

    /** {@code uio} (the board) or {@code vsim} (the Verilated model). */
    public String bus() {
        return bus;
    }

    /** True on the Verilated model ({@code vsim}): what it did was simulated, and its times are modelled. */
    @Override
    public boolean simulated() {
        return bus.equals("vsim");
    }

    public int pipelines() {
        return pipelines;
    }

    /** The clock the driver's modelled device time uses (the spec's {@code mhz}, a declared figure). */
    public double mhz() {
        return mhz;
    }

    private Pointer dev() {
        Pointer d = handle.dev;
        if (d == null) {
            throw new IllegalStateException("FPGA engine closed");
        }
        return d;
    }

    @Override
    protected boolean widthOk(int width) {
        return width >= Math.max(4, minWidth) && width <= Math.min(8, maxWidth);
    }

    private void check(int rc, String what) {
        if (rc == FpgaNative.OK) {
            return;
        }
        String msg = what + ": " + FpgaNative.fpgamr_strerror(rc) + ": " + FpgaNative.fpgamr_last_error(dev());
        if (rc == FpgaNative.ENOMEM) {
            throw new OutOfMemoryError(msg);
        }
        if (rc == FpgaNative.EINVAL) {
            throw new IllegalArgumentException(msg);
        }
        throw new FpgaDeviceException(rc, msg);
    }

    /**
     * A direct buffer for {@code values} digests in the device's DMA memory: {@link #hashRange} into
     * it is zero copy (the device writes it). Valid until {@link #close()}; a plain direct buffer
     * when the device has no DMA memory left.
     */
    @Override
    public ByteBuffer digestBuffer(int values) {
        long bytes = 16L * values;
        Pointer p;
        synchronized (handle) {
            p = FpgaNative.fpgamr_dma_alloc(dev(), new NativeLong(bytes));
            if (p != null) {
                handle.dma.add(p);
            }
        }
        return p != null ? p.getByteBuffer(0, bytes) : ByteBuffer.allocateDirect((int) bytes);
    }

    /**
     * One driver call of the hash path; returns the digests the device wrote, by its own counter
     * (fewer than {@code count} when a batch came back short: the job's count then falls short).
     */
    @Override
    protected long hash(long start, int count, int width, Pointer out, String what) {
        int rc = FpgaNative.fpgamr_hash_range(dev(), start, count, width, out, counts.share(8));
        return checked(rc, counts.getLong(8), what);
    }

    /** A driver call's values done, or its error (the batches before it counted) as an exception. */
    private long checked(int rc, long done, String what) {
        if (rc != FpgaNative.OK) {
            counted(done);
            check(rc, what);
        }
        return done;
    }

    /**
     * One driver call of the search path; the values the device checked, by its own counter, go to
     * {@code done} (fewer than {@code count} when a batch came back short: the job's count then
     * falls short).
     */
    @Override
    protected long search(long start, long count, int width, TargetSet targets, Pointer found, long cap, Pointer done,
            String what) {
        NativeTargets nt = targets.nativeSet();
        int rc = FpgaNative.fpgamr_search_range(dev(), start, count, width, nt.digests(), new NativeLong(nt.size()), found,
                new NativeLong(cap), counts, done);
        checked(rc, done.getLong(0), what);
        return Native.SIZE_T_SIZE == 8 ? counts.getLong(0) : counts.getInt(0) & 0xffffffffL;
    }

    /** The driver's figures since open or the last {@link #resetStats()}. */
    public Stats stats() {
        FpgaNative.Stats s = new FpgaNative.Stats();
        FpgaNative.fpgamr_get_stats(dev(), s);
        return new Stats(simulated(), s.batches, s.values, s.device_cycles, s.device_seconds, s.host_seconds, s.wall_seconds,
                s.max_batch_host_seconds, s.filter_hits, s.fallback_batches, s.zero_copy_batches, s.short_batches);
    }

    public void resetStats() {
        FpgaNative.fpgamr_reset_stats(dev());
    }

    /**
     * Closes the device. The driver first stops a job the device still runs (one whose call failed),
     * waiting at most its stop timeout (5 s, as the kernel's); a device that did not stop is wedged:
     * it takes no job until it is reprogrammed or its model is loaded again (the simulated device keeps
     * that in its {@code state=} file, as the kernel's sysfs {@code state}), and this close says so.
     *
     * @throws FpgaDeviceException (FPGAMR_EIO) naming the wedged device's state, once, after it was
     *     closed all the same
     */
    @Override
    public void close() {
        cleanable.clean();
        String why;
        synchronized (handle) {
            why = handle.closeError;
            handle.closeError = null;
        }
        if (why != null) {
            throw new FpgaDeviceException(FpgaNative.EIO, why);
        }
    }

    @Override
    public String toString() {
        return name() + " (" + spec + ", " + mhz + " MHz)";
    }
}
