package io.fpgamr.md5.balance;

import io.fpgamr.md5.job.JobKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * How a job's domain reaches its maps, as the job client set it and the tasks read it: the domain
 * in work units of {@link JobKeys#BATCH} values (the accelerator's batch; one unit when the domain
 * is smaller), one unit reserved for each map (its split: every map, so every engine that runs one,
 * hashes at least a unit), the rest a pool the maps claim from while they run ({@link WorkStream}),
 * and the speed each node's engines were given (per host and engine kind, values/s of one map, with
 * the figure's source) with the sum over the job's maps, which sizes the claims.
 *
 * @param maps   the job's maps (its splits)
 * @param speeds per host, per engine kind, the speed given
 * @param total  values/s of all the job's maps together (0: unknown, the maps share equally)
 */
public record WorkPlan(long domainSize, int maps, Map<String, Map<String, Given>> speeds, double total) {
    /** {@code stream} (the default: a reserved unit per map, the rest claimed) or {@code static} (equal splits, nothing claimed). */
    public static final String MODE = "fpgamr.balance";
    public static final String SPEEDS = "fpgamr.balance.speeds";
    public static final String TOTAL = "fpgamr.balance.total";
    /** Where the claim log goes: the job's own folder (its staging folder, removed with the job). */
    static final String LOG_DIR = "fpgamr-claims";

    /** A speed given to a node's engine: values/s of one map, and where the figure comes from (measured, modelled, operator, ...). */
    public record Given(double valuesPerS, String source) {
    }

    public WorkPlan {
        speeds = Map.copyOf(speeds);
    }

    /** Values per unit: a batch, or the whole domain when it is smaller. */
    public long unitValues() {
        return Math.min(domainSize, JobKeys.BATCH);
    }

    /** Units of the domain. */
    public long units() {
        return (domainSize + unitValues() - 1) / unitValues();
    }

    /** Units reserved, one per map, the first units of the domain: there are never more maps than units. */
    public long reserved() {
        return Math.min(maps, units());
    }

    /** Values of units {@code [first, first + count)}, clipped to the domain: {@code [values()[0], values()[1])}. */
    public long[] values(long first, long count) {
        return new long[] {first * unitValues(), Math.min(domainSize, (first + count) * unitValues())};
    }

    /** The speed given to {@code host}'s engine of {@code kind}, or null. */
    public Given given(String host, String kind) {
        Map<String, Given> m = host == null ? null : speeds.get(host);
        return m == null || kind == null ? null : m.get(kind);
    }

    /** Whether {@code conf}'s job claims work while it runs (the default) or has static splits. */
    public static boolean streams(Configuration conf) {
        return !"static".equals(conf.get(MODE, "stream"));
    }

    /** Where the job's claim log is: in the job's folder ({@code mapreduce.job.dir}). */
    public static Path logDir(Configuration conf) {
        String jobDir = conf.get(MRJobConfig.MAPREDUCE_JOB_DIR);
        if (jobDir == null) {
            throw new IllegalStateException(MRJobConfig.MAPREDUCE_JOB_DIR + " is not set: not a submitted job");
        }
        return new Path(jobDir, LOG_DIR);
    }

    /** Writes the plan's speeds into a job's configuration. */
    public void set(Configuration conf) {
        List<String> nodes = new ArrayList<>();
        for (Map.Entry<String, Map<String, Given>> n : speeds.entrySet()) {
            List<String> engines = new ArrayList<>();
            n.getValue().forEach((kind, g) -> engines.add(kind + ":" + String.format(Locale.ROOT, "%.6g", g.valuesPerS()) + ":" + g.source()));
            nodes.add(n.getKey() + "=" + String.join(",", engines));
        }
        conf.set(SPEEDS, String.join(";", nodes));
        conf.set(TOTAL, String.format(Locale.ROOT, "%.6g", total));
    }

    /** The plan of a job, as its tasks read it. */
    public static WorkPlan of(Configuration conf) {
        Map<String, Map<String, Given>> speeds = new LinkedHashMap<>();
        String s = conf.get(SPEEDS, "");
        for (String node : s.isBlank() ? new String[0] : s.split(";")) {
            int eq = node.indexOf('=');
            Map<String, Given> engines = new LinkedHashMap<>();
            for (String e : node.substring(eq + 1).split(",")) {
                String[] f = e.split(":", 3);
                engines.put(f[0], new Given(Double.parseDouble(f[1]), f[2]));
            }
            speeds.put(node.substring(0, eq), engines);
        }
        return new WorkPlan(JobKeys.domain(conf).size(), Math.max(1, conf.getInt(JobKeys.MAPS, 1)), speeds,
            conf.getDouble(TOTAL, 0));
    }
}
