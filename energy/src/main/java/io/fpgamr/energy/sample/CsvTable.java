package io.fpgamr.energy.sample;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A CSV file of records of one type through Jackson's CSV module: a header naming the columns (the
 * records' components in snake_case), fields quoted only where they must be, an empty field read
 * as null. Reading checks the header, and a bad row is an error naming the file and the line.
 */
public final class CsvTable<T> {
    private static final CsvMapper MAPPER = CsvMapper.builder()
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
        .enable(CsvParser.Feature.EMPTY_STRING_AS_NULL)
        .visibility(PropertyAccessor.IS_GETTER, JsonAutoDetect.Visibility.NONE) // isGap(), isMap(): no columns
        .build();

    private final Class<T> type;
    private final CsvSchema schema;
    private final String header;

    public CsvTable(Class<T> type, String... columns) {
        this.type = type;
        CsvSchema.Builder b = CsvSchema.builder().setUseHeader(true).setStrictHeaders(true);
        for (String c : columns) {
            b.addColumn(c);
        }
        this.schema = b.build();
        this.header = String.join(",", columns);
    }

    /** The header line, without its line end. */
    public String header() {
        return header;
    }

    /** One record as a line under the header, without its line end. */
    public String row(T value) {
        try {
            return MAPPER.writer(schema.withoutHeader()).writeValueAsString(value).stripTrailing();
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }

    /** The record of one line under the header; an IllegalArgumentException says what is wrong with it. */
    public T parseRow(String line) {
        try {
            return MAPPER.readerFor(type).with(schema.withoutHeader()).readValue(line);
        } catch (JsonProcessingException e) {
            Throwable cause = e.getCause() instanceof IllegalArgumentException ? e.getCause() : e;
            String m = cause == e ? e.getOriginalMessage() : cause.getMessage();
            throw new IllegalArgumentException(m.lines().findFirst().orElse(""), e);
        }
    }

    public void write(Writer w, List<T> rows) throws IOException {
        MAPPER.writer(schema).writeValue(w, rows);
    }

    public void write(Path file, List<T> rows) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(w, rows);
        }
    }

    /** The rows of {@code reader}; {@code name} (a file, a URL) names it in errors. */
    public List<T> read(Reader reader, String name) throws IOException {
        try (MappingIterator<T> it = MAPPER.readerFor(type).with(schema).readValues(reader)) {
            return it.readAll();
        } catch (JsonProcessingException e) {
            String line = e.getLocation() == null ? "" : ":" + e.getLocation().getLineNr();
            throw new IOException(name + line + ": " + e.getOriginalMessage().lines().findFirst().orElse(""), e);
        }
    }

    public List<T> read(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(r, file.toString());
        }
    }
}
