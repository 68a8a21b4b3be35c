package io.fpgamr.md5;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fpgamr.accel.Engines;
import io.fpgamr.accel.Md5Engine;
import io.fpgamr.accel.design.DesignPackage;
import io.fpgamr.accel.design.FpgaContainer;
import io.fpgamr.energy.EnergyConfig;
import io.fpgamr.energy.EnergyMonitor;
import io.fpgamr.energy.JobEnergy;
import io.fpgamr.energy.JobProgress;
import io.fpgamr.energy.JobRecord;
import io.fpgamr.energy.Repetitions;
import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.fpga.DeviceSpec;
import io.fpgamr.energy.Stats;
import io.fpgamr.md5.JobOptions.ClusterKind;
import io.fpgamr.md5.JobOptions.Mode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceTypeInfo;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * Runs the search or bench job on the chosen cluster, prints the preimages on stdout and the
 * summary on stderr. A {@link Tool}, so {@code hadoop jar} and ToolRunner's generic options work.
 */
public class Md5Tool extends Configured implements Tool {
    /** Flags that Hadoop's daemons and task JVMs need on JDK 17. */
    static final String JDK17_OPENS = String.join(" ",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.util=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
        "--add-opens=java.base/java.net=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED",
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED");

    private final Mode mode;
    private final PrintStream out;
    private final PrintStream err;

    public Md5Tool(Mode mode) {
        this(mode, System.out, System.err);
    }

    Md5Tool(Mode mode, PrintStream out, PrintStream err) {
        this.mode = mode;
        this.out = out;
        this.err = err;
    }

    @Override
    public int run(String[] args) throws Exception {
        JobOptions o = JobOptions.parse(mode, args, System.getenv("HADOOP_CONF_DIR") != null);
        if (o.help()) {
            JobOptions.printHelp(mode, new PrintWriter(out, true, StandardCharsets.UTF_8));
            return 0;
        }
        if (o.summaryJson() != null) {
            java.nio.file.Path parent = java.nio.file.Path.of(o.summaryJson()).toAbsolutePath().getParent();
            if (!Files.isDirectory(parent)) {
                throw new UsageException("--summary-json: no such directory: " + parent);
            }
        }
        String outputName = o.output() != null ? o.output()
            : "fpgamr-output/" + mode.name().toLowerCase() + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Configuration base = getConf() != null ? getConf() : new Configuration();
        return switch (o.cluster()) {
            case LOCAL -> runLocal(o, base, outputName);
            case EMBEDDED -> runEmbedded(o, base, outputName);
            case CONF -> runOnCluster(o, base, outputName);
        };
    }

    private int runLocal(JobOptions o, Configuration base, String outputName) throws Exception {
        java.nio.file.Path local = checkLocalOutput(outputName);
        checkLocalEngine(o);
        Configuration conf = new Configuration(base);
        conf.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
        conf.set("fs.defaultFS", "file:///");
        int cores = Runtime.getRuntime().availableProcessors();
        // A device belongs to one process at a time, and the local runner's maps are threads of this
        // one: with --accel fpga they take turns on it (by default one map over the whole domain, its
        // records streamed through the device's batches), never wait on each other's lock.
        boolean fpga = o.accel().equals("fpga");
        conf.setInt("mapreduce.local.map.tasks.maximum", fpga ? 1 : cores);
        conf.setInt("mapreduce.local.reduce.tasks.maximum", cores);
        Path outDir = new Path(local.toUri());
        return runJob(o, conf, outDir, fpga ? 1 : cores, null);
    }

    private int runEmbedded(JobOptions o, Configuration base, String outputName) throws Exception {
        java.nio.file.Path local = checkLocalOutput(outputName);
        err.println("fpgamr: starting the embedded cluster (HDFS NameNode + DataNode, YARN ResourceManager, a CPU NodeManager and an "
            + "FPGA NodeManager with " + o.fpgaDevices() + " simulated FPGA" + (o.fpgaDevices() == 1 ? "" : "s") + ")");
        try (EmbeddedCluster cluster = EmbeddedCluster.start(base, JDK17_OPENS, o.fpgaDevices())) {
            Configuration conf = cluster.config();
            Path outDir = new Path("/fpgamr/" + local.getFileName());
            return runJob(o, conf, outDir, cluster.mapSlots(), local);
        }
    }

    private int runOnCluster(JobOptions o, Configuration base, String outputName) throws Exception {
        Configuration conf = new Configuration(base);
        int slots = probeCluster(conf);
        FileSystem fs = FileSystem.get(conf);
        Path outDir = fs.makeQualified(new Path(outputName));
        if (fs.exists(outDir)) {
            throw new UsageException("--output: " + outDir + " already exists");
        }
        return runJob(o, conf, outDir, slots, null);
    }

    private static java.nio.file.Path checkLocalOutput(String outputName) throws UsageException {
        java.nio.file.Path local = java.nio.file.Path.of(outputName).toAbsolutePath().normalize();
        if (Files.exists(local)) {
            throw new UsageException("--output: " + local + " already exists");
        }
        return local;
    }

    /**
     * The engine spec the maps open. With {@code --accel fpga --device SPEC} on a cluster whose maps
     * are separate processes, every map opens that one device, which serves one process at a time:
     * the driver's {@code wait_ms} makes a map that finds it busy wait for it (up to 90% of the task
     * timeout) rather than fail. A device that the NodeManager assigns to the container
     * ({@code FPGAMR_DEVICE}) replaces the spec, and is the container's alone.
     */
    static EngineSpec taskEngineSpec(JobOptions o, Configuration conf) {
        EngineSpec spec = o.engineSpec();
        DeviceSpec device = spec.device();
        if (spec.kind() != EngineSpec.Kind.FPGA || device == null || o.cluster() == ClusterKind.LOCAL || device.waitMs().isPresent()) {
            return spec;
        }
        long timeout = conf.getLong(MRJobConfig.TASK_TIMEOUT, MRJobConfig.DEFAULT_TASK_TIMEOUT_MILLIS);
        return spec.withDevice(device.withWaitMs(timeout > 0 ? timeout / 10 * 9 : 3_600_000L));
    }

    /** On this machine's clusters an engine that cannot open is a usage error, not a failed task. */
    private static void checkLocalEngine(JobOptions o) throws UsageException {
        if (o.accel().equals("fpga")) {
            try (Md5Engine e = Engines.open(o.engineSpec(), 1)) {
                e.name();
            } catch (IllegalArgumentException e) {
                throw new UsageException("--accel fpga: " + e.getMessage());
            }
        }
    }

    /**
     * Checks that the file system and, for YARN, the ResourceManager answer within seconds, and
     * returns the map slots the cluster offers.
     */
    private static int probeCluster(Configuration conf) throws UsageException {
        Configuration probe = new Configuration(conf);
        probe.setInt("ipc.client.connect.max.retries", 1);
        probe.setInt("ipc.client.connect.max.retries.on.timeouts", 1);
        probe.setInt("ipc.client.connect.timeout", 5000);
        probe.setLong("yarn.resourcemanager.connect.max-wait.ms", 8000);
        probe.setLong("yarn.resourcemanager.connect.retry-interval.ms", 1000);
        String fsUri = FileSystem.getDefaultUri(probe).toString();
        try (FileSystem fs = FileSystem.newInstance(probe)) {
            fs.exists(new Path("/"));
        } catch (IOException e) {
            throw new UsageException("cannot reach the cluster's file system " + fsUri + ": " + firstLine(e));
        }
        if (!MRConfig.YARN_FRAMEWORK_NAME.equals(probe.get(MRConfig.FRAMEWORK_NAME))) {
            return Runtime.getRuntime().availableProcessors();
        }
        String rm = probe.get("yarn.resourcemanager.address", "0.0.0.0:8032");
        try (YarnClient yarn = YarnClient.createYarnClient()) {
            yarn.init(probe);
            yarn.start();
            long mb = 0;
            long vcores = 0;
            for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
                Resource r = n.getCapability();
                mb += r.getMemorySize();
                vcores += r.getVirtualCores();
            }
            int mapMb = conf.getInt(MRJobConfig.MAP_MEMORY_MB, MRJobConfig.DEFAULT_MAP_MEMORY_MB);
            int mapVcores = conf.getInt(MRJobConfig.MAP_CPU_VCORES, MRJobConfig.DEFAULT_MAP_CPU_VCORES);
            int amMb = conf.getInt(MRJobConfig.MR_AM_VMEM_MB, MRJobConfig.DEFAULT_MR_AM_VMEM_MB);
            long slots = Math.min((mb - amMb) / Math.max(1, mapMb), (vcores - 1) / Math.max(1, mapVcores));
            return (int) Math.max(1, slots);
        } catch (Exception e) {
            throw new UsageException("cannot reach the ResourceManager at " + rm + ": " + firstLine(e));
        }
    }

