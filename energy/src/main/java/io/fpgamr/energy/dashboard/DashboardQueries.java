package io.fpgamr.energy.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.energy.Mappers;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

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
            return of(Mappers.JSON.readTree(in));
        }
    }

    public static List<Query> of(String dashboardJson) throws IOException {
        return of(Mappers.JSON.readTree(dashboardJson));
    }

    private static List<Query> of(JsonNode dashboard) {
        List<Query> out = new ArrayList<>();
        collect(dashboard, "", out);
        return out;
    }

    private static void collect(JsonNode node, String panel, List<Query> out) {
        if (node.isObject()) {
            String title = node.path("title").isTextual() && node.has("targets") ? node.get("title").asText() : panel;
            String expr = node.path("expr").asText("");
            if (!expr.isBlank()) {
                out.add(new Query(panel, node.path("refId").asText(""), expr));
            }
            node.elements().forEachRemaining(v -> collect(v, title, out));
        } else if (node.isArray()) {
            node.forEach(v -> collect(v, panel, out));
        }
    }
}
