package io.fpgamr.energy.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.energy.Mappers;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Instant queries through Prometheus's HTTP API ({@code /api/v1/query}). */
public final class PromClient {
    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public PromClient(URI base) {
        String s = base.toString();
        this.base = URI.create(s.endsWith("/") ? s : s + "/");
    }

    /** The outcome of one query: its result series (each {@code {"metric": {...}, "value": [t, "v"]}}), or the error Prometheus gave. */
    public record Result(String expr, String error, List<JsonNode> series) {
        public boolean ok() {
            return error == null;
        }

        public boolean empty() {
            return series == null || series.isEmpty();
        }
    }

    public Result query(String expr) throws IOException, InterruptedException {
        URI uri = base.resolve("api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        JsonNode m;
        try {
            m = Mappers.JSON.readTree(r.body());
        } catch (JsonProcessingException e) {
            throw new IOException(uri + " answered HTTP " + r.statusCode() + " with no JSON");
        }
        if (!"success".equals(m.path("status").asText())) {
            return new Result(expr, m.path("errorType").asText() + ": " + m.path("error").asText(), null);
        }
        JsonNode result = m.path("data").path("result");
        List<JsonNode> series = new ArrayList<>();
        if (result.isArray()) {
            result.forEach(series::add);
        } else {
            series.add(result); // a scalar or string result: a single value
        }
        return new Result(expr, null, series);
    }

    /** The first value of each series of a vector result, as numbers. */
    public static double[] values(Result r) {
        return r.series().stream().mapToDouble(s -> Double.parseDouble(s.path("value").path(1).asText())).toArray();
    }

    /** The label {@code name} of each series of a vector result. */
    public static List<String> label(Result r, String name) {
        return r.series().stream().map(s -> s.path("metric").path(name).asText(null)).toList();
    }
}