    private static String firstLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return m.lines().findFirst().orElse(m);
    }

    /** What one run of the job left: its preimages, its figures, its energy. */
    private record Run(List<String> found, Map<String, Object> summary, JobEnergy energy, long fallbackMaps,
                       java.nio.file.Path energyDir) {
    }

    /**
     * Runs the job {@code --repeat} times on one cluster under one energy monitor. One run writes
     * into {@code outDir}; repeated runs into {@code outDir/run-1}, ... with their energy folders
     * in one set folder that also gets the mean ± sd report. A failed run removes the whole output.
     */
    private int runJob(JobOptions o, Configuration clusterConf, Path outDir, int slots, java.nio.file.Path copyTo) throws Exception {
        // usage errors (no FPGA in the cluster, a bad design) come before anything else is started
        Configuration conf = new Configuration(clusterConf);
        String design = requestFpgas(o, conf);
        EnergyConfig energyConfig;
        try {
            energyConfig = EnergyConfig.fromEnvironment();
        } catch (IllegalArgumentException e) {
            throw new UsageException("$" + EnergyConfig.OPTS_ENV + ": " + e.getMessage());
        }
        FileSystem fs = outDir.getFileSystem(conf);
        try (EnergyMonitor monitor = EnergyMonitor.start(energyConfig)) {
            err.println("fpgamr: " + monitor.describe());
            if (o.repeat() == 1) {
                Run r = runOnce(o, new Configuration(conf), design, outDir, slots, copyTo, null, monitor);
                if (r == null) {
                    return 1;
                }
                printPreimages(o, r.found());
                printSummary(r.summary(), r.fallbackMaps());
                err.println("  energy: " + energyLine(r.energy()) + "; report in " + r.energyDir());
                writeSummaryJson(o, r.summary());
                return 0;
            }
            List<Run> runs = new ArrayList<>();
            java.nio.file.Path setDir = energySetDir(outDir, copyTo);
            for (int i = 1; i <= o.repeat(); i++) {
                err.println("fpgamr: run " + i + " of " + o.repeat());
                String name = "run-" + i;
                Run r = runOnce(o, new Configuration(conf), design, new Path(outDir, name), slots,
                    copyTo == null ? null : copyTo.resolve(name), setDir.resolve(name), monitor);
                if (r == null) {
                    fs.delete(outDir, true);
                    if (copyTo != null) {
                        FileUtil.fullyDelete(copyTo.toFile());
                    }
                    FileUtil.fullyDelete(setDir.toFile());
                    return 1;
                }
                if (!runs.isEmpty() && !r.found().equals(runs.get(0).found())) {
                    err.println("fpgamr: run " + i + " found " + r.found() + " but run 1 found " + runs.get(0).found());
                    return 1;
                }
                printRunLine(i, r);
                runs.add(r);
            }
            Repetitions rep = EnergyMonitor.summarize(setDir, runs.stream().map(Run::energy).toList());
            Map<String, Object> summary = new LinkedHashMap<>(runs.get(runs.size() - 1).summary());
            summary.put("output", copyTo != null ? copyTo.toString() : outDir.toString());
            summary.put("repetitions", rep.toMap());
            summary.put("runs", runs.stream().map(Run::summary).toList());
            printPreimages(o, runs.get(0).found());
            printRepetitions(rep, runs);
            err.println("  output in " + summary.get("output") + " (run-1 .. run-" + o.repeat() + ")");
            err.println("  energy report over the runs in " + setDir);
            writeSummaryJson(o, summary);
            return 0;
        }
    }

    /** One run of the job: submits it, waits, reads its results; null when it failed (said on stderr, output removed). */
    private Run runOnce(JobOptions o, Configuration conf, String design, Path outDir, int slots, java.nio.file.Path copyTo,
                        java.nio.file.Path energyDirOrNull, EnergyMonitor monitor) throws Exception {
        Domain domain = o.domain();
        conf.setInt(JobKeys.BITS, o.bits());
        conf.setInt(JobKeys.PPK, o.ppk());
        conf.setStrings(JobKeys.TARGETS, o.targets().toArray(new String[0]));
        conf.set(JobKeys.ENGINE, taskEngineSpec(o, conf).toString());
        if (o.recordsPerSplit() > 0) {
            conf.setLong(JobKeys.RECORDS_PER_SPLIT, o.recordsPerSplit());
        }
        conf.setInt(JobKeys.MAPS, o.maps() > 0 ? o.maps() : slots);
        conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 200);
        conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
        conf.setBoolean(MRJobConfig.REDUCE_SPECULATIVE, false);

        Job job = Job.getInstance(conf, "fpgamr " + mode.name().toLowerCase() + " bits=" + o.bits());
        job.setJarByClass(Md5Tool.class);
        job.setInputFormatClass(Md5RangeInputFormat.class);
        job.setOutputFormatClass(TextOutputFormat.class);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(Text.class);
        if (mode == Mode.BENCH) {
            job.setMapperClass(BenchMapper.class);
            job.setMapOutputKeyClass(ByteWritable.class);
            job.setMapOutputValueClass(HashedValue.class);
            job.setReducerClass(BenchReducer.class);
            job.setNumReduceTasks(o.reducers());
        } else {
            job.setMapperClass(SearchMapper.class);
            job.setNumReduceTasks(0);
        }
        FileOutputFormat.setOutputPath(job, outDir);
        FileSystem fs = outDir.getFileSystem(conf);

        long submitMs = System.currentTimeMillis();
        boolean ok;
        try (Progress progress = new Progress(job, err, () -> monitor.progress(progressOf(job, o, slots, submitMs, monitor)))) {
            job.submit();
            err.println("fpgamr: submitted " + job.getJobID() + ": " + mode.name().toLowerCase() + " over 2^" + o.bits()
                + " values, " + o.targets().size() + " target(s), engine " + o.engineSpec());
            ok = job.waitForCompletion(false);
        }
        long doneMs = System.currentTimeMillis();
        if (!ok) {
            monitor.failed(job.getJobID().toString());
            String why = job.getStatus() != null ? job.getStatus().getFailureInfo() : "";
            fs.delete(outDir, true);
            err.println("fpgamr: job " + job.getJobID() + " failed: "
                + (why == null || why.isBlank() ? job.getStatus().getState() : why.lines().findFirst().orElse(why)));
            return null;
        }
        List<TaskSpan> spans = TaskSpan.readAll(fs, outDir);
        List<String> found = readResults(fs, outDir);
        if (copyTo != null) {
            Files.createDirectories(copyTo.getParent());
            fs.copyToLocalFile(outDir, new Path(copyTo.toUri()));
        }
        long hashed = job.getCounters().findCounter(Md5Counters.VALUES_HASHED).getValue();
        long fallback = job.getCounters().findCounter(Md5Counters.JAVA_FALLBACK_MAPS).getValue();
        StageTimes stages = StageTimes.of(spans, submitMs, doneMs);
        Map<String, Object> summary = summary(o, domain, hashed, stages, spans, copyTo != null ? copyTo.toString() : outDir.toString());
        summary.put("job_id", job.getJobID().toString());
        if (design != null) {
            summary.put("design", design);
        }
        java.nio.file.Path energyDir = energyDirOrNull != null ? energyDirOrNull : energyDir(outDir, copyTo, job);
        JobEnergy energy = monitor.finish(new JobRecord(job.getJobID().toString(), submitMs, doneMs, hashed, energySpans(spans)), energyDir);
        summary.put("energy", energy.toMap());
        Map<String, Object> fpgaFigures = FpgaFigures.summary(job.getCounters());
        if (fpgaFigures != null) {
            summary.put("fpga", fpgaFigures);
        }
        return new Run(found, summary, energy, fallback, energyDir);
    }

    private void printPreimages(JobOptions o, List<String> found) {
        for (String line : found) {
            out.println(line);
        }
        out.flush();
        if (found.isEmpty()) {
            err.println("fpgamr: no preimage found for " + o.targets().size() + " target(s) among 2^" + o.bits() + " values");
        }
    }

    @SuppressWarnings("unchecked")
    private void printRunLine(int i, Run r) {
        Map<String, Object> st = (Map<String, Object>) r.summary().get("stages");
        long hashed = (Long) r.summary().get("values_hashed");
        err.printf("fpgamr: run %d: %s values hashed%s, map %.2f s, shuffle %.2f s, reduce %.2f s, total %.2f s; energy %s%n", i,
            hashed, hashed == (Long) r.summary().get("values_expected") ? "" : " (MISMATCH)", (Double) st.get("map_s"),
            (Double) st.get("shuffle_s"), (Double) st.get("reduce_s"), (Double) st.get("total_s"), energyLine(r.energy()));
        if (r.fallbackMaps() > 0) {
            err.printf("  warning: %d map(s) hashed in pure Java: no native kernel for their platform%n", r.fallbackMaps());
        }
    }

    /** The thesis's way of giving repeated runs: each figure as mean ± standard deviation. */
    private void printRepetitions(Repetitions rep, List<Run> runs) {
        long expected = (Long) runs.get(0).summary().get("values_expected");
        boolean allHashed = runs.stream().allMatch(r -> (Long) r.summary().get("values_hashed") == expected);
        err.printf("fpgamr: %d runs, each hashed %s%n", runs.size(), allHashed ? expected + " values" : "a different count (MISMATCH)");
        err.printf("  %-8s %20s%n", "figure", "mean ± sd");
        for (String[] f : new String[][] {{"map_s", "map", "s"}, {"shuffle_s", "shuffle", "s"}, {"reduce_s", "reduce", "s"},
            {"total_s", "total", "s"}, {"energy_j", "energy", "J"}, {"mean_w", "power", "W"}, {"tpw", "TpW", "values/J"}}) {
            Stats st = rep.stat(f[0]);
            if (st != null) {
                err.printf("  %-8s %20s %s%n", f[1], st.format(f[0].equals("tpw") ? 0 : 2), f[2]);
            }
        }
        if (rep.stat("energy_j") == null) {
            boolean none = runs.stream().allMatch(r -> r.energy().energyJ() == null);
            err.println(none ? "  energy: " + energyLine(runs.get(0).energy())
                : "  energy: not measured in every run (see each run's report): no mean given");
        }
    }

    private void writeSummaryJson(JobOptions o, Map<String, Object> summary) throws IOException {
        if (o.summaryJson() != null) {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(new java.io.File(o.summaryJson()), summary);
        }
    }

    /** Where the energy report goes: beside a local output, else in the current directory. */
    private static java.nio.file.Path energyDir(Path outDir, java.nio.file.Path copyTo, Job job) {
        if (copyTo != null || "file".equals(outDir.toUri().getScheme())) {
            return energySetDir(outDir, copyTo);
        }
        return java.nio.file.Path.of("fpgamr-energy", job.getJobID().toString()).toAbsolutePath();
    }

    /** The energy folder of repeated runs (each run's in its run-N): beside a local output, else named after the output. */
    private static java.nio.file.Path energySetDir(Path outDir, java.nio.file.Path copyTo) {
        if (copyTo != null) {
            return copyTo.resolve("_energy");
        }
        if ("file".equals(outDir.toUri().getScheme())) {
            return java.nio.file.Path.of(outDir.toUri()).resolve("_energy");
        }
        return java.nio.file.Path.of("fpgamr-energy", outDir.getName()).toAbsolutePath();
    }

    private static String energyLine(JobEnergy e) {
        if (e.energyJ() == null) {
            String why = e.unavailable();
            return e.status() + (why != null && !why.equals(e.status()) ? " (" + why + ")" : "");
        }
        return String.format("%.1f J (%s), mean %.1f W, TpW %.4g values/J", e.energyJ(), e.status(), e.meanW(), e.tpw());
    }

    /** The tasks' spans as the energy module joins them with power: maps, and reduces split at their shuffle's end. */
    private static List<io.fpgamr.energy.TaskSpan> energySpans(List<TaskSpan> spans) {
        List<io.fpgamr.energy.TaskSpan> out = new ArrayList<>();
        for (TaskSpan s : spans) {
            if (s.kind().equals("map")) {
                out.add(io.fpgamr.energy.TaskSpan.ofMap(s.node(), s.startMs(), s.endMs()));
            } else {
                out.addAll(io.fpgamr.energy.TaskSpan.ofReduce(s.node(), Math.min(s.startMs(), s.readyMs()), s.readyMs(), s.endMs()));
            }
        }
        return out;
    }

    /**
     * The job's progress for the live dashboards. On YARN from the task reports (a reduce is
     * shuffling during the first third of its progress, as Hadoop counts it); on the local runner,
     * which reports no tasks, from the tasks running in this JVM.
     */
    private JobProgress progressOf(Job job, JobOptions o, int slots, long submitMs, EnergyMonitor monitor) {
        long hashed = -1;
        int maps = -1;
        int shuffles = -1;
        int reduces = -1;
        int containers = -1;
        int fpga = -1;
        try {
            hashed = job.getCounters().findCounter(Md5Counters.VALUES_HASHED).getValue();
            if (o.cluster() == ClusterKind.LOCAL) {
                maps = LocalTasks.MAPS.get();
                fpga = LocalTasks.FPGA_MAPS.get();
                reduces = LocalTasks.REDUCES.get();
                shuffles = mode == Mode.BENCH && job.mapProgress() >= 1f && job.reduceProgress() < 1f / 3 ? o.reducers() : 0;
                containers = 0;
            } else {
                maps = running(job.getTaskReports(TaskType.MAP), 0f, 1f);
                shuffles = running(job.getTaskReports(TaskType.REDUCE), 0f, 1f / 3);
                reduces = running(job.getTaskReports(TaskType.REDUCE), 1f / 3, 1f);
                containers = maps + shuffles + reduces + 1;
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // Unknown figures stay -1; the dashboards show a gap.
        }
        return JobProgress.launcher(String.valueOf(job.getJobID()), monitor.config().node(), hashed, o.domain().size(), submitMs,
            maps, shuffles, reduces, containers, fpga);
    }

    private static int running(TaskReport[] reports, float fromProgress, float toProgress) {
        int n = 0;
        for (TaskReport r : reports) {
            if (r.getCurrentStatus() == TIPStatus.RUNNING && r.getProgress() >= fromProgress && r.getProgress() < toProgress) {
                n++;
            }
        }
        return n;
    }

    /**
     * On YARN, {@code --accel fpga} asks for one {@value FpgaContainer#RESOURCE} per map (after
     * checking that the cluster has any), and {@code fpga} and {@code auto} ship the design package
     * through the distributed cache for the NodeManager to load (see yarn-fpga-resource). Returns
     * the design's description, or null when no design goes with the job.
     */
    private static String requestFpgas(JobOptions o, Configuration conf) throws IOException, UsageException {
        boolean fpga = o.accel().equals("fpga");
        if (!MRConfig.YARN_FRAMEWORK_NAME.equals(conf.get(MRConfig.FRAMEWORK_NAME)) || !(fpga || o.accel().equals("auto"))) {
            return null;
        }
        if (fpga) {
            checkFpgasOffered(conf);
            conf.setLong(MRJobConfig.MAP_RESOURCE_TYPE_PREFIX + FpgaContainer.RESOURCE, 1);
        }
        conf.set(MRJobConfig.MAP_ENV + "." + FpgaContainer.ACCEL_ENV, o.accel());
        String name = o.design() != null ? o.design() : o.cluster() == ClusterKind.EMBEDDED ? "vsim-p4" : null;
        if (name == null) {
            return null;
        }
        if (o.design() == null && !fpga) {
            try {
                DesignPackage.findVsimModel(4);
            } catch (IOException e) {
                return null;
            }
        }
        String uri;
        String described;
        try {
            if (name.matches("vsim-p[0-9]+")) {
                int pipelines = Integer.parseInt(name.substring("vsim-p".length()));
                java.nio.file.Path dir = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "fpgamr-designs-" + System.getProperty("user.name"));
                DesignPackage d = DesignPackage.createVsim(dir.resolve("md5acc-vsim-p" + pipelines + ".zip"), pipelines,
                    DesignPackage.findVsimModel(pipelines));
                uri = d.file().toUri().toString();
                described = d.describe();
            } else if (name.contains("://")) {
                uri = name;
                described = name;
            } else {
                DesignPackage d = DesignPackage.open(java.nio.file.Path.of(name).toAbsolutePath());
                uri = d.file().toUri().toString();
                described = d.describe();
            }
        } catch (IOException e) {
            throw new UsageException("--design " + name + ": " + e.getMessage());
        }
        String files = conf.get("tmpfiles");
        conf.set("tmpfiles", (files == null || files.isBlank() ? "" : files + ",") + uri + "#" + FpgaContainer.DESIGN_LINK);
        conf.set(MRJobConfig.MAP_ENV + "." + FpgaContainer.DESIGN_ENV, FpgaContainer.DESIGN_LINK);
        return described;
    }

    /** Fails before submission, in one line, when no running node offers an FPGA: such maps would wait forever. */
    private static void checkFpgasOffered(Configuration conf) throws UsageException {
        try (YarnClient yarn = YarnClient.createYarnClient()) {
            yarn.init(conf);
            yarn.start();
            List<ResourceTypeInfo> types = yarn.getResourceTypeInfo();
            if (types.stream().noneMatch(t -> t.getName().equals(FpgaContainer.RESOURCE))) {
                throw new UsageException("--accel fpga: no FPGA in the cluster: its ResourceManager has no resource type "
                    + FpgaContainer.RESOURCE + " (see yarn-fpga-resource/README.md)");
            }
            if (!ResourceUtils.getResourceTypes().containsKey(FpgaContainer.RESOURCE)) {
                ResourceUtils.reinitializeResources(types);
            }
            long fpgas = 0;
            int nodes = 0;
            for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
                nodes++;
                fpgas += n.getCapability().getResourceValue(FpgaContainer.RESOURCE);
            }
            if (fpgas == 0) {
                throw new UsageException("--accel fpga: no FPGA in the cluster: none of its " + nodes + " running node"
                    + (nodes == 1 ? "" : "s") + " offers " + FpgaContainer.RESOURCE);
            }
        } catch (UsageException e) {
            throw e;
        } catch (Exception e) {
            throw new UsageException("--accel fpga: cannot ask the ResourceManager for FPGAs: " + firstLine(e));
        }
    }

    private static List<String> readResults(FileSystem fs, Path outDir) throws IOException {
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

    private Map<String, Object> summary(JobOptions o, Domain domain, long hashed, StageTimes st, List<TaskSpan> spans, String output) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("mode", mode.name().toLowerCase());
        s.put("bits", o.bits());
        s.put("ppk", o.ppk());
        s.put("cluster", o.cluster().name().toLowerCase());
        s.put("engine", o.engineSpec().toString());
        s.put("output", output);
        s.put("values_hashed", hashed);
        s.put("values_expected", domain.size());
        Map<String, Object> stages = new LinkedHashMap<>();
        stages.put("map_s", st.mapS());
        stages.put("shuffle_s", st.shuffleS());
        stages.put("reduce_s", st.reduceS());
        stages.put("total_s", st.totalS());
        s.put("stages", stages);
        s.put("values_per_s", st.totalS() > 0 ? hashed / st.totalS() : 0.0);
        s.put("map_values_per_s", st.mapS() > 0 ? hashed / st.mapS() : 0.0);
        s.put("maps_by_node", StageTimes.mapsByNode(spans));
        return s;
    }

    @SuppressWarnings("unchecked")
    private void printSummary(Map<String, Object> s, long fallbackMaps) {
        Map<String, Object> st = (Map<String, Object>) s.get("stages");
        long hashed = (Long) s.get("values_hashed");
        err.printf("fpgamr: values hashed %d of %d%s%n", hashed, (Long) s.get("values_expected"),
            hashed == (Long) s.get("values_expected") ? "" : "  (MISMATCH)");
        err.printf("  %-8s %9s%n", "stage", "seconds");
        for (String k : List.of("map", "shuffle", "reduce", "total")) {
            err.printf("  %-8s %9.2f%n", k, (Double) st.get(k + "_s"));
        }
        err.printf("  values/s %.4g overall, %.4g in the map stage%n", (Double) s.get("values_per_s"), (Double) s.get("map_values_per_s"));
        Map<String, Map<String, Integer>> byNode = (Map<String, Map<String, Integer>>) s.get("maps_by_node");
        byNode.forEach((node, c) -> err.printf("  maps on %s: %d cpu, %d fpga%n", node, c.get("cpu"), c.get("fpga")));
        if (s.get("fpga") instanceof Map<?, ?> fpga) {
            err.println("  " + FpgaFigures.line((Map<String, Object>) fpga));
        }
        if (fallbackMaps > 0) {
            err.printf("  warning: %d map(s) hashed in pure Java: no native kernel for their platform%n", fallbackMaps);
        }
        err.println("  output in " + s.get("output"));
    }

    /** Prints map and reduce progress on stderr while the job runs, and calls a hook every second. */
    private static final class Progress implements AutoCloseable {
        private final Thread thread;

        Progress(Job job, PrintStream err, Runnable everySecond) {
            boolean tty = System.console() != null;
            thread = new Thread(() -> {
                String last = "";
                long lastPrint = 0;
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        Thread.sleep(1000);
                        everySecond.run();
                        String now = String.format("map %3.0f%% reduce %3.0f%%", 100 * job.mapProgress(), 100 * job.reduceProgress());
                        long t = System.currentTimeMillis();
                        if (tty) {
                            err.print("\rfpgamr: " + now);
                        } else if (!now.equals(last) && t - lastPrint >= 5000) {
                            err.println("fpgamr: " + now);
                            lastPrint = t;
                        }
                        last = now;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Exception e) {
                        // Not submitted yet, or a status call failed: progress is informational.
                    }
                }
                if (tty) {
                    err.println();
                }
            }, "fpgamr-progress");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            thread.join(2000);
        }
    }
}
