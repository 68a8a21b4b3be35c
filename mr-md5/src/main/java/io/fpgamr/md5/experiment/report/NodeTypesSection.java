package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.basisWord;
import static io.fpgamr.md5.experiment.report.Cells.energyFmt;
import static io.fpgamr.md5.experiment.report.Cells.fmt;
import static io.fpgamr.md5.experiment.report.Cells.here;
import static io.fpgamr.md5.experiment.report.Cells.hostEnergy;
import static io.fpgamr.md5.experiment.report.Cells.label;
import static io.fpgamr.md5.experiment.report.Cells.mean;
import static io.fpgamr.md5.experiment.report.Cells.ratio;
import static io.fpgamr.md5.experiment.report.Cells.sig;
import static io.fpgamr.md5.experiment.report.Cells.stat;
import static io.fpgamr.md5.experiment.report.Cells.thesisSide;

import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.Published;
import io.fpgamr.md5.experiment.ResultRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The thesis's conclusion, node type by node type: its table sets x86, the ARM Novena and the
 * ARM-FPGA side by side (map stage and TpW, stock and patched Disco, one node, 2^18 PpK). Here each
 * thesis node gets fpgamr's counterparts from this plan (one node, 2^18 PpK): the run of that node
 * type, labelled emulated or simulated where it is, and the modelled figures of the ARM sections. A
 * ratio against the thesis is printed only where fpgamr's figure is neither emulated nor a
 * simulated device, and a device-only figure's ratio says it is not like for like.
 */
final class NodeTypesSection {
    private static final int PPK = 262144;

    /** A thesis node and fpgamr's node types that stand for it here. */
    private record Counterpart(String thesisNode, String thesisName, int stockReducers, List<String> types) {
    }

    private static final List<Counterpart> NODES = List.of(
        new Counterpart("x86", "reference x86 system", 32, List.of("x86")),
        new Counterpart("arm", "ARM Novena", 32, List.of("arm")),
        new Counterpart("arm-fpga", "ARM-FPGA (SoCFPGA)", 4, List.of("arm-fpga", "fpga")));

    private NodeTypesSection() {
    }

