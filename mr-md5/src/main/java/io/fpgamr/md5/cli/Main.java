package io.fpgamr.md5.cli;

import io.fpgamr.md5.job.Md5Job.Mode;
import io.fpgamr.md5.run.UsageException;
import java.io.PrintStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/** {@code fpgamr search|bench ...}: the entry point of bin/fpgamr and of {@code hadoop jar}. */
public final class Main {
    private Main() {
    }

    static final String USAGE = String.join("\n",
        "usage: fpgamr <command> [options]",
        "",
        "commands:",
        "  search DIGEST... [options]   find MD5 preimages over [0, 2^bits); maps emit only matches",
        "  bench DIGEST... [options]    the thesis's benchmark: every (lsb, message||md5) pair is shuffled",
        "  rate [--bits N] [--accel SPEC]...  values/s of the MD5 engines alone, in this process",
        "  doctor [--device SPEC]       is this node's accelerator usable: each layer ok or FAIL (module to DMA, YARN, exporter)",
        "  baseline DIGEST... [options] the bench job written the plain Hadoop way (MessageDigest, Text pairs): the baseline",
        "  experiment PLAN --out DIR    the thesis's study as a plan (mr-md5/experiments/): results.csv and report.md",
        "  energy sources|scope|report|exporter|check-dashboard ...  power, joules and TpW (see energy/README.md)",
        "",
        "'fpgamr <command> --help' lists a command's options.");

    public static void main(String[] args) {
        // Jersey and Guice inside the embedded daemons log through java.util.logging to the
        // terminal; the launcher's own logs go through log4j to a file.
        java.util.logging.LogManager.getLogManager().reset();
        System.exit(run(args));
    }

    static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println(USAGE);
            return 2;
        }
        String cmd = args[0];
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try {
            switch (cmd) {
                case "search":
                    return ToolRunner.run(new Configuration(), new Launcher(Mode.SEARCH, out, err), rest);
                case "bench":
                    return ToolRunner.run(new Configuration(), new Launcher(Mode.BENCH, out, err), rest);
                case "baseline":
                    return ToolRunner.run(new Configuration(), new Launcher(Mode.BASELINE, out, err), rest);
                case "energy":
                    return io.fpgamr.energy.EnergyCli.run(rest);
                case "experiment":
                    return io.fpgamr.md5.experiment.Experiment.run(rest, out, err);
                case "rate":
                    return EngineRate.run(rest, out);
                case "doctor":
                    return Doctor.run(rest, out, err);
                case "-h":
                case "--help":
                case "help":
                    out.println(USAGE);
                    return 0;
                default:
                    err.println("fpgamr: unknown command '" + cmd + "' (expected search, bench, rate, doctor, experiment or energy; see --help)");
                    return 2;
            }
        } catch (UsageException e) {
            err.println("fpgamr: " + e.getMessage());
            return 2;
        } catch (JobFailedException e) {
            err.println("fpgamr: " + e.getMessage());
            return 1;
        } catch (Exception | LinkageError e) {
            // not a bad input nor a failed job: a defect, or the machine. One line here, the whole
            // trace in the log file the line names.
            err.println(FailureLog.record(e));
            return 1;
        }
    }
}
