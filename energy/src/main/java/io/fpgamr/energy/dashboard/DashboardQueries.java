package io.fpgamr.energy.dashboard;

import io.fpgamr.energy.report.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The PromQL expressions of a Grafana dashboard: every target's {@code expr}, with its panel's title. */
public final class DashboardQueries {
    /** The dashboard shipped in energy/grafana, also packed into the jar. */
    public static final String BUNDLED = "/io/fpgamr/energy/grafana/fpgamr-energy.json";

    private DashboardQueries() {
    }

    public record Query(String panel, String refId, String expr) {
    }

    public static List<Query> bundled() throws IOException {
        try (InputStream in = DashboardQueries.class.getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IOException("the dashboard is not on the class path (" + BUNDLED + ")");
            }
            return of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    public static List<Query> of(String dashboardJson) {
        Object root = Json.parse(dashboardJson);
        List<Query> out = new ArrayList<>();
        collect(root, "", out);
        return out;
    }

    private static void collect(Object node, String panel, List<Query> out) {
        if (node instanceof Map<?, ?> m) {
            String title = m.get("title") instanceof String t && m.containsKey("targets") ? t : panel;
            Object expr = m.get("expr");
            if (expr instanceof String e && !e.isBlank()) {
                Object ref = m.get("refId");
                out.add(new Query(panel, ref == null ? "" : ref.toString(), e));
            }
            for (Object v : m.values()) {
                collect(v, title, out);
            }
        } else if (node instanceof List<?> l) {
            for (Object v : l) {
                collect(v, panel, out);
            }
        }
    }
}
