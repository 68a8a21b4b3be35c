package io.fpgamr.md5.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.md5.run.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped plans and the published values read and expand as the report expects; a bad plan is one line naming the field. */
class PlanTest {
    private static final Path DIR = Path.of("experiments");

    @TempDir
    Path tmp;

    @Test
    void thesisPlanHasTheThesissPoints() throws Exception {
        Plan p = Plan.read(DIR.resolve("thesis.yml"));
        assertEquals(28, p.bits());
        assertEquals(5, p.repetitions());
        // ch10: 2 inputs x 5 reducer counts (ch9's two among them); ch11: 3 more node counts (its 1-node point is ch10's
        // 32-reducer 2^18 point); ch12: the fpga point (its x86 point is that one again); the framework: the plain job at both
        // PpK (fpgamr's two points are ch10's 32-reducer ones)
        assertEquals(10 + 3 + 1 + 2, p.points().size());
        assertEquals(2, p.points().stream().filter(pt -> pt.job().equals("baseline")).count());
        assertEquals(List.of(1, 2, 3, 4), p.points(p.sweeps().get(2)).stream().map(Point::nodes).toList());
    }

    @Test
    void quickPlanHasTheSameShape() throws Exception {
        Plan thesis = Plan.read(DIR.resolve("thesis.yml"));
        Plan quick = Plan.read(DIR.resolve("quick.yml"));
        assertEquals(thesis.sweeps().stream().map(Plan.Sweep::name).toList(), quick.sweeps().stream().map(Plan.Sweep::name).toList());
        for (int i = 0; i < thesis.sweeps().size(); i++) {
            // quick.yml adds the emulated ARM and ARM-FPGA nodes' small points (too slow under emulation for the thesis's sizes)
            assertEquals(thesis.sweeps().get(i).nodeTypes(), quick.sweeps().get(i).nodeTypes().stream().filter(t -> !t.startsWith("arm")).toList());
            assertEquals(thesis.sweeps().get(i).nodes(), quick.sweeps().get(i).nodes());
            assertEquals(thesis.sweeps().get(i).inputs().stream().map(Plan.Input::ppk).toList(),
                quick.sweeps().get(i).inputs().stream().map(Plan.Input::ppk).toList());
        }
        // one run of each emulated point, two of the others (an sd needs two)
        for (Point p : quick.points()) {
            assertEquals(p.arm() ? 1 : 2, quick.runs(p), p.id());
        }
        assertEquals(2 * (quick.points().size() - 2) + 2, quick.totalRuns());
        assertEquals(2, quick.points().stream().filter(Point::arm).count());
    }

    @Test
    void publishedValuesAreTheThesiss() throws Exception {
        Published pub = Published.read(DIR.resolve("thesis-published.yml"));
        Published.Entry t91 = pub.find("x86", "disco", 1, 4, 1, false).orElseThrow();
        assertEquals(List.of(621.8, 16.38), t91.totalS());
        assertEquals(List.of(1717.5, 32.95), t91.tpw());
        assertEquals(List.of(4180.1, 17.72), pub.find("arm-fpga", "patched", 262144, 32, 1, false).orElseThrow().tpw());
        assertEquals(List.of(1306.98), pub.find("arm-fpga", "disco", 262144, 4, 1, false).orElseThrow().tpw());
        assertEquals(List.of(4146.21, 51.03), pub.find("arm", "disco", 262144, 32, 4, true).orElseThrow().tpw());
        // every printed stage table row adds up to its total within the rounding of the means (the thesis's own sums)
        for (Published.Entry e : pub.entries()) {
            double sum = e.mapS().get(0) + e.shuffleS().get(0) + e.reduceS().get(0);
            assertTrue(Math.abs(sum - e.totalS().get(0)) < 0.05 * e.totalS().get(0) + 1, e.tables() + " " + e.node() + ": " + sum);
        }
    }

