package io.fpgamr.energy.source;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An oscilloscope or data-logger trace of a shunt's voltage drop: one sample per line, the time in
 * seconds and dU in volts, separated by a comma, semicolon, tab or spaces; an optional header line
 * first; lines starting with '#' are comments; any sample rate. Each sample becomes power through
 * the {@link ShuntFormula}; samples are then averaged per second of the trace, as the thesis
 * averaged the 500 samples of each second, and the energy is the sum over the seconds of each
 * second's mean times the time its samples cover (a sample stands for one sample period).
 */
public final class ScopeTrace {
    private final double[] times;
    private final double[] watts;
    private final double periodS;

    private ScopeTrace(double[] times, double[] watts) {
        this.times = times;
        this.watts = watts;
        this.periodS = (times[times.length - 1] - times[0]) / (times.length - 1);
    }

    /** A usage-level problem with a trace file: the message names the file and the line. */
    public static final class TraceException extends IOException {
        public TraceException(String message) {
            super(message);
        }
    }

    public static ScopeTrace load(Path file, ShuntFormula shunt) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(r, shunt, file.toString());
        } catch (NoSuchFileException e) {
            throw new TraceException(file + ": no such file");
        } catch (java.nio.charset.MalformedInputException e) {
            throw new TraceException(file + ": not a text file");
        }
    }

    public static ScopeTrace parse(Reader reader, ShuntFormula shunt, String name) throws IOException {
        BufferedReader r = new BufferedReader(reader);
        List<double[]> rows = new ArrayList<>();
        boolean first = true;
        int lineNo = 0;
        for (String line; (line = r.readLine()) != null;) {
            lineNo++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            double[] row = parseRow(t);
            if (row == null) {
                if (first) {
                    first = false;
                    continue; // the header
                }
                throw new TraceException(name + ":" + lineNo + ": expected 'seconds,volts', got '" + abbreviate(t) + "'");
            }
            first = false;
            if (!rows.isEmpty() && row[0] <= rows.get(rows.size() - 1)[0]) {
                throw new TraceException(name + ":" + lineNo + ": time " + row[0] + " s does not increase");
            }
            if (row[1] >= shunt.supplyVolts()) {
                throw new TraceException(name + ":" + lineNo + ": dU " + row[1] + " V is not below the supply " + shunt.supplyVolts() + " V");
            }
            rows.add(row);
        }
        if (rows.size() < 2) {
            throw new TraceException(name + ": needs at least two samples, has " + rows.size());
        }
        double[] times = new double[rows.size()];
        double[] watts = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            times[i] = rows.get(i)[0];
            watts[i] = shunt.watts(rows.get(i)[1]);
        }
        return new ScopeTrace(times, watts);
    }

    /** The first two numbers of a line, or null when it is not a data line. */
    static double[] parseRow(String line) {
        String[] f = line.split("\\s*[,;\\t]\\s*|\\s+");
        if (f.length < 2) {
            return null;
        }
        try {
            double t = Double.parseDouble(f[0]);
            double v = Double.parseDouble(f[1]);
            return Double.isFinite(t) && Double.isFinite(v) ? new double[] {t, v} : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }

    public int samples() {
        return times.length;
    }

    /** The sample period in seconds: the trace's span over its number of intervals. */
    public double periodS() {
        return periodS;
    }

    /** The time the trace covers: its samples times the sample period. */
    public double durationS() {
        return times.length * periodS;
    }

    /** One entry per second of the trace: that second's mean power and the seconds its samples cover. */
    public record Second(int index, double meanWatts, double coveredS, int samples) {
    }

    public List<Second> perSecond() {
        List<Second> out = new ArrayList<>();
        double t0 = times[0];
        int i = 0;
        while (i < times.length) {
            int k = (int) Math.floor((times[i] - t0) + 1e-9);
            double sum = 0;
            int n = 0;
            while (i < times.length && (int) Math.floor((times[i] - t0) + 1e-9) == k) {
                sum += watts[i];
                n++;
                i++;
            }
            out.add(new Second(k, sum / n, n * periodS, n));
        }
        return out;
    }

    public double energyJoules() {
        double e = 0;
        for (Second s : perSecond()) {
            e += s.meanWatts() * s.coveredS();
        }
        return e;
    }

    public double meanWatts() {
        return energyJoules() / durationS();
    }
}
