package io.fpgamr.energy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** The one JSON (and YAML) library of this module, configured once: Jackson. */
public final class Mappers {
    /** JSON with snake_case names for records (energy.json, the progress spool, Prometheus's and Grafana's JSON). */
    public static final ObjectMapper JSON = JsonMapper.builder()
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .enable(SerializationFeature.INDENT_OUTPUT)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build();

    /** The energy configuration file. */
    public static final ObjectMapper YAML = new YAMLMapper();

    private Mappers() {
    }
}
