package io.fpgamr.md5.cli;

import io.fpgamr.accel.NativeArtifacts;
import io.fpgamr.accel.design.FpgaContainer;
import io.fpgamr.accel.fpga.DeviceSpec;
import io.fpgamr.accel.fpga.FpgaEngine;
import io.fpgamr.md5.run.UsageException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.ResourceTypeInfo;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * {@code fpgamr doctor [--device SPEC] [--exporter HOST:PORT]}: is this node's accelerator usable,
 * layer by layer, one line each ({@code ok:}, {@code FAIL:}, {@code n/a:}, {@code busy:},
 * {@code skip:}). The device's layers are the native {@code fpgamr-doctor}'s
 * (jni-fpga/native/tools, shipped in the jar), run on the device given, else on the node's first
 * accelerator, else without a device: on a Cyclone V SoC that program then says why there is none
 * (the FPGA not programmed, a bridge or the FPGA-to-SDRAM port in reset, the module not loaded, the
 * node missing or unbound: each a FAIL), elsewhere that there is none (n/a). This adds YARN's view
 * of the node and the energy exporter. {@code --sysfs-root DIR} reads sysfs under DIR (tests give
 * it a board's layout). Exit 1 on any FAIL, 2 on a usage error.
 */
final class Doctor {
    static final String USAGE = "usage: fpgamr doctor [--device uio:/dev/uioN|vsim:pipelines=N[,...]] [--exporter HOST:PORT] [--node HOST] [--values N] "
        + "[--sysfs-root DIR]";
    /** The program that checks the device's layers, built beside libfpgamr.so. */
    static final String PROGRAM = "fpgamr-doctor";
    /** Where the energy exporter's unit is installed (energy/systemd, deploy/ansible's energy_exporter role). */
    static final Path EXPORTER_UNIT = Path.of("/etc/systemd/system/fpgamr-energy-exporter.service");
    private static final String UIO_NAME = "fpgamr-md5";

    private final PrintStream out;
    private boolean failed;

    private Doctor(PrintStream out) {
        this.out = out;
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws UsageException {
        return run(args, new YarnConfiguration(), out);
    }

    /** With the YARN configuration {@code yarnConf} (the class path's yarn-site.xml for the command). */
    static int run(String[] args, Configuration yarnConf, PrintStream out) throws UsageException {
        String device = null;
        String node = null;
        String exporter = null;
        String values = null;
        String sysfsRoot = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--device" -> device = value(args, ++i, "--device");
                case "--exporter" -> exporter = value(args, ++i, "--exporter");
                case "--values" -> values = value(args, ++i, "--values");
                case "--node" -> node = value(args, ++i, "--node");
                case "--sysfs-root" -> sysfsRoot = value(args, ++i, "--sysfs-root");
                case "-h", "--help" -> {
                    out.println(USAGE);
                    return 0;
                }
                default -> throw new UsageException("doctor: unknown argument '" + args[i] + "' (" + USAGE + ")");
            }
        }
        DeviceSpec spec = null;
        if (device != null) {
            try {
                spec = DeviceSpec.parse(device);
            } catch (IllegalArgumentException e) {
                throw new UsageException("doctor: --device: " + e.getMessage());
            }
        }
        if (exporter != null && !exporter.matches("[^:\\s]+:\\d{1,5}")) {
            throw new UsageException("doctor: --exporter must be HOST:PORT, got '" + exporter + "'");
        }
        if (values != null && !(values.matches("\\d{1,8}") && Long.parseLong(values) >= 1 && Long.parseLong(values) <= 1 << 24)) {
            throw new UsageException("doctor: --values must be 1..16777216 (the DMA round trip's values), got '" + values + "'");
        }
        if (sysfsRoot != null && !Files.isDirectory(Path.of(sysfsRoot))) {
            throw new UsageException("doctor: --sysfs-root: no directory '" + sysfsRoot + "'");
        }
        Doctor d = new Doctor(out);
        boolean hasDevice = d.device(spec, values, sysfsRoot);
        d.yarn(yarnConf, node == null ? hostNames() : Set.of(node.toLowerCase(Locale.ROOT)), hasDevice);
        d.exporter(exporter);
        return d.failed ? 1 : 0;
    }

    private static String value(String[] args, int i, String flag) throws UsageException {
        if (i >= args.length) {
            throw new UsageException("doctor: " + flag + " needs a value");
        }
        return args[i];
    }

    private void say(String status, String layer, String text) {
        out.println(status + ": " + layer + ": " + text);
        out.flush();
        if (status.equals("FAIL")) {
            failed = true;
        }
    }

    /**
     * The device's layers, by the native program; false when the node has no accelerator to use
     * (the program then says why: none here, or a Cyclone V's board layers).
     */
    private boolean device(DeviceSpec given, String values, String sysfsRoot) {
        DeviceSpec spec = given;
        if (spec == null) {
            Optional<String> first = firstAccelerator(Path.of(sysfsRoot == null ? "/" : sysfsRoot, "sys"));
            spec = first.map(DeviceSpec::uio).orElse(null);
        }
        String vsimDir = System.getenv("FPGAMR_VSIM_DIR");
        if (spec != null && spec.simulated() && spec.lib().isEmpty() && (vsimDir == null || vsimDir.isEmpty())) {
            Path model = FpgaEngine.packagedModel(spec.pipelines());
            if (model != null) {
                spec = spec.withLib(model);
            }
        }
        Path program;
        try {
            program = NativeArtifacts.find(PROGRAM).orElse(null);
            if (program != null && !Files.isExecutable(program) && !program.toFile().setExecutable(true, true)) {
                program = null;
            }
        } catch (IOException e) {
            program = null;
        }
        if (program == null) {
            say("FAIL", "device", "this build has no " + PROGRAM + " for " + NativeArtifacts.platform() + " (looked in "
                + String.join(", ", NativeArtifacts.searched(PROGRAM)) + "): build it (make -C jni-fpga/native)");
            return spec != null;
        }
        try {
            List<String> cmd = new java.util.ArrayList<>(List.of(program.toString()));
            if (spec != null) {
                cmd.addAll(List.of("--device", spec.toString()));
            }
            if (values != null && spec != null) {
                cmd.addAll(List.of("--values", values));
            }
            if (sysfsRoot != null) {
                cmd.addAll(List.of("--sysfs-root", sysfsRoot));
            }
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    out.println(line);
                    out.flush();
                }
            }
            int rc = p.waitFor();
            if (rc != 0) {
                failed = true;
            }
            if (rc > 1) {
                say("FAIL", "device", PROGRAM + " ended with exit code " + rc);
            }
        } catch (IOException e) {
            say("FAIL", "device", "cannot run " + program + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            say("FAIL", "device", "interrupted");
        }
        return spec != null;
    }

    /** The node's first accelerator (by platform device name, as the NodeManager's plugin orders them), e.g. /dev/uio0. */
    static Optional<String> firstAccelerator(Path sysfs) {
        TreeMap<String, String> found = new TreeMap<>();
        Path cls = sysfs.resolve("class/uio");
        if (!Files.isDirectory(cls)) {
            return Optional.empty();
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(cls)) {
            for (Path d : dirs) {
                try {
                    if (UIO_NAME.equals(Files.readString(d.resolve("name"), StandardCharsets.US_ASCII).strip())) {
                        found.put(d.resolve("device").toRealPath().getFileName().toString(), "/dev/" + d.getFileName());
                    }
                } catch (IOException e) {
                    // not readable: not ours to use
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return found.isEmpty() ? Optional.empty() : Optional.of(found.firstEntry().getValue());
    }

    /**
     * YARN's view: the NodeManager of this host ({@code me}: its names and addresses, or --node)
     * offers yarn.io/fpga, when a ResourceManager is configured here.
     */
    private void yarn(Configuration yarnConf, Set<String> me, boolean hasDevice) {
        Configuration conf = new YarnConfiguration(yarnConf);
        boolean configured = false;
        for (String key : List.of(YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_HOSTNAME, YarnConfiguration.RM_HA_ENABLED)) {
            String[] from = conf.getPropertySources(key);
            configured |= from != null && Arrays.stream(from).noneMatch(s -> s.equals("yarn-default.xml"));
        }
        if (!configured) {
            say("n/a", "yarn", "no YARN here: no ResourceManager configured (yarn.resourcemanager.hostname in the yarn-site.xml of "
                + "HADOOP_CONF_DIR)");
            return;
        }
        String rm = conf.get(YarnConfiguration.RM_ADDRESS);
        // one short try: the doctor says the ResourceManager is down, it does not wait for it
        conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, 5000);
        conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 1000);
        conf.setInt("ipc.client.connect.max.retries", 0);
        conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
        conf.setInt("ipc.client.connect.timeout", 3000);
        List<NodeReport> nodes;
        try (YarnClient client = YarnClient.createYarnClient()) {
            client.init(conf);
            client.start();
            List<ResourceTypeInfo> types = client.getResourceTypeInfo();
            if (types.stream().noneMatch(t -> t.getName().equals(FpgaContainer.RESOURCE))) {
                if (hasDevice) {
                    say("FAIL", "yarn", "the ResourceManager at " + rm + " has no resource type " + FpgaContainer.RESOURCE
                        + ": add it to its resource-types.xml (yarn-fpga-resource/README.md)");
                } else {
                    say("ok", "yarn", "the ResourceManager at " + rm + " answers; it knows no " + FpgaContainer.RESOURCE
                        + " and this node has no accelerator");
                }
                return;
            }
            if (!ResourceUtils.getResourceTypes().containsKey(FpgaContainer.RESOURCE)) {
                ResourceUtils.reinitializeResources(types);
            }
            nodes = client.getNodeReports(NodeState.RUNNING);
        } catch (Exception e) {
            say("FAIL", "yarn", "the ResourceManager at " + rm + " does not answer (" + UsageException.firstLine(e)
                + "): start it, or correct yarn.resourcemanager.hostname in HADOOP_CONF_DIR");
            return;
        }
        NodeReport mine = null;
        for (NodeReport n : nodes) {
            String h = n.getNodeId().getHost().toLowerCase(Locale.ROOT);
            if (me.contains(h)) {
                mine = n;
            }
        }
        if (mine == null) {
            say("FAIL", "yarn", "this node (" + String.join(", ", me) + ") is not among the " + nodes.size()
                + " running NodeManagers of the ResourceManager at " + rm + ": start its NodeManager");
            return;
        }
        long offered = mine.getCapability().getResourceValue(FpgaContainer.RESOURCE);
        long used = mine.getUsed() == null ? 0 : mine.getUsed().getResourceValue(FpgaContainer.RESOURCE);
        String nm = mine.getNodeId().toString();
        if (offered > 0) {
            say("ok", "yarn", "the NodeManager " + nm + " offers " + FpgaContainer.RESOURCE + " = " + offered + " (" + used + " in use)");
        } else if (hasDevice) {
            say("FAIL", "yarn", "the NodeManager " + nm + " offers no " + FpgaContainer.RESOURCE + ": its FPGA plugin is not "
                + "configured, or finds no healthy device (its log; yarn-fpga-resource/README.md)");
        } else {
            say("ok", "yarn", "the NodeManager " + nm + " runs; it offers no " + FpgaContainer.RESOURCE + " and this node has no accelerator");
        }
    }

    private static Set<String> hostNames() {
        Set<String> names = new java.util.TreeSet<>();
        try {
            InetAddress local = InetAddress.getLocalHost();
            for (String n : List.of(local.getHostName(), local.getCanonicalHostName(), local.getHostAddress())) {
                names.add(n.toLowerCase(Locale.ROOT));
            }
        } catch (IOException e) {
            names.add("localhost");
        }
        return names;
    }

    /** The energy exporter answering /metrics: at --exporter, else at the address of its installed unit. */
    private void exporter(String given) {
        String address = given;
        if (address == null) {
            if (!Files.isRegularFile(EXPORTER_UNIT)) {
                say("n/a", "exporter", "no energy exporter deployed on this node (no " + EXPORTER_UNIT + "); name one with --exporter HOST:PORT");
                return;
            }
            address = unitAddress(EXPORTER_UNIT);
        }
        URI uri = URI.create("http://" + address + "/metrics");
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                say("FAIL", "exporter", uri + " answered HTTP " + r.statusCode() + ": is that the energy exporter?");
            } else if (!r.body().contains("fpgamr_node_info")) {
                say("FAIL", "exporter", uri + " answered without fpgamr_node_info: another program holds the port");
            } else {
                List<String> sources = r.body().lines().filter(l -> l.startsWith("fpgamr_power_source_up{")).toList();
                long up = sources.stream().filter(l -> l.matches(".*\\}\\s+1(\\.0)?$")).count();
                say("ok", "exporter", "the energy exporter answers at " + uri + " (" + up + " of " + sources.size() + " power sources up)");
            }
        } catch (IOException e) {
            say("FAIL", "exporter", "the energy exporter does not answer at " + uri + " (" + UsageException.firstLine(e)
                + "): systemctl status fpgamr-energy-exporter");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            say("FAIL", "exporter", "interrupted");
        }
    }

    /** HOST:PORT of the unit's ExecStart (--bind, --port; the exporter's defaults 0.0.0.0 and 9464, asked on this host). */
    static String unitAddress(Path unit) {
        String bind = "127.0.0.1";
        String port = "9464";
        try {
            for (String line : Files.readAllLines(unit, StandardCharsets.UTF_8)) {
                if (!line.startsWith("ExecStart=")) {
                    continue;
                }
                Matcher b = Pattern.compile("--bind\\s+(\\S+)").matcher(line);
                if (b.find() && !b.group(1).equals("0.0.0.0")) {
                    bind = b.group(1);
                }
                Matcher p = Pattern.compile("--port\\s+(\\d+)").matcher(line);
                if (p.find()) {
                    port = p.group(1);
                }
            }
        } catch (IOException e) {
            // unreadable: the defaults
        }
        return bind + ":" + port;
    }
}
