package dev.modelplane.cli.devcluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites kwok's stages so that pods with a known model server are left to the pod runner: kwok's own
 * {@code pod-ready} stage skips them, and {@code modelplane-live-pod-start} starts them Running but not Ready.
 */
public final class LiveStages {
  static final String POD_READY = "pod-ready";
  private static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory()
      .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE).disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

  private LiveStages() {
  }

  /** {@code stages} (kwok's default stage documents) with live pods taken out of kwok's readiness. */
  public static String rewrite(String stages) {
    try {
      List<JsonNode> docs = new ArrayList<>();
      try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(stages)) {
        while (it.hasNext()) {
          JsonNode doc = it.next();
          if (doc != null && !doc.isMissingNode() && !doc.isNull()) {
            docs.add(doc);
          }
        }
      }
      boolean found = false;
      for (JsonNode doc : docs) {
        if (POD_READY.equals(doc.path("metadata").path("name").asText())) {
          ArrayNode expressions = (ArrayNode) doc.path("spec").path("selector").path("matchExpressions");
          ObjectNode notLive = expressions.addObject().put("key", ServerKind.podSelectorJq()).put("operator", "NotIn");
          notLive.putArray("values").add("true");
          found = true;
        }
      }
      if (!found) {
        throw new IllegalArgumentException("kwok's stages have no \"" + POD_READY + "\" stage to rewrite");
      }
      docs.add(YAML.readTree(liveStart()));
      StringBuilder out = new StringBuilder();
      for (JsonNode doc : docs) {
        out.append("---\n").append(YAML.writeValueAsString(doc));
      }
      return out.toString();
    } catch (IOException e) {
      throw new UncheckedIOException("kwok stages", e);
    }
  }

  private static String liveStart() throws IOException {
    try (InputStream in = LiveStages.class.getResourceAsStream("live-pod-start.yaml")) {
      if (in == null) {
        throw new IOException("live-pod-start.yaml is missing from the distribution");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("__LIVE_SELECTOR__", ServerKind.podSelectorJq().replace("'", "''"));
    }
  }
}
