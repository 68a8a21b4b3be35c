package io.fpgamr.md5.cli;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.design.DesignPackage;
import io.fpgamr.accel.fpga.DeviceSpec;
import io.fpgamr.energy.Repetitions;
import io.fpgamr.md5.cluster.ClusterTarget;
import io.fpgamr.md5.cluster.EmbeddedCluster;
import io.fpgamr.md5.cluster.FpgaRequest;
import io.fpgamr.md5.cluster.NodeSpec;
import io.fpgamr.md5.job.Domain;
import io.fpgamr.md5.job.JobKeys;
import io.fpgamr.md5.job.Md5Job.Mode;
import io.fpgamr.md5.job.Md5Job;
import io.fpgamr.md5.run.UsageException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * One run of the launcher, as its command line asked for it ({@code search|bench DIGEST... [--hash-list FILE] [options]}),
 * parsed and checked once: every later step reads these values, never the arguments.
 *
 * @param output        the output directory's name (given, or {@code fpgamr-output/<mode>-<time>})
 * @param summaryJson   where the run's figures go as JSON, or null
 * @param design        the FPGA design the maps need ({@code --design}), or null
 * @param timeoutS      seconds after which a job still running is killed and its run failed; 0: no limit
 * @param streamed      the maps claim work units while they run, sized by the nodes' speeds ({@code --balance stream},
 *                      the default); false: equal static splits ({@code --balance static}, or {@code --records-per-split})
 */
