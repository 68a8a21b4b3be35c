package io.fpgamr.md5.experiment.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Published;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's ARM section: the modelled Cortex-A9 rate from counted instructions, beside the thesis's measured Novena rate. */
class ArmSectionTest {
    private static final Path DIR = Path.of("experiments");

    @TempDir
    Path tmp;

    @Test
    void theModelTurnsCountedInstructionsIntoABoardsRateLabelledModelled() throws Exception {
        Path planFolder = tmp.resolve("mr-md5/experiments");
        Files.createDirectories(planFolder);
        Path insns = planFolder.resolve(ArmSection.INSNS_FILE).normalize();
        Files.createDirectories(insns.getParent());
        Files.writeString(insns, "search.insns=117.375\nsearch.neon=100.875\nhash.insns=136.375\nhash.neon=132.625\n");
        ReportContext c = new ReportContext(Plan.read(DIR.resolve("quick.yml")), Published.read(DIR.resolve("thesis-published.yml")),
            planFolder, List.of(), tmp.resolve("out"));
        ArmSection.render(c);
        String md = c.markdown();
        // search: 2 x 100.875 NEON + 16.5 other = 218.25 cycles a value; 1.2 GHz / 218.25 = 5.50e6 a core, 2.20e7 on 4 cores;
        // the thesis's Novena map stage (12.1, patched Disco): 2^28 / 1808.4 s = 1.48e5 values/s
        assertTrue(md.contains("| search (search mode: 45 of MD5's 64 steps, early exit) | 117.4 | 100.9 | 218.3 | 5.50e+06 | 2.20e+07 | 1.48e+05 "
            + "(12.1 12.2, 2^28 / t_map) | 148× [Cortex-A9 NEON search kernel on 4 cores, model, per value, values/s, modelled ÷ ARM Novena, thesis, "
            + "2^28, patched Disco's map-stage values/s, measured] |"), md);
        assertTrue(md.contains("## The ARM nodes: EMULATED runs and a MODELLED Cortex-A9 (thesis 9.1.3, 9.3, 9.4, 10.3, 10.4, 12.1, 12.2)\n"), md);
        assertTrue(md.contains("MODELLED") && md.contains("EMULATED"), md);
        // the emulated runs have no ratio against the thesis: no emulated point ran here, and none is compared
        assertFalse(md.contains("| ratio |"), md);
        assertEquals(2, ReportTest.checkRatios(md).size(), md);
    }

    @Test
    void withoutTheCountTheReportSaysHowToMakeIt() throws Exception {
        ReportContext c = new ReportContext(Plan.read(DIR.resolve("quick.yml")), Published.read(DIR.resolve("thesis-published.yml")),
            tmp.resolve("a/b"), List.of(), tmp.resolve("out"));
        ArmSection.render(c);
        assertTrue(c.markdown().contains("Not counted: ") && c.markdown().contains("`make -C jni-fpga/native neon-insns`"), c.markdown());
    }
}
