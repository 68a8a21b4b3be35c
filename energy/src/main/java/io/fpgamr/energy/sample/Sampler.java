package io.fpgamr.energy.sample;

import io.fpgamr.energy.source.DomainPower;
import io.fpgamr.energy.source.PowerSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Reads every source of one node once per period (1 s by default) on the wall clock that the job's
 * task spans use. Each source's row covers the time since that source's previous read, so
 * consecutive rows tile the time without overlap; a failed read becomes a gap row over the same
 * interval. Rows are kept for {@code retentionMs} and handed to listeners as they come.
 */
public final class Sampler implements AutoCloseable {
    private final String node;
    private final String nodeType;
    private final List<PowerSource> sources;
    private final long periodMs;
    private final long retentionMs;
    private final LongSupplier clock;
    private final long[] lastMs;
    private final String[] pendingReason;
    private final Deque<Sample> rows = new ArrayDeque<>();
    private final List<Consumer<List<Sample>>> listeners = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService timer;
    private long startMs = -1;

    /**
     * @param sources the node's sources; the first one gives the node's total (see
     *                {@link io.fpgamr.energy.source.Discovery})
     */
    public Sampler(String node, String nodeType, List<PowerSource> sources, long periodMs, long retentionMs, LongSupplier clock) {
        if (periodMs < 10) {
            throw new IllegalArgumentException("sampling period must be at least 10 ms, got " + periodMs);
        }
        this.node = node;
        this.nodeType = nodeType;
        this.sources = List.copyOf(sources);
        this.periodMs = periodMs;
        this.retentionMs = retentionMs;
        this.clock = clock;
        this.lastMs = new long[sources.size()];
        this.pendingReason = new String[sources.size()];
    }

    public String node() {
        return node;
    }

    public String nodeType() {
        return nodeType;
    }

    public List<PowerSource> sources() {
        return sources;
    }

    public long periodMs() {
        return periodMs;
    }

    public void addListener(Consumer<List<Sample>> listener) {
        listeners.add(listener);
    }

    /** Primes every source at the current time (a counter's first read) and starts the timer. */
    public synchronized Sampler start() {
        prime();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fpgamr-energy-sampler");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::tickQuietly, periodMs, periodMs, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Primes the sources without a timer; {@link #tick()} then reads them on demand. */
    public synchronized Sampler prime() {
        startMs = clock.getAsLong();
        for (int i = 0; i < sources.size(); i++) {
            lastMs[i] = startMs;
            try {
                sources.get(i).read(startMs);
            } catch (Exception e) {
                pendingReason[i] = message(e);
            }
        }
        return this;
    }

    public synchronized long startMs() {
        return startMs;
    }

    private void tickQuietly() {
        try {
            tick();
        } catch (RuntimeException e) {
            // a listener's failure must not stop the sampling
        }
    }

    /** Reads every source now and returns the new rows. */
    public List<Sample> tick() {
        List<Sample> fresh = new ArrayList<>();
        synchronized (this) {
            if (startMs < 0) {
                throw new IllegalStateException("sampler not started");
            }
            for (int i = 0; i < sources.size(); i++) {
                PowerSource s = sources.get(i);
                boolean primary = i == 0;
                long now = clock.getAsLong();
                if (now <= lastMs[i]) {
                    continue;
                }
                long from = lastMs[i];
                try {
                    List<DomainPower> read = s.read(now);
                    if (read.isEmpty()) {
                        String why = pendingReason[i] != null ? pendingReason[i] : "no reading yet (counter primed)";
                        fresh.add(Sample.gap(node, nodeType, s.kind(), from, now, s.measured(), primary, why));
                    }
                    for (DomainPower d : read) {
                        fresh.add(Sample.ok(node, nodeType, s.kind(), d.domain(), from, now, d.watts(), s.measured(), primary));
                    }
                    pendingReason[i] = null;
                } catch (Exception e) {
                    fresh.add(Sample.gap(node, nodeType, s.kind(), from, now, s.measured(), primary, message(e)));
                }
                lastMs[i] = now;
            }
            rows.addAll(fresh);
            long keepFrom = clock.getAsLong() - retentionMs;
            while (!rows.isEmpty() && rows.peekFirst().endMs() < keepFrom) {
                rows.pollFirst();
            }
        }
        for (Consumer<List<Sample>> l : listeners) {
            l.accept(fresh);
        }
        return fresh;
    }

    /** Rows that overlap [{@code fromMs}, {@code toMs}]. */
    public synchronized List<Sample> rows(long fromMs, long toMs) {
        List<Sample> out = new ArrayList<>();
        for (Sample s : rows) {
            if (s.endMs() > fromMs && s.startMs() < toMs) {
                out.add(s);
            }
        }
        return out;
    }

    @Override
    public void close() {
        ScheduledExecutorService t;
        synchronized (this) {
            t = timer;
            timer = null;
        }
        if (t != null) {
            t.shutdownNow();
            try {
                t.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (PowerSource s : sources) {
            s.close();
        }
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }
}
