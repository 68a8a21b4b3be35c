package io.fpgamr.energy.exporter;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.fpgamr.energy.sample.Sample;
import io.fpgamr.energy.sample.Sampler;
import io.fpgamr.energy.source.Discovery;
import io.fpgamr.energy.source.PowerSource;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The exporter's pages beside {@code /metrics}: {@code /samples?from=MS&to=MS}, the raw samples as
 * CSV (the launcher fetches a job's window from each node of a real cluster), and {@code /}, what
 * the node measures.
 */
final class ExporterPages implements HttpHandler {
    private final String node;
    private final String nodeType;
    private final Discovery.Result sources;
    private final Sampler sampler;

    ExporterPages(String node, String nodeType, Discovery.Result sources, Sampler sampler) {
        this.node = node;
        this.nodeType = nodeType;
        this.sources = sources;
        this.sampler = sampler;
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            if (path.equals("/samples")) {
                Map<String, String> q = query(ex.getRequestURI().getRawQuery());
                long now = System.currentTimeMillis();
                long from;
                long to;
                try {
                    from = q.containsKey("from") ? Long.parseLong(q.get("from")) : now - 600_000;
                    to = q.containsKey("to") ? Long.parseLong(q.get("to")) : now;
                } catch (NumberFormatException e) {
                    send(ex, 400, "text/plain", "from and to must be epoch milliseconds\n");
                    return;
                }
                StringWriter w = new StringWriter();
                Sample.CSV.write(w, sampler.rows(from, to));
                send(ex, 200, "text/csv; charset=utf-8", w.toString());
            } else if (path.equals("/")) {
                StringBuilder sb = new StringBuilder("fpgamr energy exporter on ").append(node).append(" (").append(nodeType)
                    .append(")\n/metrics: Prometheus metrics\n/samples?from=MS&to=MS: raw samples (CSV)\n\n");
                if (sources.none()) {
                    sb.append("no power source\n");
                }
                for (PowerSource s : sources.found()) {
                    sb.append("source ").append(s.kind()).append(": ").append(s.describe()).append('\n');
                }
                send(ex, 200, "text/plain; charset=utf-8", sb.toString());
            } else {
                send(ex, 404, "text/plain", "not found\n");
            }
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    q.put(kv.substring(0, eq), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return q;
    }

    /** Answers with {@code body}, whole (the loopback ResourceManager of the tests answers through it too). */
    static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }
}
