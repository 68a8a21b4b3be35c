package io.fpgamr.md5.experiment.report;

import static io.fpgamr.md5.experiment.report.Cells.fmt;
import static io.fpgamr.md5.experiment.report.Cells.here;
import static io.fpgamr.md5.experiment.report.Cells.label;
import static io.fpgamr.md5.experiment.report.Cells.mean;
import static io.fpgamr.md5.experiment.report.Cells.nz;
import static io.fpgamr.md5.experiment.report.Cells.ppk;
import static io.fpgamr.md5.experiment.report.Cells.ratio;
import static io.fpgamr.md5.experiment.report.Cells.stat;

import io.fpgamr.energy.Stats;
import io.fpgamr.md5.experiment.Plan;
import io.fpgamr.md5.experiment.Point;
import io.fpgamr.md5.experiment.ResultRow;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The thesis's chapter 12 measured apart: three jobs on the same nodes and domain (the plain job,
 * fpgamr's job on Hadoop's collector and shuffle, fpgamr's own), each map's time split where it went,
 * and two differences: the framework's share (fpgamr's job on Hadoop's collector against its own
 * collector: the same engine) and the engine's (the plain job against fpgamr's on Hadoop's collector:
 * the same collector, with the plain job's hex records).
 */
final class ShareSection {
    /** The three jobs, in the order the differences read them. */
    private static final List<String> JOBS = List.of("baseline", "stock", "fpgamr");

    private ShareSection() {
    }

    /** A split column: its heading and how a run gives it (null: not measured in that run). */
    private record Part(String heading, Function<ResultRow, Double> of) {
    }

    /** The parts a map's whole time splits into; each is a stretch of the map's own thread, none overlapping another. */
    private static final List<Part> PARTS = List.of(new Part("start", ResultRow::startupS), new Part("engine", ResultRow::engineS),
        new Part("read", ResultRow::readS), new Part("write", ResultRow::writeS), new Part("spill", ResultRow::spillS),
        new Part("sort", ResultRow::sortS));

    /** A map's whole time, summed over the job's maps: its span (JVM start to the mapper's cleanup) and its output's flush after it. */
    static Double mapTime(ResultRow r) {
        return r.mapTasksS() == null ? null : r.mapTasksS() + nz(r.sortS());
    }

    /** What the parts leave of the map time (derived): setup, the engine's open, cleanup, the clocks' milliseconds. */
    static Double rest(ResultRow r) {
        Double whole = mapTime(r);
        if (whole == null) {
            return null;
        }
        double rest = whole;
        for (Part p : PARTS) {
            rest -= nz(p.of().apply(r));
        }
        return rest;
    }

