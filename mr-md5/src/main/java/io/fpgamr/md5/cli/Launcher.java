package io.fpgamr.md5.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fpgamr.accel.AtomicFiles;
import io.fpgamr.accel.EngineSpec;
import io.fpgamr.energy.EnergyConfig;
import io.fpgamr.energy.EnergyMonitor;
import io.fpgamr.energy.JobEnergy;
import io.fpgamr.energy.JobRecord;
import io.fpgamr.energy.Repetitions;
import io.fpgamr.energy.Timeline;
import io.fpgamr.md5.balance.Balance;
import io.fpgamr.md5.balance.ClusterSpeeds;
import io.fpgamr.md5.cluster.FpgaRequest;
import io.fpgamr.md5.cluster.MapShape;
import io.fpgamr.md5.cluster.RunCluster;
import io.fpgamr.md5.job.AttemptFile;
import io.fpgamr.md5.job.Defaults;
import io.fpgamr.md5.job.FpgaFigures;
import io.fpgamr.md5.job.Md5Counters;
import io.fpgamr.md5.job.Md5Job.Mode;
import io.fpgamr.md5.job.Md5Job;
import io.fpgamr.md5.job.TaskSpans;
import io.fpgamr.md5.run.UsageException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.util.Tool;

/**
 * {@code fpgamr search|bench}: a {@link Tool}, so {@code hadoop jar} and ToolRunner's generic
 * options work. A run: parse the command line once; open the cluster (checking the output first);
 * make the FPGA request; start the energy monitor; run the job {@code --repeat} times, each run
 * checked against its own accounting; print the preimages on stdout and the figures on stderr,
 * and write them as JSON.
 */
public class Launcher extends Configured implements Tool {
    private final Mode mode;
    private final PrintStream out;
    private final PrintStream err;
    private final RunPrinter printer;

    public Launcher(Mode mode) {
        this(mode, System.out, System.err);
    }

    Launcher(Mode mode, PrintStream out, PrintStream err) {
        this.mode = mode;
        this.err = err;
        this.out = out;
        this.printer = new RunPrinter(out, err);
    }

    @Override
    public int run(String[] args) throws Exception {
        if (RunConfig.wantsHelp(args)) {
            RunConfig.printHelp(mode, new PrintWriter(out, true, StandardCharsets.UTF_8));
            return 0;
        }
        RunConfig config = RunConfig.parse(mode, args, System.getenv("HADOOP_CONF_DIR") != null);
        EnergyConfig energyConfig = energyConfig();
        try (RunCluster opened = openCluster(config, getConf() != null ? getConf() : new Configuration(), err)) {
            Configuration conf = new Configuration(opened.conf());
            RunCluster cluster = shaped(config, opened, conf);
            String design = fpgaRequest(config, conf);
            try (EnergyMonitor monitor = EnergyMonitor.start(energyConfig)) {
                err.println("fpgamr: " + monitor.describe());
                RunReport report;
                try {
                    report = runJobs(config, cluster, conf, design, monitor);
                } catch (JobFailedException | IOException | InterruptedException | RuntimeException e) {
                    cluster.removeOutput();
                    throw e;
                }
                printer.print(config, report);
                writeSummaryJson(config, report.summary());
                return 0;
            }
        }
    }

    /**
     * A search on the embedded cluster runs in its fewer, fuller maps ({@link MapShape#fuller}: a map
     * per CPU node on all its cores, a map per FPGA) where the user chose neither the maps
     * ({@code --maps}, {@code --records-per-split}) nor their vcores ({@code -D mapreduce.map.cpu.vcores}),
     * and the maps may run on the CPU or an FPGA ({@code --accel auto}): issue 40 measured it against a
     * map per core (bin/bench-fixed-cost SHAPES=1, mr-md5/README.md). Bench mode and the study keep a
     * map per core: their figures were measured so.
     */
    static RunCluster shaped(RunConfig config, RunCluster cluster, Configuration conf) {
        MapShape shape = cluster.fuller();
        if (shape == null || config.mode() != Mode.SEARCH || config.maps() > 0 || config.recordsPerSplit() > 0
            || config.engine().kind() != EngineSpec.Kind.AUTO || Defaults.given(conf, MRJobConfig.MAP_CPU_VCORES)) {
            return cluster;
        }
        conf.setInt(MRJobConfig.MAP_CPU_VCORES, shape.vcores());
        return cluster.shaped(shape);
    }