    static void render(ReportContext c) {
        List<String> rows = new ArrayList<>();
        for (Counterpart n : NODES) {
            Optional<Published.Entry> stock = c.published.find(n.thesisNode(), "disco", PPK, n.stockReducers(), 1, false);
            Optional<Published.Entry> patched = c.published.find(n.thesisNode(), "patched", PPK, 32, 1, false);
            String thesis = "| " + n.thesisName() + " | " + stock.map(e -> Published.Entry.format(e.mapS())).orElse("") + " / "
                + patched.map(e -> Published.Entry.format(e.mapS())).orElse("") + " | " + stock.map(e -> Published.Entry.format(e.tpw())).orElse("")
                + " / " + patched.map(e -> Published.Entry.format(e.tpw())).orElse("") + " | ";
            Double thesisTpw = patched.map(e -> Published.Entry.mean(e.tpw())).orElse(null);
            for (String type : n.types()) {
                Optional<Point> p = point(c, type);
                if (p.isEmpty()) {
                    continue;
                }
                List<ResultRow> rs = c.runs(p.get().id());
                Double mapS = mean(rs, ResultRow::mapS);
                String rate = mapS == null || mapS == 0 ? "" : sci(Math.pow(2, p.get().bits()) / mapS);
                String lab = label(rs);
                String cmp;
                if (lab.contains("emulated")) {
                    cmp = " | no ratio: emulated (QEMU's time, " + hostEnergy(rs) + ")";
                } else if (lab.contains("simulated")) {
                    cmp = " | no ratio: a simulated device on an x86 host is neither the thesis's board nor a device figure";
                } else {
                    cmp = ratio(mean(rs, ResultRow::tpw), here(c, type, rs, "fpgamr's TpW, whole job", true), thesisTpw,
                        thesisSide(n.thesisNode(), "patched Disco's TpW, whole node", true)) + " | fpgamr's whole job here (" + basisWord(rs)
                        + ") against the thesis's whole node (measured)";
                }
                rows.add(thesis + type + lab + ", " + p.get().maps() + " maps, " + p.get().reducers() + " reducers, " + rs.size() + " run(s) | "
                    + fmt(stat(rs, ResultRow::mapS)) + lab + " | " + rate + lab + " | " + energyFmt(rs, ResultRow::tpw, false) + " | "
                    + basisWord(rs) + " | " + cmp + " |");
            }
            if (n.thesisNode().equals("arm") && c.armModelledRate != null) {
                rows.add(thesis + "Cortex-A9 board, MODELLED (the NEON kernel only, 4 cores) | | " + sci(c.armModelledRate)
                    + " (modelled) | not modelled | | | no ratio: the kernel's rate alone, no power model |");
            }
            if (n.thesisNode().equals("arm-fpga") && c.armFpgaModelledTpw != null && !c.armFpgaModelledTpw.isNaN()) {
                rows.add(thesis + "ARM-FPGA device, MODELLED, DEVICE ONLY | | | " + sig(c.armFpgaModelledTpw, 3)
                    + " (device only) | modelled | " + ratio(c.armFpgaModelledTpw, ArmFpgaSection.deviceSide(c), thesisTpw,
                        thesisSide("arm-fpga", "patched Disco's TpW, whole node", true))
                    + " | device only against whole node: not like for like |");
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        c.line("## The three node types side by side (the thesis's conclusion)");
        c.line();
        c.line("The thesis closed by setting its three nodes side by side: one node, 2^18 PpK, 32 maps and 32 reducers, on stock and on "
            + "patched Disco (its ARM Novena had over 1.5 times the x86's TpW; the ARM-FPGA reached the x86's TpW once Disco was patched). "
            + "Beside each thesis node stand fpgamr's counterparts from this plan (one node, 2^18 PpK, this plan's domain, maps and "
            + "reducers): the run of that node type, and the modelled figures of the two sections above. An ARM node here is emulated "
            + "(QEMU's time, the x86 host's energy), an FPGA here is the Verilated design run by a CPU, and a model is a model: those rows "
            + "carry no ratio, or one that names both its sides. A run of this plan's domain is set beside the thesis's 2^28 values with "
            + "no ratio unless the two domains are the same: a run of few values is mostly fixed cost.");
        c.line();
        c.line("| thesis node | thesis t_map stock / patched [s] (measured) | thesis TpW stock / patched [1/J] (measured) | fpgamr here | "
            + "t_map [s] | map-stage rate [values/s] | TpW [1/J] | TpW basis | TpW fpgamr ÷ thesis patched | what is compared |");
        c.line("|---|---|---|---|---|---|---|---|---|---|");
        rows.forEach(c::line);
        c.line();
    }

    /**
     * This plan's one-node 2^18 PpK fpgamr point of a node type with runs done: of the sweep that
     * lists the most node types (the node-type sweep, chapter 12's, so that the rows share their maps
     * and reducers), else any.
     */
    private static Optional<Point> point(ReportContext c, String type) {
        return c.plan.points().stream()
            .filter(p -> p.job().equals("fpgamr") && p.nodeType().equals(type) && p.ppk() == PPK && p.nodes() == 1 && !c.runs(p.id()).isEmpty())
            .max(Comparator.comparingInt(p -> widestSweep(c, p)));
    }

    /** The most node types of a sweep that holds the point. */
    private static int widestSweep(ReportContext c, Point p) {
        return c.plan.sweeps().stream()
            .filter(s -> s.jobs().contains(p.job()) && s.nodeTypes().contains(p.nodeType()) && s.reducers().contains(p.reducers())
                && s.nodes().contains(p.nodes()) && s.inputs().stream().anyMatch(in -> in.ppk() == p.ppk() && in.maps() == p.maps()))
            .mapToInt(s -> s.nodeTypes().size()).max().orElse(0);
    }

    private static String sci(double v) {
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
