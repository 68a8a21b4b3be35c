package io.fpgamr.md5.job;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tasks running in this JVM. The local runner runs its tasks in the launcher's JVM and reports no
 * task status, so these counts are how the launcher knows what runs there; in a YARN container
 * they count that container's own task and are not read.
 */
public final class LocalTasks {
    public static final AtomicInteger MAPS = new AtomicInteger();
    public static final AtomicInteger FPGA_MAPS = new AtomicInteger();
    public static final AtomicInteger REDUCES = new AtomicInteger();

    private LocalTasks() {
    }
}
