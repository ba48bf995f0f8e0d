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
 * Rewrites kwok's stages so that pods with a known model server, and job pods, are left to the pod runner: kwok's
 * own {@code pod-ready} stage skips both, its {@code pod-complete} stage (which ends Job-owned pods at once) skips
 * job pods, {@code modelplane-live-pod-start} starts model-server pods Running but not Ready, and
 * {@code modelplane-job-pod-start} gives job pods their IP and leaves them Pending for the runner.
 */
public final class LiveStages {
  static final String POD_READY = "pod-ready";
  static final String POD_COMPLETE = "pod-complete";
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
        String name = doc.path("metadata").path("name").asText();
        if (POD_READY.equals(name)) {
          exclude(doc, ServerKind.podSelectorJq());
          exclude(doc, JobPods.podSelectorJq());
          found = true;
        } else if (POD_COMPLETE.equals(name)) {
          exclude(doc, JobPods.podSelectorJq());
        }
      }
      if (!found) {
        throw new IllegalArgumentException("kwok's stages have no \"" + POD_READY + "\" stage to rewrite");
      }
      docs.add(YAML.readTree(stage("live-pod-start.yaml")));
      docs.add(YAML.readTree(stage("job-pod-start.yaml")));
      StringBuilder out = new StringBuilder();
      for (JsonNode doc : docs) {
        out.append("---\n").append(YAML.writeValueAsString(doc));
      }
      return out.toString();
    } catch (IOException e) {
      throw new UncheckedIOException("kwok stages", e);
    }
  }

  private static void exclude(JsonNode stage, String selector) {
    ArrayNode expressions = (ArrayNode) stage.path("spec").path("selector").path("matchExpressions");
    ObjectNode not = expressions.addObject().put("key", selector).put("operator", "NotIn");
    not.putArray("values").add("true");
  }

  private static String stage(String resource) throws IOException {
    try (InputStream in = LiveStages.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException(resource + " is missing from the distribution");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("__LIVE_SELECTOR__", ServerKind.podSelectorJq().replace("'", "''"))
          .replace("__JOB_SELECTOR__", JobPods.podSelectorJq().replace("'", "''"));
    }
  }
}