    /** Opens the cluster {@code config} names, for its output and engine. */
    private static RunCluster openCluster(RunConfig config, Configuration base, PrintStream err) throws IOException, UsageException {
        return config.cluster().open(config.output(), config.engine(), config.fpgaOnly(), base, err);
    }

    /** Makes {@code config}'s FPGA request in {@code conf}: the design's description, or null ({@link FpgaRequest#make}). */
    private static String fpgaRequest(RunConfig config, Configuration conf) throws UsageException {
        return FpgaRequest.make(config.engine(), config.fpgaOnly(), config.design(), config.cluster(), conf);
    }

    private static EnergyConfig energyConfig() throws UsageException {
        try {
            return EnergyConfig.fromEnvironment();
        } catch (IllegalArgumentException e) {
            throw new UsageException("$" + EnergyConfig.OPTS_ENV + ": " + e.getMessage());
        }
    }

    /**
     * Runs the job {@code --repeat} times on one cluster under one energy monitor. One run writes
     * into the output directory; repeated runs into its {@code run-1}, ... with their energy
     * folders in one folder that also gets the mean ± sd report. Every run must find the same preimages.
     */
    private RunReport runJobs(RunConfig config, RunCluster cluster, Configuration conf, String design, EnergyMonitor monitor)
        throws Exception {
        if (config.repeat() == 1) {
            return RunReport.of(runOnce(config, cluster, conf, design, cluster.output(), cluster.localCopy(), cluster.energyDir(), monitor));
        }
        List<RunReport.JobRun> runs = new ArrayList<>();
        for (int i = 1; i <= config.repeat(); i++) {
            err.println("fpgamr: run " + i + " of " + config.repeat());
            String name = "run-" + i;
            RunReport.JobRun run = runOnce(config, cluster, conf, design, new Path(cluster.output(), name),
                cluster.localCopy() == null ? null : cluster.localCopy().resolve(name), cluster.energyDir().resolve(name), monitor);
            if (!runs.isEmpty() && !run.preimages().equals(runs.get(0).preimages())) {
                throw new JobFailedException("run " + i + " found " + run.preimages() + " but run 1 found " + runs.get(0).preimages());
            }
            printer.runLine(i, run);
            runs.add(run);
        }
        Repetitions rep = EnergyMonitor.summarize(cluster.energyDir(), runs.stream().map(RunReport.JobRun::energy).toList());
        return RunReport.of(runs, rep, cluster.shownOutput());
    }

    /** One job: submitted, watched, its accounting checked, its results and timeline read, its energy computed. */
    private RunReport.JobRun runOnce(RunConfig config, RunCluster cluster, Configuration clusterConf, String design, Path outDir,
                                     java.nio.file.Path copyTo, java.nio.file.Path energyDir, EnergyMonitor monitor) throws Exception {
        Configuration conf = new Configuration(clusterConf);
        conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 200);
        Md5Job.Parameters params = config.jobParameters(conf, cluster.mapSlots(), cluster.yarn());
        // Each node's speed, as the cluster serves it, sizes the maps' claims (and is reported beside what they hashed).
        List<ClusterSpeeds.Node> nodes = cluster.yarn() ? ClusterSpeeds.read(conf) : List.of();
        String speedMode = config.mode() == Mode.SEARCH ? "search" : "bench";
        if (params.streamed()) {
            ClusterSpeeds.plan(nodes, speedMode, config.domain().size(), params.maps()).set(conf);
        }
        Job job = Md5Job.create(conf, params, outDir);
        FileSystem fs = outDir.getFileSystem(conf);

