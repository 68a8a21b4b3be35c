package io.fpgamr.energy.sample;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The raw samples as CSV, one row per {@link Sample}: a job's {@code samples.csv} and the node
 * exporter's {@code /samples} answer. Gap rows keep an empty watts column and their reason.
 */
public final class SampleLog {
    public static final String HEADER = "start_ms,end_ms,node,node_type,source,domain,watts,measured,primary,gap";

    private SampleLog() {
    }

    public static void write(Path file, List<Sample> samples) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(w, samples);
        }
    }

    public static void write(Writer w, List<Sample> samples) throws IOException {
        w.write(HEADER);
        w.write('\n');
        for (Sample s : samples) {
            w.write(Long.toString(s.startMs()));
            w.write(',');
            w.write(Long.toString(s.endMs()));
            w.write(',');
            w.write(Csv.quote(s.node()));
            w.write(',');
            w.write(Csv.quote(s.nodeType()));
            w.write(',');
            w.write(Csv.quote(s.source()));
            w.write(',');
            w.write(Csv.quote(s.domain()));
            w.write(',');
            w.write(s.isGap() ? "" : Double.toString(s.watts()));
            w.write(',');
            w.write(Boolean.toString(s.measured()));
            w.write(',');
            w.write(Boolean.toString(s.primary()));
            w.write(',');
            w.write(s.isGap() ? Csv.quote(s.gap()) : "");
            w.write('\n');
        }
    }

    public static List<Sample> read(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(r, file.toString());
        }
    }

    public static List<Sample> read(Reader reader, String name) throws IOException {
        BufferedReader r = new BufferedReader(reader);
        String header = r.readLine();
        if (header == null || !header.strip().equals(HEADER)) {
            throw new IOException(name + ": not a samples file (expected the header " + HEADER + ")");
        }
        List<Sample> out = new ArrayList<>();
        int lineNo = 1;
        for (String line; (line = r.readLine()) != null;) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            List<String> f = Csv.split(line);
            if (f.size() != 10) {
                throw new IOException(name + ":" + lineNo + ": expected 10 fields, got " + f.size());
            }
            try {
                long start = Long.parseLong(f.get(0));
                long end = Long.parseLong(f.get(1));
                boolean measured = Boolean.parseBoolean(f.get(7));
                boolean primary = Boolean.parseBoolean(f.get(8));
                if (!f.get(9).isEmpty()) {
                    out.add(Sample.gap(f.get(2), f.get(3), f.get(4), start, end, measured, primary, f.get(9)));
                } else {
                    out.add(Sample.ok(f.get(2), f.get(3), f.get(4), f.get(5), start, end, Double.parseDouble(f.get(6)), measured, primary));
                }
            } catch (NumberFormatException e) {
                throw new IOException(name + ":" + lineNo + ": bad number: " + e.getMessage(), e);
            }
        }
        return out;
    }
}