    @Test
    void anArmFpgaPointRunsItsMapsOnTheArmFpgaNodesFpgas() throws Exception {
        Path f = tmp.resolve("p.yml");
        Files.writeString(f, Files.readString(DIR.resolve("quick.yml")).replace("published: thesis-published.yml", "published: x.yml")
            .replaceAll("node_types: \\[x86, fpga, arm[^\\]]*\\]", "node_types: [x86, arm-fpga]"));
        Point p = Plan.read(f).points().stream().filter(q -> q.nodeType().equals("arm-fpga")).findFirst().orElseThrow();
        assertTrue(p.arm() && p.fpgaMaps() && !p.fpga(), p.toString());
        // an x86 node for the AM and the reduces beside the ARM-FPGA node, whose simulated FPGAs alone take the maps
        assertEquals(List.of("--cluster", "embedded", "--nodes", "x86,arm-fpga:1", "--fpga-devices", "2"), p.shape(2).args());
        String args = String.join(" ", p.args("T", 60));
        assertTrue(args.endsWith("--accel fpga"), args);
    }

    /** chapter12.yml: the three jobs on x86 (both PpK) and the emulated ARM node; the stock job on Hadoop's collector and shuffle. */
    @Test
    void theChapter12PlanRunsTheThreeJobsOnTheSameNodes() throws Exception {
        Plan p = Plan.read(DIR.resolve("chapter12.yml"));
        assertEquals(List.of("baseline/x86/1", "baseline/x86/262144", "stock/x86/1", "stock/x86/262144", "fpgamr/x86/1", "fpgamr/x86/262144",
            "baseline/arm/262144", "stock/arm/262144", "fpgamr/arm/262144"),
            p.points().stream().map(q -> q.job() + "/" + q.nodeType() + "/" + q.ppk()).toList());
        assertEquals(4 * 3 + 3, p.totalRuns());
        Point stock = p.points().get(2);
        assertEquals(Map.of("mapreduce.job.map.output.collector.class", "io.fpgamr.md5.shuffle.TimedMapOutputBuffer",
            "mapreduce.job.reduce.shuffle.consumer.plugin.class", "org.apache.hadoop.mapreduce.task.reduce.Shuffle"), stock.settings());
        assertEquals(Map.of(), p.points().get(0).settings());
        Path f = tmp.resolve("p.yml");
        Files.writeString(f, Files.readString(DIR.resolve("chapter12.yml")).replace("node_types: [arm]", "node_types: [fpga]"));
        assertEquals(f + ": sweep framework-arm: the baseline job runs on x86 and arm only (it has no FPGA engine)",
            assertThrows(UsageException.class, () -> Plan.read(f)).getMessage());
    }

    @Test
    void badPlansAreOneLineNamingTheField() throws Exception {
        assertEquals("no such plan: " + tmp.resolve("none.yml"), assertThrows(UsageException.class, () -> Plan.read(tmp.resolve("none.yml")))
            .getMessage());
        String good = Files.readString(DIR.resolve("quick.yml")).replace("published: thesis-published.yml", "published: x.yml");
        Path f = tmp.resolve("p.yml");
        Files.writeString(f, good.replace("bits: 20", "bits: 41"));
        assertEquals(f + ": bits must be in 1..40, got 41", assertThrows(UsageException.class, () -> Plan.read(f)).getMessage());
        Files.writeString(f, good.replace("node_types: [x86, fpga, arm, arm-fpga]", "node_types: [x86, risc-v]"));
        assertEquals(f + ": sweep ch12: node_types must list some of x86, fpga, arm, arm-fpga", assertThrows(UsageException.class,
            () -> Plan.read(f)).getMessage());
        Files.writeString(f, good.replace("repetitions: 2", "repetitions: two"));
        String m = assertThrows(UsageException.class, () -> Plan.read(f)).getMessage();
        assertTrue(m.startsWith(f + ": repetitions: ") && !m.contains("\n"), m);
        Files.writeString(f, good.replace("published: x.yml\n", ""));
        assertEquals(f + ": published must name the thesis's published values the report compares with (e.g. thesis-published.yml, "
            + "relative to the plan)", assertThrows(UsageException.class, () -> Plan.read(f)).getMessage());
        Files.writeString(f, good.replace("fpga_devices: 2\n", ""));
        assertEquals(f + ": fpga_devices: missing: the plan must set it", assertThrows(UsageException.class, () -> Plan.read(f)).getMessage());
        Files.writeString(f, good.replace("timeout_s: 300", "timeout_s: 300\ncolour: blue"));
        m = assertThrows(UsageException.class, () -> Plan.read(f)).getMessage();
        assertTrue(m.startsWith(f + ": ") && m.contains("colour") && !m.contains("\n"), m);
    }
}