        long submitMs = System.currentTimeMillis();
        String jobId;
        long doneMs;
        WorkCounts counts;
        Counters counters;
        List<TaskAttemptID> succeeded;
        try (ProgressReporter progress = new ProgressReporter(job, config, monitor.config().node(), submitMs,
            ProgressReporter.spool(monitor.config().spool()), err)) {
            job.submit();
            err.println("fpgamr: submitted " + job.getJobID() + ": " + config.mode().label() + " over 2^" + config.domain().bits() + " values, "
                + config.targets().size() + " target(s), engine " + config.engine());
            boolean ok = awaitCompletion(job, config.timeoutS(), progress);
            doneMs = System.currentTimeMillis();
            jobId = job.getJobID().toString();
            // Read once, now: the ApplicationMaster answers for 5 s after the job ends (Hadoop's MRAppMaster
            // sleeps, then stops its client service); a later call waits out the client's connect retries
            // to it (3 x 1 s) before it turns to the history server (CI: ExperimentPlanTest's runs).
            counters = ok ? job.getCounters() : null;
            counts = ok ? WorkCounts.of(counters, job.getConfiguration()) : null;
            // Only each task's succeeded attempt's spans count; YARN's completion events name it (the
            // local runner keeps none and makes one attempt per task).
            succeeded = ok ? (cluster.yarn() ? TaskSpans.succeeded(job) : TaskSpans.onlyAttempts(fs, outDir)) : null;
            String problems = ok ? counts.problems(config.mode(), config.domain()) : null;
            progress.finish(ok && problems == null);
            if (!ok) {
                String why = job.getStatus() != null ? job.getStatus().getFailureInfo() : "";
                throw new JobFailedException("job " + jobId + " failed: "
                    + (why == null || why.isBlank() ? job.getStatus().getState() : why.lines().findFirst().orElse(why)));
            }
            if (problems != null) {
                throw new JobFailedException("job " + jobId + " did not check out: " + problems);
            }
        }
        List<AttemptFile> attempts = TaskSpans.read(fs, outDir, succeeded);
        Timeline timeline = new Timeline(submitMs, doneMs, TaskSpans.spans(attempts));
        JobTimeline phases = JobTimeline.of(timeline, TaskSpans.marks(attempts),
            cluster.yarn() ? JobHistoryReader.read(conf, jobId) : null,
            cluster.yarn() ? "not found: the ApplicationMaster left no job history" : "none: the local runner keeps no job history");
        // the AM has nothing more to give this launcher: the next job's AM need not wait for its memory
        cluster.jobRead(jobId);
        List<String> found = readPreimages(fs, outDir);
        if (copyTo != null) {
            Files.createDirectories(copyTo.getParent());
            fs.copyToLocalFile(outDir, new Path(copyTo.toUri()));
        }
        JobEnergy energy = monitor.finish(new JobRecord(jobId, counts.valuesHashed(), timeline), energyDir);
        Balance balance = Balance.of(params.streamed() && config.mode() != Mode.BASELINE ? "stream" : "static", nodes, speedMode, timeline);
        Map<String, MapsOnNode> mapsOnNodes = MapsOnNode.of(timeline, TaskSpans.platforms(attempts), nodes);
        boolean fpgaEmulated = mapsOnNodes.values().stream().anyMatch(m -> m.fpga() > 0 && m.emulated());
        JobSummary summary = JobSummary.of(config, copyTo != null ? copyTo.toString() : outDir.toString(), jobId, design, counts, counters,
            timeline, mapsOnNodes, energy.toMap(), FpgaFigures.of(counters, timeline.simulated(), fpgaEmulated), balance, phases);
        long fallback = counters.findCounter(Md5Counters.JAVA_FALLBACK_MAPS).getValue();
        return new RunReport.JobRun(found, summary, energy, fallback, energyDir);
    }

    /**
     * Waits for the job as {@code Job.waitForCompletion} does, and kills it once it has run
     * {@code timeoutS} seconds (0: no limit): a job that runs over its time is a failed run.
     */
    private static boolean awaitCompletion(Job job, int timeoutS, ProgressReporter progress) throws IOException, InterruptedException,
        JobFailedException {
        long deadline = timeoutS > 0 ? System.currentTimeMillis() + 1000L * timeoutS : Long.MAX_VALUE;
        int poll = job.getConfiguration().getInt(Job.COMPLETION_POLL_INTERVAL_KEY, 200);
        while (!job.isComplete()) {
            if (System.currentTimeMillis() > deadline) {
                job.killJob();
                progress.finish(false);
                throw new JobFailedException("job " + job.getJobID() + " timed out after " + timeoutS + " s and was killed");
            }
            Thread.sleep(poll);
        }
        return job.isSuccessful();
    }

    /**
     * A cluster and an energy monitor held open for many jobs: the experiment plan runner's handle
     * ({@code io.fpgamr.md5.experiment}). Each job is one run, as one run of the launcher makes it,
     * checked against its own accounting; its output goes under the session's output directory.
     */
    public static final class Session implements AutoCloseable {
        private final Launcher launcher;
        private final RunCluster cluster;
        private final EnergyMonitor monitor;

        private Session(Launcher launcher, RunCluster cluster, EnergyMonitor monitor) {
            this.launcher = launcher;
            this.cluster = cluster;
            this.monitor = monitor;
        }

        /** Opens the cluster {@code config} names (its output directory must not exist) and starts the energy monitor. */
        public static Session open(RunConfig config, Configuration base, EnergyConfig energy, PrintStream err) throws Exception {
            RunCluster cluster = openCluster(config, base, err);
            try {
                EnergyMonitor monitor = EnergyMonitor.start(energy);
                err.println("fpgamr: " + monitor.describe());
                return new Session(new Launcher(config.mode(), err, err), cluster, monitor);
            } catch (Exception | Error e) {
                cluster.close();
                throw e;
            }
        }

        /** One job of {@code config} (its cluster, output, summary and repeat are the session's), into the session's {@code name}. */
        public RunReport.JobRun run(RunConfig config, String name) throws Exception {
            return run(config, name, Map.of());
        }

        /** The same with Hadoop settings of the caller's, as a {@code -D} gives them (the user's: fpgamr's defaults keep them). */
        public RunReport.JobRun run(RunConfig config, String name, Map<String, String> settings) throws Exception {
            Configuration conf = new Configuration(cluster.conf());
            settings.forEach((k, v) -> conf.set(k, v, "fpgamr experiment plan"));
            String design = fpgaRequest(config, conf);
            Path out = new Path(cluster.output(), name);
            java.nio.file.Path copy = cluster.localCopy() == null ? null : cluster.localCopy().resolve(name);
            java.nio.file.Path energyDir = cluster.energyDir().resolve(name);
            try {
                return launcher.runOnce(config, cluster, conf, design, out, copy, energyDir, monitor);
            } catch (Exception e) {
                out.getFileSystem(conf).delete(out, true);
                if (copy != null) {
                    org.apache.hadoop.fs.FileUtil.fullyDelete(copy.toFile());
                }
                org.apache.hadoop.fs.FileUtil.fullyDelete(energyDir.toFile());
                throw e;
            }
        }

        /** The local folder of a job's energy report ({@code report.md}, {@code power.png}, ...). */
        public java.nio.file.Path energyDir(String name) {
            return cluster.energyDir().resolve(name);
        }

        @Override
        public void close() throws Exception {
            try {
                monitor.close();
            } finally {
                cluster.close();
            }
        }
    }

    /** The preimages in the job's part files, sorted, each once (a task that found none wrote none: {@link Md5Job}). */
    private static List<String> readPreimages(FileSystem fs, Path outDir) throws IOException {
        TreeSet<String> lines = new TreeSet<>();
        for (FileStatus st : fs.listStatus(outDir, p -> p.getName().startsWith("part-"))) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(st.getPath()), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    if (!line.isBlank()) {
                        lines.add(line.strip());
                    }
                }
            }
        }
        return new ArrayList<>(lines);
    }

    private static void writeSummaryJson(RunConfig config, JobSummary summary) throws IOException {
        if (config.summaryJson() != null) {
            AtomicFiles.write(config.summaryJson(), new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(summary));
        }
    }
}
