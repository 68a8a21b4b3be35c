package io.fpgamr.md5;

import io.fpgamr.accel.EngineSpec;
import io.fpgamr.accel.fpga.DeviceSpec;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;

/** The job's command line: {@code search|bench [DIGEST...] [--hash-list FILE] [options]}. */
record JobOptions(
    Mode mode,
    List<String> targets,
    int bits,
    int ppk,
    long recordsPerSplit,
    int maps,
    int reducers,
    ClusterKind cluster,
    String output,
    String summaryJson,
    String accel,
    String device,
    String design,
    int fpgaDevices,
    int repeat,
    boolean help) {

    enum Mode { SEARCH, BENCH }

    /** Runs of the bench mode by default: the thesis ran each measurement five times. */
    static final int DEFAULT_BENCH_RUNS = io.fpgamr.energy.Repetitions.DEFAULT_RUNS;

    enum ClusterKind { EMBEDDED, LOCAL, CONF }

    static Options options() {
        Options o = new Options();
        o.addOption(Option.builder().longOpt("hash-list").hasArg().argName("FILE")
            .desc("targets from a file, one hex MD5 digest per line (as a hashcat hash list)").build());
        o.addOption(Option.builder().longOpt("bits").hasArg().argName("N")
            .desc("domain is [0, 2^N), N in 1..40 (default 28); messages are max(4, ceil(N/8)) bytes, big-endian").build());
        o.addOption(Option.builder().longOpt("ppk").hasArg().argName("N")
            .desc("values per record: 262144 (2^18, the accelerator batch; default) or 1 (one value per map() call)").build());
        o.addOption(Option.builder().longOpt("records-per-split").hasArg().argName("N")
            .desc("records per input split (default: split the domain evenly over the cluster's map slots)").build());
        o.addOption(Option.builder().longOpt("maps").hasArg().argName("N")
            .desc("number of map tasks to aim for when --records-per-split is not given (default: every map slot once)").build());
        o.addOption(Option.builder().longOpt("reducers").hasArg().argName("N")
            .desc("bench mode: number of reducers (default 4, as the thesis's Disco setup)").build());
        o.addOption(Option.builder().longOpt("cluster").hasArg().argName("KIND")
            .desc("embedded (in-process HDFS + YARN; default without HADOOP_CONF_DIR), local (LocalJobRunner), "
                + "or conf (the cluster of HADOOP_CONF_DIR / -conf; default when HADOOP_CONF_DIR is set)").build());
        o.addOption(Option.builder().longOpt("output").hasArg().argName("DIR")
            .desc("job output directory; must not exist (default fpgamr-output/<mode>-<time>; on a conf cluster, "
                + "relative to the user's home on its file system)").build());
        o.addOption(Option.builder().longOpt("summary-json").hasArg().argName("FILE")
            .desc("also write the run's figures as JSON to FILE").build());
        o.addOption(Option.builder().longOpt("accel").hasArg().argName("KIND")
            .desc("cpu (native SIMD kernels, Java where none), fpga, auto (FPGA when free, else CPU; default), "
                + "java (pure Java)").build());
        o.addOption(Option.builder().longOpt("device").hasArg().argName("SPEC")
            .desc("FPGA device for --accel fpga|auto, e.g. vsim:pipelines=4,mhz=50 or uio:/dev/uio0").build());
        o.addOption(Option.builder().longOpt("design").hasArg().argName("PACKAGE")
            .desc("FPGA design the maps need, loaded by the NodeManager where a device holds another: a design package "
                + "(local file or a URI on the cluster's file system) or vsim-pN, the simulated device's model with N pipelines "
                + "(default on the embedded cluster: vsim-p4)").build());
        o.addOption(Option.builder().longOpt("fpga-devices").hasArg().argName("N")
            .desc("embedded cluster: simulated FPGAs on its FPGA node (default 2; 0: no FPGA in the cluster)").build());
        o.addOption(Option.builder().longOpt("repeat").hasArg().argName("N")
            .desc("run the job N times on the same cluster and give every figure (stage times, energy, TpW) as mean ± sd "
                + "(default 5 in bench mode, as the thesis ran each measurement, and 1 in search mode); runs go to "
                + "OUTPUT/run-1 .. run-N, their energy reports and the summary over them to OUTPUT/_energy").build());
        o.addOption(Option.builder("h").longOpt("help").desc("print this help").build());
        return o;
    }

    static void printHelp(Mode mode, PrintWriter out) {
        String m = mode.name().toLowerCase();
        String header = mode == Mode.SEARCH
            ? "\nFind the preimages of MD5 digests over [0, 2^bits). Maps compare as they hash and emit only matches.\n\n"
            : "\nThe thesis's benchmark: maps emit (lsb, message||MD5) for every value, all of it is shuffled, "
                + "reducers keep the pairs whose digest is a target.\n\n";
        String footer = "\nPreimages are printed on stdout as hashcat's potfile does: <md5>:$HEX[<message hex>]. "
            + "Hadoop's generic options (-D k=v, -conf FILE, -libjars JARS) come right after the subcommand. "
            + "Exit codes: 0 done (found or not), 1 the job failed, 2 bad input or unreachable cluster.\n";
        new HelpFormatter().printHelp(out, 100, "fpgamr " + m + " [GENERIC OPTIONS] DIGEST... | --hash-list FILE [OPTIONS]",
            header, options(), 2, 2, footer, false);
        out.flush();
    }

    static JobOptions parse(Mode mode, String[] args, boolean hadoopConfDir) throws UsageException {
        CommandLine cl;
        try {
            cl = new DefaultParser().parse(options(), args);
        } catch (ParseException e) {
            throw new UsageException(e.getMessage());
        }
        if (cl.hasOption("help")) {
            return new JobOptions(mode, List.of(), 0, 0, 0, 0, 0, null, null, null, null, null, null, 0, 0, true);
        }
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
        int bits = intOption(cl, "bits", 28, Domain.MIN_BITS, Domain.MAX_BITS);
        int ppk = intOption(cl, "ppk", JobKeys.BATCH, 1, JobKeys.BATCH);
        if (ppk != 1 && ppk != JobKeys.BATCH) {
            throw new UsageException("--ppk must be 1 or 262144, got " + ppk);
        }
        long rps = intOption(cl, "records-per-split", 0, 1, Integer.MAX_VALUE);
        int maps = intOption(cl, "maps", 0, 1, 100_000);
        int reducers = intOption(cl, "reducers", 4, 1, 10_000);
        if (cl.hasOption("reducers") && mode == Mode.SEARCH) {
            throw new UsageException("--reducers applies to bench mode only: search maps emit matches directly");
        }
        ClusterKind cluster = hadoopConfDir ? ClusterKind.CONF : ClusterKind.EMBEDDED;
        if (cl.hasOption("cluster")) {
            String c = cl.getOptionValue("cluster");
            try {
                cluster = ClusterKind.valueOf(c.toUpperCase());
            } catch (IllegalArgumentException e) {
                throw new UsageException("--cluster must be embedded, local or conf, got '" + c + "'");
            }
        }
        String accel = cl.getOptionValue("accel", "auto");
        if (!List.of("cpu", "fpga", "auto", "java").contains(accel)) {
            throw new UsageException("--accel must be cpu, fpga, auto or java, got '" + accel + "'");
        }
        if (cl.hasOption("device")) {
            try {
                DeviceSpec.parse(cl.getOptionValue("device"));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--device: " + e.getMessage());
            }
        }
        String design = cl.getOptionValue("design");
        if (design != null && !design.matches("vsim-p[0-9]+") && !design.contains("://")
            && !java.nio.file.Files.isRegularFile(java.nio.file.Path.of(design))) {
            throw new UsageException("--design: no such design package: " + design);
        }
        int fpgaDevices = intOption(cl, "fpga-devices", 2, 0, 16);
        int repeat = intOption(cl, "repeat", mode == Mode.BENCH ? DEFAULT_BENCH_RUNS : 1, 1, 100);
        return new JobOptions(mode, Targets.unique(targets), bits, ppk, rps, maps, reducers, cluster,
            cl.getOptionValue("output"), cl.getOptionValue("summary-json"), accel, cl.getOptionValue("device"), design, fpgaDevices,
            repeat, false);
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

    Domain domain() {
        return new Domain(bits);
    }

    /** The engine the maps open: {@code --accel}, with {@code --device} for fpga and auto. */
    EngineSpec engineSpec() {
        EngineSpec spec = EngineSpec.parse(accel);
        return spec.usesFpga() && device != null ? spec.withDevice(DeviceSpec.parse(device)) : spec;
    }
}
