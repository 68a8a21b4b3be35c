package io.fpgamr.energy.dashboard;

import io.fpgamr.energy.report.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Instant queries through Prometheus's HTTP API ({@code /api/v1/query}). */
public final class PromClient {
    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public PromClient(URI base) {
        String s = base.toString();
        this.base = URI.create(s.endsWith("/") ? s : s + "/");
    }

    /** The outcome of one query: its result series, or the error Prometheus gave. */
    public record Result(String expr, String error, List<Object> series) {
        public boolean ok() {
            return error == null;
        }

        public boolean empty() {
            return series == null || series.isEmpty();
        }
    }

    @SuppressWarnings("unchecked")
    public Result query(String expr) throws IOException, InterruptedException {
        URI uri = base.resolve("api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        Object parsed;
        try {
            parsed = Json.parse(r.body());
        } catch (IllegalArgumentException e) {
            throw new IOException(uri + " answered HTTP " + r.statusCode() + " with no JSON");
        }
        Map<String, Object> m = (Map<String, Object>) parsed;
        if (!"success".equals(m.get("status"))) {
            return new Result(expr, m.get("errorType") + ": " + m.get("error"), null);
        }
        Map<String, Object> data = (Map<String, Object>) m.get("data");
        Object result = data.get("result");
        if (result instanceof List<?> l) {
            return new Result(expr, null, (List<Object>) l);
        }
        // scalar or string results: a single value
        return new Result(expr, null, List.of(result));
    }

    /** The first value of each series of a vector result, as numbers. */
    @SuppressWarnings("unchecked")
    public static double[] values(Result r) {
        double[] out = new double[r.series().size()];
        for (int i = 0; i < out.length; i++) {
            Map<String, Object> s = (Map<String, Object>) r.series().get(i);
            List<Object> v = (List<Object>) s.get("value");
            out[i] = Double.parseDouble(v.get(1).toString());
        }
        return out;
    }
}
