package dev.modelplane.operator;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import io.fabric8.kubernetes.client.utils.Serialization;

/** InferenceServices and Models written as YAML, the way users write them. */
public final class TestObjects {
  private TestObjects() {
  }

  /** An InferenceService {@code svc} in namespace {@code ns} with the given spec body (YAML, indented 2). */
  public static InferenceService isvc(String spec) {
    return isvc("svc", spec);
  }

  public static InferenceService isvc(String name, String spec) {
    return Serialization.unmarshal("""
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata:
          name: %s
          namespace: ns
          generation: 1
        spec:
        %s""".formatted(name, indent(spec)), InferenceService.class);
  }

  /** A Model {@code m} in namespace {@code ns} with the given spec body. */
  public static Model model(String spec) {
    return model("m", spec);
  }

  public static Model model(String name, String spec) {
    return Serialization.unmarshal("""
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata:
          name: %s
          namespace: ns
          generation: 1
        spec:
        %s""".formatted(name, indent(spec)), Model.class);
  }

  private static String indent(String body) {
    return body.stripIndent().lines().map(l -> "  " + l).reduce("", (a, b) -> a + b + "\n");
  }
}
