package dev.modelplane.operator.ome.isvc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.DecoderSpec;
import dev.modelplane.api.ome.v1beta1.EngineSpec;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;

/**
 * A runtime's template of the engine and the decoder with the runtime's top-level pod fields under it: volumes,
 * affinity, tolerations, labels, annotations, imagePullSecrets, schedulerName, hostIPC, dnsPolicy and hostNetwork
 * apply to both model-serving components unless their own config sets them (strategic merge, the config winning),
 * and the legacy {@code workers} becomes the engine's worker when {@code engineConfig} has none. OME applies only the
 * top-level node selector and container resources (see {@link ComponentMerge}) and drops the rest; the router, which
 * serves no model, gets none of them.
 */
final class RuntimeTemplates {
  /** The top-level pod fields that reach the engine and decoder. */
  static final List<String> POD_FIELDS = List.of("volumes", "affinity", "tolerations", "labels", "annotations",
      "imagePullSecrets", "schedulerName", "hostIPC", "dnsPolicy", "hostNetwork");
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private RuntimeTemplates() {
  }

  /** The engine's template, or null when the runtime gives nothing for it. */
  static EngineSpec engine(ServingRuntimeSpec runtime) {
    ObjectNode tree = withPodFields(runtime, runtime.getEngineConfig());
    if (runtime.getWorkers() != null && !tree.has("worker")) {
      tree.set("worker", JSON.convertValue(runtime.getWorkers(), ObjectNode.class));
    }
    return tree.isEmpty() ? null : JSON.convertValue(tree, EngineSpec.class);
  }

  /** The decoder's template, or null when the runtime gives nothing for it. */
  static DecoderSpec decoder(ServingRuntimeSpec runtime) {
    ObjectNode tree = withPodFields(runtime, runtime.getDecoderConfig());
    return tree.isEmpty() ? null : JSON.convertValue(tree, DecoderSpec.class);
  }

  /** The runtime's top-level pod fields alone, as a tree. */
  static ObjectNode podFields(ServingRuntimeSpec runtime) {
    ObjectNode all = JSON.convertValue(runtime, ObjectNode.class);
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    for (String field : POD_FIELDS) {
      JsonNode value = all.get(field);
      if (value != null && !value.isNull()) {
        out.set(field, value);
      }
    }
    return out;
  }

  private static ObjectNode withPodFields(ServingRuntimeSpec runtime, Object config) {
    ObjectNode top = podFields(runtime);
    if (config == null) {
      return top;
    }
    JsonNode merged = StrategicMerge.merge(top, JSON.convertValue(config, ObjectNode.class));
    return merged instanceof ObjectNode o ? o : top;
  }
}
