package io.fpgamr.md5.job;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.md5.balance.WorkPlan;
import io.fpgamr.md5.shuffle.BenchShuffle;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.LazyOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.ClassUtil;

/**
 * The MapReduce job itself, as {@code hadoop jar} needs it (after TeraGen): its input format, map,
 * reduce, output and the settings its tasks read ({@link JobKeys}). The launcher decides where and
 * how often it runs; this class only defines it.
 */
public final class Md5Job {
    /**
     * {@code search}: maps emit only preimages; {@code bench}: the thesis's job, every pair shuffled;
     * {@code baseline}: the bench job written the plain Hadoop way ({@link BaselineJob}).
     */
    public enum Mode {
        SEARCH, BENCH, BASELINE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether every value's pair goes through the shuffle to reducers. */
        public boolean shuffles() {
            return this != SEARCH;
        }
    }

    /**
     * What one job computes: the mode, the domain, values per record, the targets, the engine the
     * tasks open, records per split (0: from {@code maps}), maps to aim for, bench mode's reducers,
     * and whether the maps claim their work while they run ({@link io.fpgamr.md5.balance.WorkPlan}) or have static splits.
     */
    public record Parameters(Mode mode, Domain domain, int ppk, List<String> targets, EngineSpec engine, long recordsPerSplit,
                             int maps, int reducers, boolean streamed) {
        public Parameters {
            targets = List.copyOf(targets);
        }
    }

    private Md5Job() {
    }

    /** A job over {@code p}, writing its preimages (and, outside the committed output, the tasks' spans) to {@code output}. */
    public static Job create(Configuration conf, Parameters p, Path output) throws IOException {
        conf.setInt(JobKeys.BITS, p.domain().bits());
        conf.setInt(JobKeys.PPK, p.ppk());
        conf.setStrings(JobKeys.TARGETS, p.targets().toArray(new String[0]));
        conf.set(JobKeys.ENGINE, p.engine().toString());
        if (p.recordsPerSplit() > 0) {
            conf.setLong(JobKeys.RECORDS_PER_SPLIT, p.recordsPerSplit());
        }
        conf.setInt(JobKeys.MAPS, p.maps());
        // The plain Hadoop job has plain splits.
        conf.set(WorkPlan.MODE, p.streamed() && p.mode() != Mode.BASELINE ? "stream" : "static");
        // A map's work is its split and what it claims: a second attempt running beside it would redo
        // its task's work and compete for the device (a user's -D may still ask for one).
        Defaults.set(conf, MRJobConfig.MAP_SPECULATIVE, false);
        Defaults.set(conf, MRJobConfig.REDUCE_SPECULATIVE, false);

        Job job = Job.getInstance(conf, "fpgamr " + p.mode().label() + " bits=" + p.domain().bits());
        shipJar(job);
        job.setInputFormatClass(Md5RangeInputFormat.class);
        outputFormat(job);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(Text.class);
        if (p.mode() == Mode.BENCH) {
            job.setMapperClass(BenchMapper.class);
            job.setMapOutputKeyClass(ByteWritable.class);
            job.setMapOutputValueClass(HashedValue.class);
            job.setReducerClass(BenchReducer.class);
            job.setNumReduceTasks(p.reducers());
            BenchShuffle.configure(job.getConfiguration());
        } else if (p.mode() == Mode.BASELINE) {
            BaselineJob.configure(job, p.reducers());
        } else {
            job.setMapperClass(SearchMapper.class);
            job.setNumReduceTasks(0);
        }
        FileOutputFormat.setOutputPath(job, output);
        return job;
    }

    /**
     * The preimages as text, through {@link LazyOutputFormat}: a task that finds none creates no part
     * file, so {@code FileOutputCommitter.needsTaskCommit} is false and the task ends without the commit
     * (its commit-pending report, the ApplicationMaster's go, which Hadoop's {@code Task.commit} waits
     * a fixed second for when it asks first, and the rename: issue 40's fifth cut). The tasks' spans are
     * not output ({@link TaskSpans}). A user's {@code -D mapreduce.job.outputformat.class} wins: with
     * {@code TextOutputFormat} every task writes a part file and commits (the old path, which
     * bin/bench-fixed-cost COMMIT=1 runs beside this one).
     */
    private static void outputFormat(Job job) {
        if (!Defaults.given(job.getConfiguration(), MRJobConfig.OUTPUT_FORMAT_CLASS_ATTR)) {
            LazyOutputFormat.setOutputFormatClass(job, TextOutputFormat.class);
        }
    }

    /**
     * Ships the job's jar unless the containers' class path already holds it (the embedded cluster's
     * containers run on the launcher's class path): each copy is an upload at submission and, per
     * container, a download and an unpacking before its JVM starts (issue 40: the ApplicationMaster's
     * and each map's start). A jar the user names ({@code -D mapreduce.job.jar=...}) is shipped.
     */
    private static void shipJar(Job job) {
        Configuration conf = job.getConfiguration();
        if (Defaults.given(conf, MRJobConfig.JAR)) {
            return;
        }
        String jar = ClassUtil.findContainingJar(Md5Job.class);
        if (jar == null || !conf.getTrimmedStringCollection(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH).contains(jar)) {
            job.setJarByClass(Md5Job.class);
        }
    }
}
