package io.fpgamr.accel.fpga;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The accelerator's register map as its one source says: {@code hdl/regmap/md5acc.json},
 * packaged into this jar by the build (the C and Verilog readers get it through the headers
 * generated from the same file). Java readers take the design id and the map's version from here,
 * never from a constant of their own.
 *
 * @param designId   DESIGN_ID as the kernel's sysfs prints it ({@code 0x} and 8 lower-case digits)
 * @param major      the register map's major version: a device of another major is not ours to drive
 * @param minor      its minor version
 * @param windowBytes the register window (both pages)
 * @param userPageBytes the page user space maps (the rest is the kernel's)
 * @param clockMhz   the design clock
 * @param dataW      the AXI data bus width of the board build, in bits
 */
public record RegisterMap(String designId, int major, int minor, int windowBytes, int userPageBytes, int clockMhz,
    int dataW) {

    /** Where the build puts the JSON, beside this class. */
    static final String RESOURCE = "md5acc.json";

    private static final RegisterMap CURRENT = load();

    /** The map this build was made for. */
    public static RegisterMap current() {
        return CURRENT;
    }

    /**
     * Whether a device reporting {@code regmapVersion} (major &lt;&lt; 16 | minor) speaks this map:
     * the same major, and no lower minor (a lower one lacks what this release relies on: 3.0's
     * ABORT can leave a search running for ever, 3.1 shows user space a failing burst's bus address).
     */
    public boolean speaks(long regmapVersion) {
        return (regmapVersion >>> 16) == major && (regmapVersion & 0xFFFF) >= minor;
    }

    /** The version as REGMAP_VERSION and sysfs hold it: major &lt;&lt; 16 | minor. */
    public long version() {
        return (long) major << 16 | minor;
    }

    private static RegisterMap load() {
        try (InputStream in = RegisterMap.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the register map " + RESOURCE + " is not on the class path (a broken build)");
            }
            return parse(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the register map " + RESOURCE, e);
        }
    }

    static RegisterMap parse(JsonNode m) {
        long id = Long.decode(m.path("design_id").asText());
        int user = 0;
        for (JsonNode p : m.path("pages")) {
            if ("USER".equals(p.path("name").asText())) {
                user = p.path("bytes").asInt();
            }
        }
        return new RegisterMap(String.format("0x%08x", id), m.path("version").path("major").asInt(),
            m.path("version").path("minor").asInt(), m.path("window_bytes").asInt(), user,
            m.path("design").path("clock_mhz").asInt(), m.path("design").path("data_w").asInt());
    }
}
