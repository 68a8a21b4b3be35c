package io.fpgamr.md5.job;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Opens a map's engine from the job's engine spec: {@link Engines#open(EngineSpec, int)} unless the
 * job names another opener ({@value JobKeys#ENGINE_OPENER}, a class on the tasks' class path), as
 * Hadoop names its own plugins (the map output collector, the speculator): an engine fpgamr does
 * not ship (another accelerator's driver) reaches the maps without a rebuild. An opener that
 * implements Hadoop's {@code Configurable} is given the job's settings.
 */
public interface EngineOpener {
    /**
     * The engine for {@code spec} (already the container's own device, {@link EngineSpec#inContainer});
     * an {@link IllegalArgumentException} when it cannot open.
     */
    Md5Engine open(EngineSpec spec, int threads);

    /** The job's opener. */
    static EngineOpener of(Configuration conf) {
        Class<? extends EngineOpener> c = conf.getClass(JobKeys.ENGINE_OPENER, null, EngineOpener.class);
        return c == null ? Engines::open : ReflectionUtils.newInstance(c, conf);
    }
}