    static void render(ReportContext c) {
        // each shape (node type, PpK, maps, reducers, nodes) where fpgamr's job on Hadoop's collector and another of the three ran
        Set<String> shapes = new LinkedHashSet<>();
        for (Point p : c.plan.points()) {
            if (JOBS.contains(p.job())) {
                shapes.add(p.nodeType() + "/" + p.ppk() + "/" + p.maps() + "/" + p.reducers() + "/" + p.nodes());
            }
        }
        List<List<List<ResultRow>>> found = new ArrayList<>();
        List<Point> shapePoints = new ArrayList<>();
        for (String shape : shapes) {
            String[] s = shape.split("/");
            List<List<ResultRow>> runs = new ArrayList<>();
            int with = 0;
            for (String job : JOBS) {
                List<ResultRow> rs = c.runs(new Point(job, s[0], c.plan.bits(), Integer.parseInt(s[1]), Integer.parseInt(s[2]),
                    Integer.parseInt(s[3]), Integer.parseInt(s[4])).id());
                runs.add(rs);
                with += rs.isEmpty() ? 0 : 1;
            }
            // fpgamr's job on Hadoop's collector is in both differences: without it the split would set apart nothing
            if (with >= 2 && !runs.get(1).isEmpty()) {
                found.add(runs);
                shapePoints.add(new Point("fpgamr", s[0], c.plan.bits(), Integer.parseInt(s[1]), Integer.parseInt(s[2]),
                    Integer.parseInt(s[3]), Integer.parseInt(s[4])));
            }
        }
        if (found.isEmpty()) {
            return;
        }
        c.line("## The framework's share and the engine's, measured apart (thesis chapter 12)");
        c.line();
        c.line("Three jobs on the same nodes and domain: the **plain** job (`BaselineJob`: `MessageDigest` value by value, hex `Text` "
            + "pairs, Hadoop's collector and shuffle), **fpgamr on Hadoop's collector** (fpgamr's engine and binary pairs, Hadoop's "
            + "`MapOutputBuffer` and `Shuffle`) and **fpgamr** (its engine, `ByteKeyCollector`, `KeyRunShuffle`). The framework's share is "
            + "the difference between the last two (the same engine); the engine's is the difference between the first two (the same "
            + "collector; the plain job's records are also hex text, 43 bytes a pair where fpgamr's are 21).");
        c.line();
        c.line("Each cell: mean ± sd over the runs of the seconds summed over the job's maps. Where each column comes from: **map time** "
            + "measured, the maps' spans (`_attempts/<attempt>`: the task JVM's start to the mapper's cleanup) plus sort; **start** measured, the "
            + "span's JVM start to the mapper's setup; **engine** measured, `MAP_ENGINE_US` (fpgamr: the engine's calls, two clock reads "
            + "a batch; the plain job: the value's bytes and `MessageDigest`, two clock reads a value, as it hashes value by value); "
            + "**read** measured, `MAP_READ_US` (between batches, or `map()` calls: the framework reading records); **write** measured, "
            + "`MAP_WRITE_US` (emitting, with any wait for a full buffer on Hadoop's collector); **spill** on fpgamr's collector measured, "
            + "`MAP_SPILL_US`; on Hadoop's collector its spill thread runs beside the map, so **derived**: 0 where Hadoop's collector "
            + "spilled no record before its flush (`HADOOP_SPILLED_IN_MAP`), else not measured (the map's wait is in write); **sort** "
            + "measured, `MAP_SORT_US` (the collector's flush after the map function: sorting, spilling and merging the output; Hadoop's "
            + "`MapOutputBuffer` timed by `TimedMapOutputBuffer`); **rest** derived, the map time less the other columns (setup, the "
            + "engine's open, cleanup, the clocks' milliseconds). The parts are stretches of the map's own thread that do not overlap, so "
            + "start + engine + read + write + spill + sort ≤ map time in every run (`ChapterTwelveJobsTest`).");
        c.line();
        c.line("| node type | PpK | job | runs | map time [s] | start [s] | engine [s] | read [s] | write [s] | spill [s] | sort [s] "
            + "| rest [s] (derived) |");
        c.line("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (int i = 0; i < found.size(); i++) {
            Point p = shapePoints.get(i);
            // the node's label is its runs', whichever job ran: a row without runs is still the emulated node's
            String node = p.nodeType() + label(found.get(i).stream().flatMap(List::stream).toList());
            for (int j = 0; j < JOBS.size(); j++) {
                List<ResultRow> rs = found.get(i).get(j);
                if (rs.isEmpty()) {
                    c.line("| " + node + " | " + ppk(p.ppk()) + " | " + jobName(JOBS.get(j)) + " | 0 | no run | | | | | | | |");
                    continue;
                }
                StringBuilder row = new StringBuilder("| " + node + " | " + ppk(p.ppk()) + " | " + jobName(JOBS.get(j))
                    + " | " + rs.size() + " | " + fmt(stat(rs, ShareSection::mapTime)));
                for (Part part : PARTS) {
                    row.append(" | ").append(partCell(rs, part, JOBS.get(j)));
                }
                row.append(" | ").append(fmt(stat(rs, ShareSection::rest))).append(" |");
                c.line(row.toString());
            }
        }
        c.line();
        c.line("The two differences (derived: a difference of the means above, its ± from both spreads), and the ratios of the map times "
            + "and of the engines' time with what each divides:");
        c.line();
        c.line("| node type | PpK | share | set apart by | Δ map time [s] | Δ engine [s] | Δ write + spill + sort [s] | map time ratio "
            + "| engine time ratio |");
        c.line("|---|---|---|---|---|---|---|---|---|");
        for (int i = 0; i < found.size(); i++) {
            Point p = shapePoints.get(i);
            List<ResultRow> plain = found.get(i).get(0);
            List<ResultRow> stock = found.get(i).get(1);
            List<ResultRow> own = found.get(i).get(2);
            if (!stock.isEmpty() && !own.isEmpty()) {
                c.line(difference(c, p, "framework", "Hadoop's collector and shuffle against fpgamr's, the same engine", stock, "fpgamr on "
                    + "Hadoop's collector", own, "fpgamr"));
            }
            if (!plain.isEmpty() && !stock.isEmpty()) {
                c.line(difference(c, p, "engine", "`MessageDigest` and hex pairs against fpgamr's engine, the same collector", plain,
                    "plain job", stock, "fpgamr on Hadoop's collector"));
            }
        }
        c.line();
    }

    private static String jobName(String job) {
        return switch (job) {
            case "baseline" -> "plain";
            case "stock" -> "fpgamr on Hadoop's collector";
            default -> "fpgamr";
        };
    }

    /** A split cell: mean ± sd; Hadoop's spill says it is derived, or not measured. */
    private static String partCell(List<ResultRow> rs, Part part, String job) {
        Stats s = stat(rs, part.of());
        if (s.n() < rs.size()) {
            return "not measured (in write)";
        }
        return fmt(s) + (part.heading().equals("spill") && !job.equals("fpgamr") ? " (derived)" : "");
    }

    /** One difference's row: a's figures less b's, and a's over b's. */
    private static String difference(ReportContext c, Point p, String share, String apart, List<ResultRow> a, String aName, List<ResultRow> b,
                                     String bName) {
        Function<ResultRow, Double> output = r -> r.writeS() == null || r.spillS() == null || r.sortS() == null ? null
            : r.writeS() + r.spillS() + r.sortS();
        return "| " + p.nodeType() + label(a) + " | " + ppk(p.ppk()) + " | " + share + " | " + apart + " | "
            + delta(a, b, ShareSection::mapTime) + " | " + delta(a, b, ResultRow::engineS) + " | " + delta(a, b, output) + " | "
            + ratio(mean(a, ShareSection::mapTime), here(c, p.nodeType(), a, aName + "'s map time", false), mean(b, ShareSection::mapTime),
                here(c, p.nodeType(), b, bName + "'s map time", false)) + " | "
            + ratio(mean(a, ResultRow::engineS), here(c, p.nodeType(), a, aName + "'s engine time", false), mean(b, ResultRow::engineS),
                here(c, p.nodeType(), b, bName + "'s engine time", false)) + " |";
    }

    /** The difference of two figures' means, its sd from both spreads; empty where a side has none. */
    private static String delta(List<ResultRow> a, List<ResultRow> b, Function<ResultRow, Double> f) {
        Stats x = stat(a, f);
        Stats y = stat(b, f);
        if (x.n() == 0 || y.n() == 0 || x.n() < a.size() || y.n() < b.size()) {
            return "";
        }
        return fmt(new Stats(x.mean() - y.mean(), Math.sqrt(x.sd() * x.sd() + y.sd() * y.sd()), Math.min(x.n(), y.n())));
    }
}
