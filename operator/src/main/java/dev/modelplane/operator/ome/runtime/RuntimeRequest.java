package dev.modelplane.operator.ome.runtime;

import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.MultiNodeComponentSpec;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a runtime must serve.
 *
 * @param namespace the InferenceService's namespace
 * @param modelName the model's name, for messages
 * @param model the model's spec
 * @param acceleratorClasses the accelerator classes the service asks for; a runtime must support all of them
 * @param protocol the inference protocol the service asks for (its serving container's {@code PROTOCOL_VERSION},
 *     e.g. {@code openAI}), or null; a runtime that lists {@code protocolVersions} must list it
 */
public record RuntimeRequest(String namespace, String modelName, BaseModelSpec model, Set<String> acceleratorClasses,
    String protocol) {
  /** The annotation naming an InferenceService's accelerator class. */
  public static final String ACCELERATOR_ANNOTATION = "ome.io/accelerator-class";

  public RuntimeRequest {
    acceleratorClasses = acceleratorClasses == null ? Set.of() : Set.copyOf(acceleratorClasses);
    protocol = protocol == null || protocol.isBlank() ? null : protocol.strip();
  }

  /** A request that names no protocol. */
  public RuntimeRequest(String namespace, String modelName, BaseModelSpec model, Set<String> acceleratorClasses) {
    this(namespace, modelName, model, acceleratorClasses, null);
  }

  /**
   * The accelerator classes an InferenceService asks for: its {@code ome.io/accelerator-class} annotation,
   * {@code spec.acceleratorSelector.acceleratorClass}, and the engine's and decoder's
   * {@code acceleratorOverride.acceleratorClass}.
   */
  public static Set<String> acceleratorClasses(InferenceService isvc) {
    Set<String> classes = new TreeSet<>();
    Map<String, String> annotations = isvc.getMetadata().getAnnotations();
    add(classes, annotations == null ? null : annotations.get(ACCELERATOR_ANNOTATION));
    if (isvc.getSpec() != null) {
      if (isvc.getSpec().acceleratorSelector() != null) {
        add(classes, isvc.getSpec().acceleratorSelector().acceleratorClass());
      }
      override(classes, isvc.getSpec().engine());
      override(classes, isvc.getSpec().decoder());
    }
    return classes;
  }

  private static void override(Set<String> classes, MultiNodeComponentSpec component) {
    if (component != null && component.getAcceleratorOverride() != null) {
      add(classes, component.getAcceleratorOverride().acceleratorClass());
    }
  }

  private static void add(Set<String> classes, String value) {
    if (value != null && !value.isBlank()) {
      classes.add(value);
    }
  }
}
