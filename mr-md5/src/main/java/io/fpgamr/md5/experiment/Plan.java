package io.fpgamr.md5.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fpgamr.md5.run.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An experiment plan (a YAML file, see {@code mr-md5/experiments/README.md}): the study's settings
 * and its sweeps, each a product of node types, inputs (values per record with their maps),
 * reducer counts and node counts. {@link #points()} expands the sweeps into the distinct jobs to
 * run: a point two sweeps share (chapter 9's is chapter 10's first) runs once.
 *
 * @param bits          the domain of every job, [0, 2^bits)
 * @param target        the MD5 digest every job searches for
 * @param repetitions   runs per point (the thesis's five)
 * @param emulatedRepetitions runs per point of the emulated ARM node types (arm, arm-fpga; default: {@code repetitions}): an
 *                      emulated time's spread says nothing of a board's, and an emulated run costs minutes
 * @param timeoutS      a run still going after this is killed and recorded failed
 * @param energy        the energy monitor's flags ({@code fpgamr energy} settings), e.g. a declared wattage
 * @param fpgaDevices   simulated FPGAs of the embedded FPGA node (node type {@code fpga})
 * @param published     the thesis's published values, relative to the plan's folder
 * @param armFpga       the modelled ARM-FPGA node's clock and board power
 */
public record Plan(String name, int bits, String target, int repetitions, Integer emulatedRepetitions, int timeoutS, List<String> energy, int fpgaDevices,
                   String published, ArmFpga armFpga, List<Sweep> sweeps) {

    /** Runs of a point: {@code emulated_repetitions} for the emulated ARM node types, where the plan sets it, else {@code repetitions}. */
    public int runs(Point p) {
        return p.arm() && emulatedRepetitions != null ? emulatedRepetitions : repetitions;
    }

    /** Runs of the whole plan. */
    public int totalRuns() {
        return points().stream().mapToInt(this::runs).sum();
    }

    /** Node types a point runs on: this machine's CPU, a simulated FPGA node. */
    public static final List<String> NODE_TYPES = List.of("x86", "fpga", "arm", "arm-fpga");
    /**
     * Jobs a point runs: fpgamr's bench job, the plain Hadoop job written as a user would, and fpgamr's
     * bench job on Hadoop's own collector and shuffle ({@code stock}: its engine, Hadoop's framework).
     */
    public static final List<String> JOBS = List.of("fpgamr", "baseline", "stock");

    /**
     * One sweep: the thesis tables it reproduces and the product of its lists.
     *
     * @param tables          the thesis's tables and figures it stands for ("9.1", ...): the plan's documentation; the
     *                        report names the tables of the thesis rows it actually compares with
     * @param thesisReducers  the thesis's reducer count each of {@code reducers} stands for, where a small plan scales
     *                        them down (default: the same counts): the row of the thesis the report compares with
     * @param thesisFramework the thesis's framework it compares with: {@code disco} (default) or {@code patched} (chapter 12)
     */
    public record Sweep(String name, String title, List<String> tables, List<String> jobs, List<String> nodeTypes, List<Input> inputs,
                        List<Integer> reducers, List<Integer> nodes, List<Integer> thesisReducers, String thesisFramework) {

        /** The thesis's reducer count that {@code reducers} stands for. */
        public int thesisReducers(int reducers) {
            int i = this.reducers.indexOf(reducers);
            return thesisReducers == null || i < 0 ? reducers : thesisReducers.get(i);
        }

        public String thesisFramework() {
            return thesisFramework == null ? "disco" : thesisFramework;
        }
    }

    /** Values per record and the maps the job aims for (the thesis paired 1 PpK with 150 maps and 2^18 PpK with 32). */
    public record Input(int ppk, int maps) {
    }

    /**
     * The modelled ARM-FPGA node: device cycles (exact, from the simulation) at the design clock, at
     * the board's declared power. The hardware report ({@code report}, hdl's {@code build/report.json})
     * gives both when it exists; otherwise the values here, each with its source.
     */
    public record ArmFpga(String report, double clockMhz, String clockSource, double boardWatts, String boardWattsSource) {
    }

    private static final ObjectMapper YAML = YAMLMapper.builder()
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .build();

    /** Reads and checks a plan; anything wrong is one line naming the file and the field. */
    public static Plan read(Path file) throws UsageException {
        Plan p = readYaml(file, Plan.class, "plan");
        p.check(file);
        return p;
    }

    /** A YAML file of the experiment's ({@code what}: a plan, published values) as {@code type}; one line for anything wrong. */
    static <T> T readYaml(Path file, Class<T> type, String what) throws UsageException {
        if (!Files.isRegularFile(file)) {
            throw new UsageException("no such " + what + ": " + file);
        }
        T value;
        try {
            value = YAML.readValue(file.toFile(), type);
        } catch (MismatchedInputException e) {
            // a number left out (null for an int): say so, not how to configure the YAML reader
            String why = e.getOriginalMessage().startsWith("Cannot map `null` into type") ? "missing: the " + what + " must set it"
                : e.getOriginalMessage().lines().findFirst().orElse("");
            throw new UsageException(file + ": " + fieldPath(e) + why);
        } catch (JsonProcessingException e) {
            throw new UsageException(file + ": " + e.getOriginalMessage().lines().findFirst().orElse(""));
        } catch (IOException e) {
            throw new UsageException(file + ": " + e.getMessage());
        }
        if (value == null) {
            throw new UsageException(file + ": empty " + what);
        }
        return value;
    }

    private static String fieldPath(MismatchedInputException e) {
        StringBuilder b = new StringBuilder();
        for (var ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                b.append(b.length() > 0 ? "." : "").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                b.append('[').append(ref.getIndex()).append(']');
            }
        }
        return b.length() > 0 ? b + ": " : "";
    }

    private void check(Path file) throws UsageException {
        String f = file + ": ";
        require(name != null && name.matches("[A-Za-z0-9._-]+"), f + "name must be a word of letters, digits, '.', '_' or '-'");
        require(bits >= 1 && bits <= 40, f + "bits must be in 1..40, got " + bits);
        require(target != null && target.matches("[0-9a-fA-F]{32}"), f + "target must be an MD5 digest of 32 hex digits");
        require(repetitions >= 1 && repetitions <= 100, f + "repetitions must be in 1..100, got " + repetitions);
        require(emulatedRepetitions == null || emulatedRepetitions >= 1 && emulatedRepetitions <= 100,
            f + "emulated_repetitions must be in 1..100, got " + emulatedRepetitions);
        require(timeoutS >= 1, f + "timeout_s must be at least 1, got " + timeoutS);
        require(fpgaDevices >= 0 && fpgaDevices <= 16, f + "fpga_devices must be in 0..16, got " + fpgaDevices);
        require(sweeps != null && !sweeps.isEmpty(), f + "no sweeps");
        for (int i = 0; i < sweeps.size(); i++) {
            Sweep s = sweeps.get(i);
            String w = f + "sweeps[" + i + "]";
            require(s.name() != null && s.name().matches("[A-Za-z0-9._-]+"), w + ".name must be a word");
            w = f + "sweep " + s.name();
            require(s.jobs() != null && !s.jobs().isEmpty() && JOBS.containsAll(s.jobs()), w + ": jobs must list some of fpgamr, baseline, stock");
            require(s.nodeTypes() != null && !s.nodeTypes().isEmpty() && NODE_TYPES.containsAll(s.nodeTypes()),
                w + ": node_types must list some of x86, fpga, arm, arm-fpga");
            require(s.inputs() != null && !s.inputs().isEmpty(), w + ": no inputs");
            for (Input in : s.inputs()) {
                require(in.ppk() == 1 || in.ppk() == 262144, w + ": ppk must be 1 or 262144, got " + in.ppk());
                require(in.maps() >= 1, w + ": maps must be at least 1, got " + in.maps());
            }
            require(s.reducers() != null && !s.reducers().isEmpty() && s.reducers().stream().allMatch(r -> r != null && r >= 1),
                w + ": reducers must list counts of at least 1");
            require(s.thesisReducers() == null || s.thesisReducers().size() == s.reducers().size(),
                w + ": thesis_reducers must have one count for each of reducers");
            require(s.thesisFramework().equals("disco") || s.thesisFramework().equals("patched"),
                w + ": thesis_framework must be disco or patched");
            require(s.nodes() != null && !s.nodes().isEmpty() && s.nodes().stream().allMatch(n -> n != null && n >= 1 && n <= 8),
                w + ": nodes must list counts in 1..8");
            require(!s.nodeTypes().contains("fpga") || fpgaDevices > 0 && s.nodes().equals(List.of(1)),
                w + ": fpga runs on the one FPGA node (nodes: [1]) and needs fpga_devices > 0");
            require(!s.jobs().contains("baseline") || List.of("x86", "arm").containsAll(s.nodeTypes()),
                w + ": the baseline job runs on x86 and arm only (it has no FPGA engine)");
        }
        require(published != null && !published.isBlank(),
            f + "published must name the thesis's published values the report compares with (e.g. thesis-published.yml, relative to the plan)");
        require(armFpga == null || armFpga.clockMhz() > 0 && armFpga.boardWatts() > 0 && armFpga.clockSource() != null
            && armFpga.boardWattsSource() != null, f + "arm_fpga needs clock_mhz, clock_source, board_watts and board_watts_source");
    }

    private static void require(boolean ok, String message) throws UsageException {
        if (!ok) {
            throw new UsageException(message);
        }
    }

    /** Every distinct job of the plan, in plan order. */
    public List<Point> points() {
        Map<String, Point> all = new LinkedHashMap<>();
        for (Sweep s : sweeps) {
            for (Point p : points(s)) {
                all.putIfAbsent(p.id(), p);
            }
        }
        return new ArrayList<>(all.values());
    }

    /** The points of one sweep, in its order. */
    public List<Point> points(Sweep s) {
        List<Point> out = new ArrayList<>();
        for (String job : s.jobs()) {
            for (String type : s.nodeTypes()) {
                for (Input in : s.inputs()) {
                    for (int r : s.reducers()) {
                        for (int n : s.nodes()) {
                            out.add(new Point(job, type, bits, in.ppk(), in.maps(), r, n));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The plan's folder, against which {@link #published} is resolved. */
    public static Path folder(Path planFile) {
        Path parent = planFile.toAbsolutePath().getParent();
        return parent != null ? parent : Path.of(".").toAbsolutePath();
    }
}
