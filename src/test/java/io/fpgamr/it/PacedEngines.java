package io.fpgamr.it;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.TargetSet;
import io.fpgamr.md5.job.EngineOpener;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * Test only, loaded by the maps through fpgamr's engine opener ({@code fpgamr.engine.opener}):
 * engines whose speed the test knows in fact, not only as a figure it declares. Each hashes every
 * batch for real (the native CPU kernel) and then sleeps until the batch has taken its share of a
 * fixed values/s: the sleep dominates (a 2^18-value batch hashes in milliseconds and is paced to a
 * quarter second or more), so the load of a shared 2-core machine barely moves the speed, as it
 * moves a real CPU engine's or a Verilated FPGA's (3% to 19%, and fourfold, in the balance test's
 * earlier runs).
 *
 * <p>The speed is set per node and engine kind, {@value #RATE}{@code HOST.KIND} in values/s: a map
 * in a container that was given an FPGA ({@code FPGAMR_DEVICE}) is an {@code fpga} engine (a
 * stand-in: it reports itself simulated, and never opens the device), any other a {@code cpu} one.
 * {@value #RETRY_RATE}, when set, is the speed of every retry (an attempt after the first), as if
 * it had landed on a slow node wherever YARN placed it; {@value #FIRST_OF_MAP_0_RATE}, when set,
 * the speed of map 0's first attempt alone (a straggler that a speculative attempt overtakes).
 */
public class PacedEngines implements EngineOpener, Configurable {
    /** The prefix of a node's engine's speed: {@code fpgamr.it.paced.127.0.10.2.fpga=1048576}. */
    static final String RATE = "fpgamr.it.paced.";
    static final String RETRY_RATE = "fpgamr.it.paced.retry";
    static final String FIRST_OF_MAP_0_RATE = "fpgamr.it.paced.first-of-map-0";

    private Configuration conf;

    @Override
    public void setConf(Configuration conf) {
        this.conf = conf;
    }

    @Override
    public Configuration getConf() {
        return conf;
    }

    /** The setting of {@code host}'s {@code kind} engine's speed. */
    static String rateKey(String host, String kind) {
        return RATE + host + "." + kind;
    }

    @Override
    public Md5Engine open(EngineSpec spec, int threads) {
        String kind = spec.device() != null ? "fpga" : "cpu";
        String host = System.getenv("NM_HOST");
        String attempt = conf.get(MRJobConfig.TASK_ATTEMPT_ID);
        TaskAttemptID id = attempt != null ? TaskAttemptID.forName(attempt) : null;
        boolean retry = id != null && id.getId() > 0;
        boolean firstOfMap0 = id != null && id.getId() == 0 && id.getTaskType() == TaskType.MAP && id.getTaskID().getId() == 0;
        double rate = retry && conf.get(RETRY_RATE) != null ? conf.getDouble(RETRY_RATE, 0)
            : firstOfMap0 && conf.get(FIRST_OF_MAP_0_RATE) != null ? conf.getDouble(FIRST_OF_MAP_0_RATE, 0)
            : conf.getDouble(rateKey(host, kind), 0);
        if (!(rate > 0)) {
            throw new IllegalArgumentException("no speed set for the " + kind + " engine of " + host + " (" + rateKey(host, kind) + ")");
        }
        return new Paced(Engines.open(EngineSpec.cpu(), threads), kind, rate);
    }

    /** The real engine's work, paced to {@code rate} values/s. */
    static final class Paced implements Md5Engine {
        private final Md5Engine real;
        private final String kind;
        private final double rate;
        /** When the values handed so far are due, ns; Long.MIN_VALUE before the first batch. */
        private long dueNs = Long.MIN_VALUE;

        Paced(Md5Engine real, String kind, double rate) {
            this.real = real;
            this.kind = kind;
            this.rate = rate;
        }

        /**
         * Runs {@code work} (count values) and returns once they have taken count / rate seconds since
         * the last batch was due. A gap between batches shorter than one batch's time (the framework
         * reading a record, a claim written to the log) is made up by the next batch, so a busy map
         * holds the rate; a longer one (a map that waited for work) is not: the engine never runs
         * ahead of its rate to catch up.
         */
        private <T> T paced(long count, Supplier<T> work) {
            long batchNs = (long) (count * 1e9 / rate);
            long now = System.nanoTime();
            long start = dueNs == Long.MIN_VALUE || now - dueNs >= batchNs ? now : dueNs;
            dueNs = start + batchNs;
            T result = work.get();
            for (long left; (left = dueNs - System.nanoTime()) > 0;) {
                try {
                    TimeUnit.NANOSECONDS.sleep(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return result;
        }

        @Override
        public String name() {
            return String.format(Locale.ROOT, "paced-%s:%.3g/s:%s", kind, rate, real.name());
        }

        @Override
        public int threads() {
            return real.threads();
        }

        @Override
        public String kind() {
            return kind;
        }

        /** An fpga engine here is a stand-in for one: the CPU did its work. */
        @Override
        public boolean simulated() {
            return kind.equals("fpga");
        }

        @Override
        public void hashRange(long start, int count, int width, ByteBuffer out) {
            paced(count, () -> {
                real.hashRange(start, count, width, out);
                return null;
            });
        }

        @Override
        public ByteBuffer digestBuffer(int values) {
            return real.digestBuffer(values);
        }

        @Override
        public long[] searchRange(long start, long count, int width, TargetSet targets) {
            return paced(count, () -> real.searchRange(start, count, width, targets));
        }

        @Override
        public long valuesHashed() {
            return real.valuesHashed();
        }

        @Override
        public void close() {
            real.close();
        }
    }
}