public record RunConfig(Mode mode, List<String> targets, Domain domain, int ppk, long recordsPerSplit, int maps, int reducers,
                        EngineSpec engine, ClusterTarget cluster, String output, Path summaryJson, String design, int repeat,
                        int timeoutS, boolean streamed) {

    /** The values of {@code --accel}. */
    static final List<String> ACCELS = List.of("cpu", "fpga", "auto", "java");

    public RunConfig {
        targets = List.copyOf(targets);
    }

    /**
     * Whether the maps' FPGAs are simulated devices, as far as the run says before it starts: a
     * vsim device, a vsim-pN design, or the embedded cluster (whose FPGAs are all simulated). Once
     * a job ran, its timeline says exactly which maps were.
     */
    public boolean simulatedFpga() {
        return engine.usesFpga() && (engine.device() != null && engine.device().simulated()
            || design != null && FpgaRequest.isVsimDesign(design) || cluster instanceof ClusterTarget.Embedded);
    }

    /** {@code --accel fpga}: every map needs an FPGA. */
    public boolean fpgaOnly() {
        return engine.kind() == EngineSpec.Kind.FPGA;
    }

    /**
     * The job's parameters on a cluster with {@code mapSlots} map slots, whose maps run in processes
     * of their own when {@code separateProcesses}. With {@code --accel fpga --device SPEC} there,
     * every map opens that one device, which serves one process at a time: the driver's
     * {@code wait_ms} makes a map that finds it busy wait for it (up to 90% of the task timeout)
     * rather than fail. A device that the NodeManager assigns to the container replaces the
     * device, and is the container's alone ({@link EngineSpec#inContainer}).
     */
    public Md5Job.Parameters jobParameters(Configuration conf, int mapSlots, boolean separateProcesses) {
        EngineSpec taskEngine = engine;
        DeviceSpec device = engine.device();
        if (fpgaOnly() && device != null && separateProcesses && device.waitMs().isEmpty()) {
            long timeout = conf.getLong(MRJobConfig.TASK_TIMEOUT, MRJobConfig.DEFAULT_TASK_TIMEOUT_MILLIS);
            taskEngine = engine.withDevice(device.withWaitMs(timeout > 0 ? timeout / 10 * 9 : 3_600_000L));
        }
        return new Md5Job.Parameters(mode, domain, ppk, targets, taskEngine, recordsPerSplit, maps > 0 ? maps : mapSlots, reducers, streamed);
    }

    static Options options() {
        Options o = new Options();
        o.addOption(option("hash-list", "FILE", "targets from a file, one hex MD5 digest per line (as a hashcat hash list)"));
        o.addOption(option("bits", "N", "domain is [0, 2^N), N in " + Domain.MIN_BITS + ".." + Domain.MAX_BITS + " (default "
            + JobKeys.DEFAULT_BITS + "); messages are max(4, ceil(N/8)) bytes, big-endian"));
        o.addOption(option("ppk", "N", "values per record: " + JobKeys.BATCH
            + " (2^18, the accelerator batch; default) or 1 (one value per map() call)"));
        o.addOption(option("records-per-split", "N", "records per input split (default: split the domain evenly over the cluster's map slots)"));
        o.addOption(option("maps", "N", "number of map tasks to aim for when --records-per-split is not given (default: every map slot "
            + "once; a search on the embedded cluster: one map per CPU node on all its cores, with as many vcores, and one per FPGA)"));
        o.addOption(option("balance", "HOW", "stream (default): each map hashes a reserved unit, then claims units sized by its node's "
            + "speed until none are left, so each node hashes the share its speed earns; static: equal splits, as plain Hadoop "
            + "(also with --records-per-split)"));
        o.addOption(option("reducers", "N", "bench mode: number of reducers (default " + JobKeys.DEFAULT_REDUCERS
            + ", as the thesis's Disco setup)"));
        o.addOption(option("cluster", "KIND", "embedded (in-process HDFS + YARN; default without HADOOP_CONF_DIR), local (LocalJobRunner), "
            + "or conf (the cluster of HADOOP_CONF_DIR / -conf; default when HADOOP_CONF_DIR is set)"));
        o.addOption(option("output", "DIR", "job output directory; must not exist (default fpgamr-output/<mode>-<time>; on a conf cluster, "
            + "relative to the user's home on its file system)"));
        o.addOption(option("summary-json", "FILE", "also write the run's figures as JSON to FILE"));
        o.addOption(option("accel", "KIND", "cpu (native SIMD kernels, Java where none), fpga, auto (FPGA when free, else CPU; default), "
            + "java (pure Java)"));
        o.addOption(option("device", "SPEC", "FPGA device for --accel fpga|auto, e.g. vsim:pipelines=4,mhz=50 (simulated) or uio:/dev/uio0"));
        o.addOption(option("design", "PACKAGE", "FPGA design the maps need, loaded by the NodeManager where a device holds another: a design "
            + "package (local file or a URI on the cluster's file system) or vsim-pN, the simulated device's model with N pipelines "
            + "(default on the embedded cluster: " + FpgaRequest.EMBEDDED_DESIGN + ")"));
        o.addOption(option("fpga-devices", "N", "embedded cluster: simulated FPGAs on its FPGA node (default "
            + EmbeddedCluster.DEFAULT_FPGA_DEVICES + "; 0: no FPGA in the cluster)"));
        o.addOption(option("nodes", "N|TYPES", "embedded cluster: NodeManagers, the FPGA node one of them when it has FPGAs (default "
            + EmbeddedCluster.DEFAULT_NODES + "), or a list of node types x86, fpga, arm, arm-fpga with optional counts, e.g. "
            + "x86,arm,arm-fpga or x86:2,fpga (ARM nodes run an armhf JVM under QEMU: bin/armhf-root; arm-fpga nodes also the "
            + "simulated FPGA built for armhf, which make test builds)"));
        o.addOption(option("maps-on", "arm", "embedded cluster: run the maps on its ARM nodes only (the AM and reducers stay on x86)"));
        o.addOption(option("timeout", "SECONDS", "kill a job that has not finished after this many seconds (a failed run); default: none"));
        o.addOption(option("repeat", "N", "run the job N times on the same cluster and give every figure (stage times, energy, TpW) as "
            + "mean ± sd (default " + Repetitions.DEFAULT_RUNS + " in bench mode, as the thesis ran each measurement, and 1 in search "
            + "mode); runs go to OUTPUT/run-1 .. run-N, their energy reports and the summary over them to OUTPUT/_energy"));
        o.addOption(Option.builder("h").longOpt("help").desc("print this help").build());
        return o;
    }

    private static Option option(String name, String arg, String description) {
        return Option.builder().longOpt(name).hasArg().argName(arg).desc(description).build();
    }

    static void printHelp(Mode mode, PrintWriter out) {
        String header = mode == Mode.SEARCH
            ? "\nFind the preimages of MD5 digests over [0, 2^bits). Maps compare as they hash and emit only matches.\n\n"
            : "\nThe thesis's benchmark: maps emit (lsb, message||MD5) for every value, all of it is shuffled, "
                + "reducers keep the pairs whose digest is a target.\n\n";
        String footer = "\nPreimages are printed on stdout as hashcat's potfile does: <md5>:$HEX[<message hex>]. "
            + "Hadoop's generic options (-D k=v, -conf FILE, -libjars JARS) come right after the subcommand. "
            + "Exit codes: 0 done (found or not), 1 the job failed (or its counts did not check out), 2 bad input or unreachable cluster.\n";
        new HelpFormatter().printHelp(out, 100, "fpgamr " + mode.label() + " [GENERIC OPTIONS] DIGEST... | --hash-list FILE [OPTIONS]",
            header, options(), 2, 2, footer, false);
        out.flush();
    }

    /** True when the arguments ask for the help text (which then wins over anything else in them). */
    static boolean wantsHelp(String[] args) throws UsageException {
        return commandLine(args).hasOption("help");
    }

    private static CommandLine commandLine(String[] args) throws UsageException {
        try {
            return new DefaultParser().parse(options(), args);
        } catch (ParseException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** The arguments after Hadoop's generic options, checked; {@code hadoopConfDir}: whether HADOOP_CONF_DIR is set. */
    public static RunConfig parse(Mode mode, String[] args, boolean hadoopConfDir) throws UsageException {
        CommandLine cl = commandLine(args);
        List<String> targets = new ArrayList<>();
        for (String a : cl.getArgList()) {
            targets.add(Targets.check(a, "target"));
        }
        if (cl.hasOption("hash-list")) {
            targets.addAll(Targets.readHashList(cl.getOptionValue("hash-list")));
        }
        if (targets.isEmpty()) {
            throw new UsageException("no target: give an MD5 digest or --hash-list FILE (see --help)");
        }
        Domain domain = new Domain(intOption(cl, "bits", JobKeys.DEFAULT_BITS, Domain.MIN_BITS, Domain.MAX_BITS));
        int ppk = intOption(cl, "ppk", JobKeys.BATCH, 1, JobKeys.BATCH);
        if (ppk != 1 && ppk != JobKeys.BATCH) {
            throw new UsageException("--ppk must be 1 or " + JobKeys.BATCH + ", got " + ppk);
        }
        long recordsPerSplit = intOption(cl, "records-per-split", 0, 1, Integer.MAX_VALUE);
        int maps = intOption(cl, "maps", 0, 1, 100_000);
        int reducers = intOption(cl, "reducers", JobKeys.DEFAULT_REDUCERS, 1, 10_000);
        String balance = cl.getOptionValue("balance", "stream");
        if (!balance.equals("stream") && !balance.equals("static")) {
            throw new UsageException("--balance must be stream or static, got '" + balance + "'");
        }
        if (balance.equals("stream") && cl.hasOption("balance") && cl.hasOption("records-per-split")) {
            throw new UsageException("--records-per-split gives static splits: it does not go with --balance stream");
        }
        if (cl.hasOption("reducers") && mode == Mode.SEARCH) {
            throw new UsageException("--reducers applies to bench mode only: search maps emit matches directly");
        }
        String accel = cl.getOptionValue("accel", JobKeys.DEFAULT_ENGINE);
        if (!ACCELS.contains(accel)) {
            throw new UsageException("--accel must be cpu, fpga, auto or java, got '" + accel + "'");
        }
        EngineSpec engine = EngineSpec.parse(accel);
        if (cl.hasOption("device") && engine.usesFpga()) {
            try {
                engine = engine.withDevice(DeviceSpec.parse(cl.getOptionValue("device")));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--device: " + e.getMessage());
            }
        }
        String design = cl.getOptionValue("design");
        if (design != null && !FpgaRequest.isVsimDesign(design) && !design.contains("://")) {
            try {
                // checked whole before any cluster: a FIFO is not waited on, a huge central directory not read
                DesignPackage.open(Path.of(design).toAbsolutePath());
            } catch (IOException e) {
                throw new UsageException("--design: " + e.getMessage());
            }
        }
        int fpgaDevices = intOption(cl, "fpga-devices", EmbeddedCluster.DEFAULT_FPGA_DEVICES, 0, 16);
        List<NodeSpec> nodes;
        String nodesGiven = cl.getOptionValue("nodes", "");
        if (!nodesGiven.isBlank() && !nodesGiven.strip().chars().allMatch(Character::isDigit)) {
            try {
                nodes = NodeSpec.parse(nodesGiven, fpgaDevices);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--nodes: " + e.getMessage());
            }
        } else {
            nodes = NodeSpec.of(intOption(cl, "nodes", EmbeddedCluster.DEFAULT_NODES, fpgaDevices > 0 ? 2 : 1, 16), fpgaDevices);
        }
        String mapsOn = cl.getOptionValue("maps-on");
        if (mapsOn != null && !(mapsOn.equals("arm") && nodes.stream().anyMatch(NodeSpec::arm))) {
            throw new UsageException("--maps-on takes arm, on an embedded cluster with ARM nodes (--nodes x86,arm); got '" + mapsOn + "'");
        }
        ClusterTarget cluster = ClusterTarget.parse(cl.getOptionValue("cluster"), hadoopConfDir, nodes, mapsOn != null);
        int timeoutS = intOption(cl, "timeout", 0, 1, 7 * 24 * 3600);
        int repeat = intOption(cl, "repeat", mode.shuffles() ? Repetitions.DEFAULT_RUNS : 1, 1, 100);
        Path summaryJson = null;
        if (cl.hasOption("summary-json")) {
            summaryJson = Path.of(cl.getOptionValue("summary-json")).toAbsolutePath();
            if (!Files.isDirectory(summaryJson.getParent())) {
                throw new UsageException("--summary-json: no such directory: " + summaryJson.getParent());
            }
        }
        String output = cl.getOptionValue("output",
            "fpgamr-output/" + mode.label() + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
        return new RunConfig(mode, Targets.unique(targets), domain, ppk, recordsPerSplit, maps, reducers,
            engine, cluster, output, summaryJson, design, repeat, timeoutS, balance.equals("stream") && recordsPerSplit == 0);
    }

    private static int intOption(CommandLine cl, String name, int dflt, int min, int max) throws UsageException {
        if (!cl.hasOption(name)) {
            return dflt;
        }
        String v = cl.getOptionValue(name);
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a number, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new UsageException("--" + name + " must be in " + min + ".." + max + ", got " + n);
        }
        return (int) n;
    }
}
