package dev.modelplane.cli.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.simulator.physics.Gpu;
import java.util.Optional;

/**
 * The GPU a pod template asks for through the NVIDIA device plugin's node label {@value #LABEL}: in its node selector
 * or a required node-affinity term.
 */
final class GpuNodes {
  /** The label the NVIDIA GPU feature discovery sets on every GPU node. */
  static final String LABEL = "nvidia.com/gpu.product";

  private GpuNodes() {
  }

  /** The label value for {@code gpu}, as the device plugin writes it: the product name with '-' for spaces. */
  static String labelValue(Gpu gpu) {
    return gpu.product().replace(' ', '-');
  }

  /** The product {@code pod} (an object with nodeSelector/affinity) selects, if any. */
  static Optional<String> product(JsonNode pod) {
    if (pod == null) {
      return Optional.empty();
    }
    String selected = pod.path("nodeSelector").path(LABEL).asText("");
    if (!selected.isEmpty()) {
      return Optional.of(selected);
    }
    for (JsonNode term : requiredTerms(pod)) {
      for (JsonNode e : term.path("matchExpressions")) {
        if (LABEL.equals(e.path("key").asText()) && "In".equals(e.path("operator").asText())
            && e.path("values").size() > 0) {
          return Optional.of(e.path("values").get(0).asText());
        }
      }
    }
    return Optional.empty();
  }

  private static JsonNode requiredTerms(JsonNode pod) {
    return pod.path("affinity").path("nodeAffinity").path("requiredDuringSchedulingIgnoredDuringExecution")
        .path("nodeSelectorTerms");
  }

  /** The short name of the GPU {@code pod} selects, or null when it selects none the GPU table knows. */
  static String gpuName(JsonNode pod) {
    return product(pod).map(Gpu::byProduct).map(Gpu::name).orElse(null);
  }

  /**
   * Points a selection of one GPU product at {@code gpu} ({@link #select}) where {@code pod} makes one; true when it
   * did. Nothing is added where it selects no product.
   */
  static boolean reselect(ObjectNode pod, Gpu gpu) {
    if (product(pod).isEmpty()) {
      return false;
    }
    select(pod, gpu);
    return true;
  }

  /**
   * Makes {@code pod} run on {@code gpu} nodes: the node selector's label, and every required affinity expression on
   * the label narrowed to that product (an expression on another product would leave no node to run on).
   */
  static void select(ObjectNode pod, Gpu gpu) {
    String value = labelValue(gpu);
    ObjectNode selector = pod.has("nodeSelector") && pod.get("nodeSelector").isObject()
        ? (ObjectNode) pod.get("nodeSelector") : pod.putObject("nodeSelector");
    selector.put(LABEL, value);
    for (JsonNode term : requiredTerms(pod)) {
      for (JsonNode e : term.path("matchExpressions")) {
        if (LABEL.equals(e.path("key").asText()) && e instanceof ObjectNode expression) {
          expression.put("operator", "In");
          ArrayNode values = expression.putArray("values");
          values.add(value);
        }
      }
    }
  }
}
