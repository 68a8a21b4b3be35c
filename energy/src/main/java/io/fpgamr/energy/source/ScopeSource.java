package io.fpgamr.energy.source;

import io.fpgamr.energy.config.Setting;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A data logger writing a shunt trace live (the {@link ScopeTrace} format) into a file: each read
 * takes the complete lines appended since the previous read and gives the mean of their powers by
 * the {@link ShuntFormula}. A read with no new sample is a failed read (a gap), not a repeat of the
 * last value.
 */
public final class ScopeSource implements PowerSource {
    public static final SourceKind KIND = new SourceKind("scope", List.of(
        Setting.of("csv", "--scope-csv", Setting.PATH, "a shunt trace a data logger appends to (seconds, dU volts)")
            .requires("supply_volts", "shunt_ohms"),
        Setting.of("supply_volts", "--supply-volts", Setting.POSITIVE, "the shunt circuit's supply voltage Us"),
        Setting.of("shunt_ohms", "--shunt-ohms", Setting.POSITIVE, "the shunt's resistance R")),
        (o, timeoutMs) -> {
            if (!o.has("csv")) {
                throw new IOException("no live trace configured (--scope-csv FILE --supply-volts V --shunt-ohms R)");
            }
            return new ScopeSource(o.path("csv"), new ShuntFormula(o.number("supply_volts"), o.number("shunt_ohms")), false);
        });

    private final Path file;
    private final ShuntFormula shunt;
    private long offset;

    public ScopeSource(Path file, ShuntFormula shunt, boolean fromStart) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + ": no such file");
        }
        this.file = file;
        this.shunt = shunt;
        this.offset = fromStart ? 0 : Files.size(file);
    }

    @Override
    public String kind() {
        return KIND.name();
    }

    @Override
    public String describe() {
        return "shunt trace logged to " + file + " (Us " + shunt.supplyVolts() + " V, R " + shunt.shuntOhms() + " ohm)";
    }

    @Override
    public Coverage coverage() {
        return Coverage.NODE;
    }

    @Override
    public synchronized List<DomainPower> read(long nowMs) throws IOException {
        byte[] fresh;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long len = f.length();
            if (len < offset) {
                offset = 0; // the logger started a new file
            }
            fresh = new byte[(int) Math.min(len - offset, 16 * 1024 * 1024)];
            f.seek(offset);
            f.readFully(fresh);
        }
        int end = fresh.length;
        while (end > 0 && fresh[end - 1] != '\n') {
            end--;
        }
        offset += end;
        double sum = 0;
        int n = 0;
        for (String line : new String(fresh, 0, end, StandardCharsets.UTF_8).split("\n")) {
            double[] row = ScopeTrace.parseRow(line.strip());
            if (row != null) {
                sum += shunt.watts(row[1]);
                n++;
            }
        }
        if (n == 0) {
            throw new IOException("no new sample in " + file);
        }
        double mean = sum / n;
        if (mean < 0) {
            throw new IOException("negative mean power " + mean + " W from " + file + ": check the probe and --supply-volts");
        }
        return List.of(new DomainPower("shunt", mean));
    }
}
