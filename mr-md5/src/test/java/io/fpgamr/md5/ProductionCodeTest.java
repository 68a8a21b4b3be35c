package io.fpgamr.md5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No test code in production code, in every module, Java and C. Production code is what runs on a
 * real cluster with a real device: every module's {@code src/main/java}, the native library's
 * sources (jni-fpga/native: src, kernels, include, and the driver in fpga, not its tests and
 * benchmarks) and the kernel module (kernel/*.c, *.h, not kernel/test). The simulated device
 * (jni-fpga/native/vsim, the Verilated RTL's harness) may inject faults: its spec says so. This
 * check fails when production code
 * <ul>
 *   <li>halts the JVM ({@code Runtime.halt}) anywhere,
 *   <li>calls {@code System.exit} outside a command-line entry point (a {@code static void main}),
 *   <li>calls {@code exit}, {@code _exit} or {@code abort} in C (a library and a kernel module never end their process),
 *   <li>reads a setting whose name says test or fault (a Hadoop configuration key, a system
 *       property or an environment variable, given as a literal or as a constant of the same file).
 * </ul>
 */
class ProductionCodeTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().resolve("..").normalize();

    private static final Pattern HALT = Pattern.compile("\\.halt\\s*\\(");
    private static final Pattern EXIT = Pattern.compile("System\\s*\\.\\s*exit\\s*\\(");
    private static final Pattern MAIN = Pattern.compile("static\\s+void\\s+main\\s*\\(");
    // a call of the C library's function, not a member of that name (the bus's abort: d->bus.abort(...))
    private static final Pattern C_EXIT = Pattern.compile("(?<![.>\\w])(exit|_exit|_Exit|abort)\\s*\\(");
    /** A read of a setting: Configuration's getters, system properties, the environment; its first argument. */
    private static final Pattern READ = Pattern.compile(
        "\\b(get|getBoolean|getInt|getLong|getFloat|getDouble|getTrimmed|getStrings|getTrimmedStrings|getClass|getClasses|getEnum"
            + "|getTimeDuration|getLongBytes|getRaw|getProperty|getenv|getInteger)\\s*\\(\\s*([A-Za-z_][\\w.]*|\"[^\"]*\")");
    private static final Pattern CONSTANT = Pattern.compile("\\b([A-Z][A-Z0-9_]*)\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern C_GETENV = Pattern.compile("\\bgetenv\\s*\\(\\s*\"([^\"]*)\"");

    /** Whether a setting's name says test or fault: a word of it (split at . _ - and case changes) is one of them. */
    static boolean namesTestOrFault(String name) {
        for (String word : name.split("[._\\-]|(?<=[a-z])(?=[A-Z])")) {
            String w = word.toLowerCase(Locale.ROOT);
            if (w.equals("test") || w.equals("tests") || w.equals("fault") || w.equals("faults")) {
                return true;
            }
        }
        return false;
    }

    /** What a Java source file does that production code may not, one line each. */
    static List<String> javaProblems(String file, String src) {
        String code = stripComments(src);
        List<String> p = new ArrayList<>();
        Matcher m = HALT.matcher(code);
        while (m.find()) {
            p.add(file + ":" + line(code, m.start()) + ": halts the JVM");
        }
        List<int[]> mains = mainBodies(code);
        m = EXIT.matcher(code);
        while (m.find()) {
            int at = m.start();
            if (mains.stream().noneMatch(b -> b[0] <= at && at < b[1])) {
                p.add(file + ":" + line(code, at) + ": System.exit outside a command-line entry point (static void main)");
            }
        }
        Map<String, String> constants = new HashMap<>();
        m = CONSTANT.matcher(code);
        while (m.find()) {
            constants.put(m.group(1), m.group(2));
        }
        m = READ.matcher(code);
        while (m.find()) {
            String arg = m.group(2);
            String name = arg.startsWith("\"") ? arg.substring(1, arg.length() - 1)
                : constants.get(arg.substring(arg.lastIndexOf('.') + 1));
            if (name != null && namesTestOrFault(name)) {
                p.add(file + ":" + line(code, m.start()) + ": reads the setting '" + name + "', whose name says test or fault");
            }
        }
        return p;
    }

    /** What a C source file of the library or the kernel module does that production code may not. */
    static List<String> cProblems(String file, String src) {
        String code = stripComments(src);
        List<String> p = new ArrayList<>();
        Matcher m = C_EXIT.matcher(code);
        while (m.find()) {
            p.add(file + ":" + line(code, m.start()) + ": " + m.group(1) + "() ends the process of a library or the kernel");
        }
        m = C_GETENV.matcher(code);
        while (m.find()) {
            if (namesTestOrFault(m.group(1))) {
                p.add(file + ":" + line(code, m.start()) + ": reads the setting '" + m.group(1) + "', whose name says test or fault");
            }
        }
        return p;
    }

    /** The source with its comments blanked (newlines kept, so line numbers hold); string literals are kept. */
    private static String stripComments(String s) {
        StringBuilder b = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != c) {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                j = Math.min(j + 1, s.length());
                b.append(s, i, j);
                i = j;
            } else if (s.startsWith("//", i)) {
                while (i < s.length() && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
                for (int k = i; k < end; k++) {
                    b.append(s.charAt(k) == '\n' ? '\n' : ' ');
                }
                i = end;
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }

    /** [start, end) of each {@code static void main} body (braces matched; comments are gone). */
    private static List<int[]> mainBodies(String code) {
        List<int[]> bodies = new ArrayList<>();
        Matcher m = MAIN.matcher(code);
        while (m.find()) {
            int open = code.indexOf('{', m.end());
            int depth = 0;
            for (int i = open; i >= 0 && i < code.length(); i++) {
                char c = code.charAt(i);
                if (c == '"') {
                    i = code.indexOf('"', i + 1);
                    continue;
                }
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                if (depth == 0) {
                    bodies.add(new int[] {open, i});
                    break;
                }
            }
        }
        return bodies;
    }

    private static int line(String s, int at) {
        int n = 1;
        for (int i = 0; i < at; i++) {
            n += s.charAt(i) == '\n' ? 1 : 0;
        }
        return n;
    }

    private static List<Path> files(Stream<Path> s) {
        try (s) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static List<Path> javaSources() throws IOException {
        List<Path> all = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.sorted().toList()) {
                Path main = module.resolve("src/main/java");
                if (Files.isDirectory(main)) {
                    all.addAll(files(Files.walk(main)).stream().filter(f -> f.toString().endsWith(".java")).toList());
                }
            }
        }
        return all;
    }

    private static List<Path> cSources() throws IOException {
        List<Path> all = new ArrayList<>();
        for (String dir : List.of("jni-fpga/native/src", "jni-fpga/native/kernels", "jni-fpga/native/include")) {
            all.addAll(files(Files.walk(ROOT.resolve(dir))));
        }
        for (String driver : List.of("fpgamr_fpga.c", "bus_uio.c", "bus_vsim.c", "fpgamr_bus.h")) {
            all.add(ROOT.resolve("jni-fpga/native/fpga").resolve(driver));
        }
        all.addAll(files(Files.list(ROOT.resolve("kernel"))).stream().filter(f -> f.toString().matches(".*\\.[ch]$")).toList());
        all.addAll(files(Files.walk(ROOT.resolve("kernel/include"))));
        return all.stream().filter(f -> f.toString().matches(".*\\.(c|h)$")).toList();
    }

    @Test
    void productionCodeHasNoTestHooks() throws IOException {
        List<String> problems = new ArrayList<>();
        List<Path> java = javaSources();
        List<Path> c = cSources();
        assertTrue(java.size() > 100, "the Java sources were found under " + ROOT + ": " + java.size());
        assertTrue(c.size() > 15, "the C sources were found under " + ROOT + ": " + c.size());
        for (Path f : java) {
            problems.addAll(javaProblems(ROOT.relativize(f).toString(), Files.readString(f, StandardCharsets.UTF_8)));
        }
        for (Path f : c) {
            problems.addAll(cProblems(ROOT.relativize(f).toString(), Files.readString(f, StandardCharsets.UTF_8)));
        }
        assertEquals(List.of(), problems);
    }

    /** The most lines a main Java file of mr-md5 may have: a file past it holds more than one idea (issue 41, item 9). */
    static final int MAX_LINES = 500;
    /** The packages of mr-md5 below the command line: they may not import it ({@code cli} drives them, not the reverse). */
    static final List<String> BELOW_CLI = List.of("balance", "cluster", "job", "shuffle");
    private static final Pattern MD5_PACKAGE_REF = Pattern.compile("\\bio\\.fpgamr\\.md5\\.([a-z]+)\\.");

    /** What a main Java file of mr-md5, in package {@code pkg} (below io.fpgamr.md5), has that its rooms may not, one line each. */
    static List<String> roomProblems(String file, String pkg, String src) {
        List<String> p = new ArrayList<>();
        long lines = src.lines().count();
        if (lines > MAX_LINES) {
            p.add(file + ": " + lines + " lines, over " + MAX_LINES + ": split it by role");
        }
        if (BELOW_CLI.contains(pkg)) {
            String code = blankStrings(stripComments(src));
            Matcher m = MD5_PACKAGE_REF.matcher(code);
            while (m.find()) {
                if (m.group(1).equals("cli")) {
                    p.add(file + ":" + line(code, m.start()) + ": " + pkg + " refers to io.fpgamr.md5.cli, which is above it");
                }
            }
        }
        return p;
    }

    /** The code with its string literals' contents blanked (a class named in a string is not a dependency of the code). */
    private static String blankStrings(String code) {
        return code.replaceAll("\"(\\\\.|[^\"\\\\\n])*\"", "\"\"");
    }

    @Test
    void mrMd5HasSmallRoomsAndNoPackageImportsTheCommandLine() throws IOException {
        Path base = ROOT.resolve("mr-md5/src/main/java/io/fpgamr/md5");
        List<Path> java = files(Files.walk(base)).stream().filter(f -> f.toString().endsWith(".java")).toList();
        assertTrue(java.size() > 50, "mr-md5's Java sources were found under " + base + ": " + java.size());
        List<String> problems = new ArrayList<>();
        for (Path f : java) {
            String pkg = base.relativize(f).getName(0).toString();
            problems.addAll(roomProblems(ROOT.relativize(f).toString(), pkg, Files.readString(f, StandardCharsets.UTF_8)));
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theRoomsCheckFindsALargeFileAndAnUpwardImport() {
        String big = "class Big {\n" + "    int x;\n".repeat(MAX_LINES) + "}\n";
        String up = String.join("\n",
            "package io.fpgamr.md5.cluster;",
            "import io.fpgamr.md5.cli.RunConfig;",
            "import io.fpgamr.md5.job.Defaults;",
            "class Up {",
            "    // io.fpgamr.md5.cli.Launcher in a comment is not code",
            "    String main = \"io.fpgamr.md5.cli.Main\";",
            "    String name = io.fpgamr.md5.cli.Main.class.getName();",
            "}");
        assertEquals(List.of("Big.java: " + (MAX_LINES + 2) + " lines, over " + MAX_LINES + ": split it by role"),
            roomProblems("Big.java", "cli", big));
        assertEquals(List.of(
            "Up.java:2: cluster refers to io.fpgamr.md5.cli, which is above it",
            "Up.java:7: cluster refers to io.fpgamr.md5.cli, which is above it"), roomProblems("Up.java", "cluster", up));
        assertEquals(List.of(), roomProblems("Up.java", "experiment", up));
    }

    @Test
    void theCheckFindsEachKindOfHook() {
        String hooks = String.join("\n",
            "class C {",
            "    static final String HALT_KEY = \"fpgamr.collector.test.halt-in-spill\";",
            "    void spill(Configuration job) {",
            "        if (job.getBoolean(HALT_KEY, false)) {",
            "            Runtime.getRuntime().halt(3);",
            "        }",
            "        if (job.getBoolean(\"fpgamr.inject.fault\", false) || System.getenv(\"FPGAMR_TEST_MODE\") != null) {",
            "            System.exit(3);",
            "        }",
            "    }",
            "}");
        assertEquals(List.of(
            "C.java:5: halts the JVM",
            "C.java:8: System.exit outside a command-line entry point (static void main)",
            "C.java:4: reads the setting 'fpgamr.collector.test.halt-in-spill', whose name says test or fault",
            "C.java:7: reads the setting 'fpgamr.inject.fault', whose name says test or fault",
            "C.java:7: reads the setting 'FPGAMR_TEST_MODE', whose name says test or fault"), javaProblems("C.java", hooks));
        assertEquals(List.of(
            "d.c:2: exit() ends the process of a library or the kernel",
            "d.c:4: abort() ends the process of a library or the kernel",
            "d.c:3: reads the setting 'FPGAMR_FAULT', whose name says test or fault"),
            cProblems("d.c", "/* exit(1) in a comment is not code */\nvoid f(void) { exit(1); }\nconst char *f = getenv(\"FPGAMR_FAULT\");\n"
                + "void g(dev *d) { d->bus.abort(d->bus.ctx); b.exit(); abort(); }\n"));
    }

    @Test
    void anEntryPointMayExitAndTheWordsAreWords() {
        String entry = String.join("\n",
            "class Main {",
            "    public static void main(String[] args) {",
            "        if (args.length == 0) { System.exit(2); }",
            "        System.exit(run(args));",
            "    }",
            "    static int run(String[] a) { return conf.getInt(\"mapreduce.task.attempts\", 0) + conf.getInt(\"latest.fault\", 0); }",
            "}");
        assertEquals(List.of("Main.java:6: reads the setting 'latest.fault', whose name says test or fault"), javaProblems("Main.java", entry));
        assertFalse(namesTestOrFault("mapreduce.job.latest.contest"));
        assertFalse(namesTestOrFault("fs.defaultFS"));
        assertTrue(namesTestOrFault("fpgamrTestHalt"));
    }
}
