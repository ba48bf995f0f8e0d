package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/** {@code -o}: a table (the default), a wide table, or the objects as YAML or JSON. */
enum OutputFormat {
  TABLE, WIDE, YAML, JSON;

  static final ObjectMapper JSON_MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  static final ObjectMapper YAML_MAPPER = new ObjectMapper(new YAMLFactory()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

  /** Parses {@code -o} (picocli converter): yaml, json or wide. */
  static OutputFormat parse(String value) {
    return switch (value.toLowerCase(java.util.Locale.ROOT)) {
      case "yaml" -> YAML;
      case "json" -> JSON;
      case "wide" -> WIDE;
      default -> throw new picocli.CommandLine.TypeConversionException("-o must be yaml, json or wide, not '"
          + value + "'");
    };
  }

  /** Prints objects as one YAML stream or one JSON list (a single object alone). */
  static void print(OutputFormat format, List<JsonNode> objects, PrintWriter out) throws IOException {
    if (format == JSON) {
      Object value = objects.size() == 1 ? objects.get(0)
          : JSON_MAPPER.createObjectNode().put("apiVersion", "v1").put("kind", "List")
              .set("items", JSON_MAPPER.valueToTree(objects));
      out.println(JSON_MAPPER.writeValueAsString(value));
    } else {
      for (JsonNode o : objects) {
        out.print("---\n" + YAML_MAPPER.writeValueAsString(o));
      }
    }
    out.flush();
  }
}
