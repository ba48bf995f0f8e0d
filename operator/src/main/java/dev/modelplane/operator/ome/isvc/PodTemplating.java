package dev.modelplane.operator.ome.isvc;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code {{ … }}} placeholders runtimes may write in their containers, resolved against the InferenceService's
 * metadata as OME's Go templates are: {@code {{.Name}}}, {@code {{.Namespace}}}, {@code {{.Labels.key}}},
 * {@code {{.Annotations.key}}} and {@code {{index .Labels "key"}}}. Anything else, or a label or annotation the
 * service does not have, is an error naming the placeholder, instead of text that would reach the model server.
 */
final class PodTemplating {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{-?\\s*(.*?)\\s*-?}}");
  private static final Pattern FIELD = Pattern.compile("\\.(Name|Namespace)");
  private static final Pattern MAP_DOT = Pattern.compile("\\.(Labels|Annotations)\\.([A-Za-z0-9_]+)");
  private static final Pattern MAP_INDEX = Pattern.compile("index\\s+\\.(Labels|Annotations)\\s+\"([^\"]+)\"");

  private PodTemplating() {
  }

  /** The pod spec with every container's placeholders resolved. */
  static PodSpec resolve(PodSpec pod, ObjectMeta meta) {
    String json = JSON.asJson(pod);
    if (!json.contains("{{")) {
      return pod;
    }
    Matcher m = PLACEHOLDER.matcher(json);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(jsonEscape(value(m.group(1), meta))));
    }
    m.appendTail(out);
    return JSON.unmarshal(out.toString(), PodSpec.class);
  }

  private static String value(String quoted, ObjectMeta meta) {
    String expression = quoted.replace("\\\"", "\"");
    Matcher field = FIELD.matcher(expression);
    if (field.matches()) {
      return field.group(1).equals("Name") ? meta.getName() : meta.getNamespace();
    }
    Matcher dot = MAP_DOT.matcher(expression);
    Matcher index = MAP_INDEX.matcher(expression);
    Matcher found = dot.matches() ? dot : index.matches() ? index : null;
    if (found == null) {
      throw new IllegalArgumentException("the runtime's placeholder {{ " + expression + " }} is not one of "
          + "{{.Name}}, {{.Namespace}}, {{.Labels.key}}, {{.Annotations.key}} or {{index .Labels \"key\"}}");
    }
    Map<String, String> map = found.group(1).equals("Labels") ? meta.getLabels() : meta.getAnnotations();
    String value = map == null ? null : map.get(found.group(2));
    if (value == null) {
      throw new IllegalArgumentException("the runtime's placeholder {{ " + expression + " }} needs the "
          + (found.group(1).equals("Labels") ? "label " : "annotation ") + found.group(2)
          + ", which the InferenceService does not have");
    }
    return value;
  }

  private static String jsonEscape(String value) {
    String quoted = JSON.asJson(value);
    return quoted.substring(1, quoted.length() - 1);
  }
}
