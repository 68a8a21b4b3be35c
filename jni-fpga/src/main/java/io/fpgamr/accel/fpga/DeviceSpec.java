package io.fpgamr.accel.fpga;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An FPGA device as the driver names it (native/include/fpgamr_fpga.h), parsed once and checked:
 * {@code uio:/dev/uioN[,option...]} (the board) or {@code vsim[:option,...]} (the Verilated
 * accelerator). Immutable; {@link #toString()} is the canonical driver spec (options in a fixed
 * order), which {@link #parse} reads back to an equal value, so a spec travels as text (a job's
 * configuration, a container's {@code FPGAMR_DEVICE}) and is never edited as a string.
 *
 * <p>Options, each {@code key=value}, values without commas:
 * <ul>
 *   <li>every bus: {@code mhz} (clock of the modelled device time, default the design's CLOCK_KHZ), {@code batch}
 *       (values per device batch, 1..2^24, default 2^18), {@code timeout_ms} (per batch),
 *       {@code wait_ms} (how long an opener waits for a device another process owns, default 0);
 *   <li>vsim only: {@code pipelines} (1..64, default 1), {@code stall} (percent of AXI cycles
 *       withheld), {@code seed}, {@code lib} (the model library), {@code lock} (the ownership lock
 *       file), {@code state} (the file where the driver keeps the device's state, as the kernel's
 *       sysfs {@code state}: "wedged: REASON" once a job did not stop), {@code fault} (an injected fault, {@link Fault}), {@code regmap} (MAJOR[.MINOR]: the
 *       register map version the device reports, a design of another map; the driver refuses it).
 * </ul>
 * An unknown option, one the bus does not take, or a malformed value is an
 * {@link IllegalArgumentException} naming it.
 */
public final class DeviceSpec {
    /** Where the accelerator is. */
    public enum Bus {
        /** The real device through kernel/fpgamr.ko (UIO registers, DMA buffers). */
        UIO,
        /** The Verilated model of the same HDL, libfpgamr-vsim-pN.so. */
        VSIM;

        String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The driver's options, in the order the canonical spec lists them. */
    public enum Option {
        PIPELINES("pipelines", Bus.VSIM),
        MHZ("mhz", null),
        BATCH("batch", null),
        TIMEOUT_MS("timeout_ms", null),
        WAIT_MS("wait_ms", null),
        STALL("stall", Bus.VSIM),
        SEED("seed", Bus.VSIM),
        FAULT("fault", Bus.VSIM),
        REGMAP("regmap", Bus.VSIM),
        LIB("lib", Bus.VSIM),
        LOCK("lock", Bus.VSIM),
        STATE("state", Bus.VSIM);

        private final String key;
        private final Bus only;

        Option(String key, Bus only) {
            this.key = key;
            this.only = only;
        }

        /** The option's name in a spec, e.g. {@code wait_ms}. */
        public String key() {
            return key;
        }

        static Option of(String key) {
            for (Option o : values()) {
                if (o.key.equals(key)) {
                    return o;
                }
            }
            return null;
        }

        /** The value in canonical form; an IllegalArgumentException when it is malformed. */
        String check(String v) {
            switch (this) {
                case PIPELINES -> range(v, 1, 64);
                case BATCH -> range(v, 1, 1L << 24);
                case TIMEOUT_MS -> range(v, 1, Integer.MAX_VALUE);
                case WAIT_MS, SEED -> range(v, 0, Long.MAX_VALUE);
                case STALL -> range(v, 0, 99);
                case MHZ -> {
                    double f;
                    try {
                        f = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        f = Double.NaN;
                    }
                    if (!(f > 0 && f < 1e6)) {
                        throw bad("a clock in MHz > 0", v);
                    }
                    return v;
                }
                case FAULT -> {
                    return Fault.parse(v).toString();
                }
                case REGMAP -> {
                    if (!v.matches("\\d{1,5}(\\.\\d{1,5})?")) {
                        throw bad("a register map version MAJOR[.MINOR]", v);
                    }
                    return v;
                }
                default -> {
                    if (v.isEmpty()) {
                        throw bad("a path", v);
                    }
                    return v;
                }
            }
            return Long.toString(Long.parseLong(v));
        }

        private void range(String v, long min, long max) {
            long n;
            try {
                n = Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw bad("a number in " + min + ".." + max, v);
            }
            if (n < min || n > max) {
                throw bad("a number in " + min + ".." + max, v);
            }
        }

        private IllegalArgumentException bad(String want, String v) {
            return new IllegalArgumentException("device option " + key + " must be " + want + ", got '" + v + "'");
        }
    }

    /**
     * A fault the simulated device injects (for the tests of what the driver, the engine, the job
     * and YARN do with a failing device): {@code KIND@BATCH}, the device batch counted from 1 since
     * the device was opened. The simulator is a test device and injecting faults is part of what it
     * simulates; the real device ({@link Bus#UIO}) takes no fault option.
     * <ul>
     *   <li>{@code dma_error@K}: batch K's DMA gets an error response (the device reports a bus
     *       error; the driver returns FPGAMR_EIO);
     *   <li>{@code hang@K}: batch K never completes (no interrupt: the driver times out after
     *       {@code timeout_ms}, aborts the job and returns FPGAMR_ETIMEDOUT);
     *   <li>{@code drop@K}: the device silently skips the second half of batch K: it completes,
     *       and its own values-done counter shows fewer values than it was asked for.
     * </ul>
     */
    public record Fault(Kind kind, long batch) {
        public enum Kind {
            DMA_ERROR, HANG, DROP, IRQ_LOST, DMA_STALL, WEDGE;

            String key() {
                return name().toLowerCase(Locale.ROOT);
            }
        }

        public Fault {
            if (kind == null || batch < 1) {
                throw new IllegalArgumentException("fault must be dma_error@K, hang@K, drop@K, irq_lost@K, dma_stall@K or wedge@K with K >= 1");
            }
        }

        static Fault parse(String v) {
            int at = v.indexOf('@');
            Kind kind = null;
            long batch = 0;
            if (at > 0) {
                for (Kind k : Kind.values()) {
                    if (k.key().equals(v.substring(0, at))) {
                        kind = k;
                    }
                }
                try {
                    batch = Long.parseLong(v.substring(at + 1));
                } catch (NumberFormatException e) {
                    batch = 0;
                }
            }
            if (kind == null || batch < 1) {
                throw new IllegalArgumentException("device option fault must be dma_error@K, hang@K, drop@K, irq_lost@K, dma_stall@K or wedge@K (K >= 1: the "
                        + "device batch, counted from 1), got '" + v + "'");
            }
            return new Fault(kind, batch);
        }

        @Override
        public String toString() {
            return kind.key() + "@" + batch;
        }
    }

    private final Bus bus;
    private final String node;
    private final EnumMap<Option, String> options;

    private DeviceSpec(Bus bus, String node, EnumMap<Option, String> options) {
        this.bus = bus;
        this.node = node;
        this.options = options;
    }

    /** A simulated device with {@code pipelines} pipelines and the driver's defaults otherwise. */
    public static DeviceSpec vsim(int pipelines) {
        return new DeviceSpec(Bus.VSIM, null, new EnumMap<>(Option.class)).with(Option.PIPELINES, Integer.toString(pipelines));
    }

    /** The board's accelerator at a UIO node, e.g. {@code /dev/uio0}. */
    public static DeviceSpec uio(String node) {
        return parse("uio:" + node);
    }

    /**
     * Reads a driver spec.
     *
     * @throws IllegalArgumentException naming what is wrong: no device given, an unknown bus
     *     ("unknown device spec"), an unknown or misplaced option, a malformed value
     */
    public static DeviceSpec parse(String spec) {
        String s = spec == null ? "" : spec.strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("no FPGA device given (--device SPEC)");
        }
        Bus bus;
        String node = null;
        String opts;
        if (s.equals("vsim") || s.startsWith("vsim:")) {
            bus = Bus.VSIM;
            opts = s.length() > 5 ? s.substring(5) : "";
        } else if (s.startsWith("uio:")) {
            bus = Bus.UIO;
            String rest = s.substring(4);
            int comma = rest.indexOf(',');
            node = comma < 0 ? rest : rest.substring(0, comma);
            opts = comma < 0 ? "" : rest.substring(comma + 1);
            if (node.isEmpty()) {
                throw new IllegalArgumentException("uio device spec must name the UIO node, e.g. uio:/dev/uio0, got '" + s + "'");
            }
        } else {
            throw new IllegalArgumentException("unknown device spec '" + s + "' (want uio:/dev/uioN or vsim:pipelines=N)");
        }
        return new DeviceSpec(bus, node, new EnumMap<>(Option.class)).withOptions(opts);
    }

    /**
     * This spec with more options ({@code key=value,...}, e.g. a node's settings), each replacing
     * the same option here.
     */
    public DeviceSpec withOptions(String opts) {
        DeviceSpec d = this;
        for (String kv : opts.split(",")) {
            String item = kv.strip();
            if (item.isEmpty()) {
                continue;
            }
            int eq = item.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("device option '" + item + "' is not key=value");
            }
            String key = item.substring(0, eq).strip();
            Option o = Option.of(key);
            if (o == null) {
                throw new IllegalArgumentException("unknown device option '" + key + "' in a " + bus.key() + " spec (known: "
                        + String.join(", ", keys()) + ")");
            }
            d = d.with(o, item.substring(eq + 1).strip());
        }
        return d;
    }

    private String[] keys() {
        return java.util.Arrays.stream(Option.values()).filter(o -> o.only == null || o.only == bus).map(Option::key)
                .toArray(String[]::new);
    }

    /** This spec with one option set (checked). */
    public DeviceSpec with(Option o, String value) {
        if (o.only != null && o.only != bus) {
            throw new IllegalArgumentException("device option " + o.key + " applies to " + o.only.key() + " devices only, not "
                    + bus.key());
        }
        if (value.contains(",")) {
            throw new IllegalArgumentException("device option " + o.key + " must not contain ',': '" + value + "'");
        }
        EnumMap<Option, String> next = new EnumMap<>(options);
        next.put(o, o.check(value));
        return new DeviceSpec(bus, node, next);
    }

    /** This spec without an option (the driver's default then). */
    public DeviceSpec without(Option o) {
        EnumMap<Option, String> next = new EnumMap<>(options);
        next.remove(o);
        return new DeviceSpec(bus, node, next);
    }

    public Bus bus() {
        return bus;
    }

    /** True for the Verilated model: every device figure is then modelled, not measured. */
    public boolean simulated() {
        return bus == Bus.VSIM;
    }

    /** The UIO node ({@code /dev/uioN}); null for vsim. */
    public String node() {
        return node;
    }

    /** An option as given, if it is. */
    public Optional<String> option(Option o) {
        return Optional.ofNullable(options.get(o));
    }

    /** The options given, in canonical order. */
    public Map<Option, String> options() {
        return java.util.Collections.unmodifiableMap(options);
    }

    /** vsim: the pipelines of the model (default 1). */
    public int pipelines() {
        return Integer.parseInt(options.getOrDefault(Option.PIPELINES, "1"));
    }

    /** How long an opener waits for a device another process owns, if given. */
    public OptionalLong waitMs() {
        String v = options.get(Option.WAIT_MS);
        return v == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(v));
    }

    public DeviceSpec withWaitMs(long ms) {
        return with(Option.WAIT_MS, Long.toString(ms));
    }

    /** vsim: the model library, if given. */
    public Optional<String> lib() {
        return option(Option.LIB);
    }

    public DeviceSpec withLib(java.nio.file.Path lib) {
        return with(Option.LIB, lib.toString());
    }

    /** vsim: the fault the device injects, if any. */
    public Optional<Fault> fault() {
        return option(Option.FAULT).map(Fault::parse);
    }

    /** The canonical driver spec, e.g. {@code vsim:pipelines=4,mhz=50,wait_ms=1000} or {@code uio:/dev/uio0}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(bus.key());
        String sep = ":";
        if (node != null) {
            s.append(':').append(node);
            sep = ",";
        }
        for (Map.Entry<Option, String> e : options.entrySet()) {
            s.append(sep).append(e.getKey().key).append('=').append(e.getValue());
            sep = ",";
        }
        return s.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeviceSpec d && d.toString().equals(toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}
