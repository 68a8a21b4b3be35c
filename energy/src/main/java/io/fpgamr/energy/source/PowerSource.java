package io.fpgamr.energy.source;

import java.io.IOException;
import java.util.List;

/**
 * One real interface that tells a node's power. Each call to {@link #read(long)} gives the power
 * per domain over the interval since the previous call (counter sources such as RAPL) or at this
 * instant (meters such as a UPS or a BMC). A failed read throws; the sampler keeps that interval
 * as a gap and never fills it in.
 */
public interface PowerSource extends AutoCloseable {

    /** What part of the node a source sees, which decides which one gives the node's total. */
    enum Coverage {
        /** The whole node or board at its supply: UPS, shunt on the supply, BMC, board input monitor. */
        NODE,
        /** Parts of the node only: CPU packages and DRAM (RAPL). */
        COMPONENTS,
        /** No instrument: a wattage the user declared. */
        DECLARED
    }

    /** Short kind: rapl, hwmon, apcupsd, ipmi, scope or declared. */
    String kind();

    /** What exactly is read, e.g. the files or the server, for {@code energy sources} and reports. */
    String describe();

    Coverage coverage();

    /** False only for a declared wattage, which is never presented as measured. */
    default boolean measured() {
        return coverage() != Coverage.DECLARED;
    }

    /**
     * Reads the power per domain. {@code nowMs} is the sampler's wall clock (the clock of the job's
     * task spans) at this read; counter sources divide their increment by the time since their
     * previous read. A counter source's first read only primes it and returns an empty list.
     */
    List<DomainPower> read(long nowMs) throws IOException;

    @Override
    default void close() {
    }
}
