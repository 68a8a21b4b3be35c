package io.fpgamr.energy.source;

import io.fpgamr.energy.config.Setting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The BMC's DCMI power reading, from the output of {@code ipmitool dcmi power reading} (the
 * command is configurable, so a node can use sudo or a remote BMC, and tests a recorded
 * transcript). The value taken is the "Instantaneous power reading"; a reading the BMC reports
 * as not activated is a failed read, not zero watts.
 */
public final class IpmiSource implements PowerSource {
    public static final List<String> DEFAULT_COMMAND = List.of("ipmitool", "dcmi", "power", "reading");
    public static final SourceKind KIND = new SourceKind("ipmi", List.of(
        Setting.of("command", "--ipmi-command", Setting.COMMAND,
            "the command printing a DCMI power reading; default `ipmitool dcmi power reading` where the node has a BMC device"),
        Setting.of("dev_root", "--dev-root", Setting.PATH, "where the BMC device is looked for").withDefault(Path.of("/dev"))),
        (o, timeoutMs) -> {
            List<String> cmd = o.list("command");
            if (cmd.isEmpty()) {
                if (!hasLocalBmc(o.path("dev_root"))) {
                    throw new IOException("no BMC device (" + o.path("dev_root").resolve("ipmi0") + ")");
                }
                if (!Discovery.onPath("ipmitool")) {
                    throw new IOException("a BMC device exists but ipmitool is not installed");
                }
                cmd = DEFAULT_COMMAND;
            }
            return open(cmd, timeoutMs);
        });
    private static final Pattern INSTANT = Pattern.compile("(?im)^\\s*Instantaneous power reading\\s*:\\s*([0-9]+(?:\\.[0-9]+)?)\\s*Watts");
    private static final Pattern STATE = Pattern.compile("(?im)^\\s*Power reading state is\\s*:\\s*(\\S+)");

    private final List<String> command;
    private final long timeoutMs;

    public IpmiSource(List<String> command, long timeoutMs) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("empty IPMI command");
        }
        this.command = List.copyOf(command);
        this.timeoutMs = timeoutMs;
    }

    /** Runs the command once to check that it gives a reading. */
    public static IpmiSource open(List<String> command, long timeoutMs) throws IOException {
        IpmiSource s = new IpmiSource(command, timeoutMs);
        s.read(System.currentTimeMillis());
        return s;
    }

    /** Whether this node looks like it has a local BMC: an IPMI device node exists. */
    public static boolean hasLocalBmc(Path dev) {
        return Files.exists(dev.resolve("ipmi0")) || Files.exists(dev.resolve("ipmi/0")) || Files.exists(dev.resolve("ipmidev/0"));
    }

    @Override
    public String kind() {
        return KIND.name();
    }

    @Override
    public String describe() {
        return "IPMI DCMI power reading from `" + String.join(" ", command) + "`";
    }

    @Override
    public Coverage coverage() {
        return Coverage.NODE;
    }

    @Override
    public List<DomainPower> read(long nowMs) throws IOException {
        return List.of(new DomainPower("dcmi", parse(run())));
    }

    private String run() throws IOException {
        Path out = Files.createTempFile("fpgamr-ipmi", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new IOException("cannot run `" + String.join(" ", command) + "`: " + e.getMessage(), e);
            }
            p.getOutputStream().close();
            try {
                if (!p.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    throw new IOException("`" + String.join(" ", command) + "` did not finish within " + timeoutMs + " ms");
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while running `" + String.join(" ", command) + "`", e);
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String first = text.lines().filter(l -> !l.isBlank()).findFirst().orElse("").trim();
                throw new IOException("`" + String.join(" ", command) + "` exited with " + p.exitValue() + (first.isEmpty() ? "" : ": " + first));
            }
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The instantaneous reading in watts from {@code ipmitool dcmi power reading}'s text. */
    static double parse(String text) throws IOException {
        Matcher state = STATE.matcher(text);
        if (state.find() && !state.group(1).toLowerCase().startsWith("activated")) {
            throw new IOException("the BMC's power reading is " + state.group(1) + ", not activated");
        }
        Matcher m = INSTANT.matcher(text);
        if (!m.find()) {
            throw new IOException("no 'Instantaneous power reading' in the IPMI output");
        }
        return Double.parseDouble(m.group(1));
    }
}
