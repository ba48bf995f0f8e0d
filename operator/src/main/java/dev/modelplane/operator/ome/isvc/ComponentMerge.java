package dev.modelplane.operator.ome.isvc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.ComponentExtensionSpec;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Merges an InferenceService component over its runtime's template, as OME does: the component exists only when the
 * InferenceService declares it; the InferenceService wins, by strategic merge ({@link StrategicMerge}); the runners
 * are merged with their args concatenated (the runtime's first), then the runner is folded into the pod's container
 * of the same name (again args concatenated), appended when no container has that name, or merged into the first
 * container when it has no name. Resources of the serving container come from the runtime's top-level container of
 * the same name where the InferenceService's runner set none; the node selector is the runtime's top-level one under
 * the component's.
 */
final class ComponentMerge {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final String RUNNER = "runner";

  private ComponentMerge() {
  }

  /**
   * One merged component.
   *
   * @param spec the merged component (deployment settings and pod fields; its runner folded into the pod)
   * @param pod the pod spec
   * @param mainContainer the name of the serving container
   * @param leader the leader's pod spec for multi-node serving, or null
   * @param worker the worker's pod spec for multi-node serving, or null
   * @param workerSize worker pods per replica
   */
  record Merged(ComponentExtensionSpec spec, PodSpec pod, String mainContainer, PodSpec leader, PodSpec worker,
      int workerSize) {
  }

  /**
   * The merge of {@code own} (the InferenceService's component) over {@code template} (the runtime's), or null when
   * the InferenceService does not declare the component.
   */
  static <T extends ComponentExtensionSpec> Merged merge(T own, T template, ServingRuntimeSpec runtime,
      Class<T> type) {
    if (own == null) {
      return null;
    }
    ObjectNode base = template == null ? JsonNodeFactory.instance.objectNode() : tree(template);
    ObjectNode patch = tree(own);
    JsonNode ownRunner = patch.remove(RUNNER);
    JsonNode runner = mergeContainers(base.remove(RUNNER), ownRunner);
    ObjectNode leader = pod(base.remove("leader"), patch.remove("leader"));
    ObjectNode worker = pod(base.remove("worker"), patch.remove("worker"));
    ObjectNode merged = (ObjectNode) StrategicMerge.merge(base, patch);
    boolean ownResources = ownRunner != null && ownRunner.hasNonNull("resources")
        && (ownRunner.get("resources").hasNonNull("limits") || ownRunner.get("resources").hasNonNull("requests"));
    ObjectNode unfolded = merged.deepCopy();
    String main = fold(merged, runner);
    T spec = JSON.convertValue(merged, type);
    PodSpec pod = PodSpecCopy.of(spec);
    applyRuntimeDefaults(pod, main, runtime, ownResources);
    PodSpec leaderPod = null;
    PodSpec workerPod = null;
    int workerSize = 0;
    String leaderMain = main;
    if (leader != null || worker != null) {
      // Leader and worker take the component's pod settings but their own runner (the component's when none).
      ObjectNode engineFields = tree(PodSpecCopy.of(JSON.convertValue(unfolded, PodSpec.class)));
      if (leader != null) {
        JsonNode leaderRunner = leader.remove(RUNNER);
        ObjectNode leaderTree = (ObjectNode) StrategicMerge.merge(engineFields, leader);
        leaderMain = fold(leaderTree, leaderRunner == null ? runner : leaderRunner);
        leaderPod = JSON.convertValue(leaderTree, PodSpec.class);
      } else {
        leaderPod = PodSpecCopy.of(pod);
      }
      if (worker != null) {
        JsonNode size = worker.remove("size");
        workerSize = size == null ? 0 : size.asInt();
        JsonNode workerRunner = worker.remove(RUNNER);
        ObjectNode workerTree = (ObjectNode) StrategicMerge.merge(engineFields, worker);
        fold(workerTree, workerRunner == null ? runner : workerRunner);
        workerPod = JSON.convertValue(workerTree, PodSpec.class);
      }
      applyRuntimeDefaults(leaderPod, leaderMain, runtime, ownResources);
      if (workerPod != null) {
        applyRuntimeDefaults(workerPod, main, runtime, ownResources);
      }
    }
    return new Merged(spec, pod, leaderPod == null ? main : leaderMain, leaderPod, workerPod, workerSize);
  }

  /** Two containers merged, the second winning, with their args concatenated (the first's first). */
  static JsonNode mergeContainers(JsonNode base, JsonNode own) {
    if (base == null || base.isNull()) {
      return own == null ? null : own.deepCopy();
    }
    if (own == null || own.isNull()) {
      return base.deepCopy();
    }
    ObjectNode merged = (ObjectNode) StrategicMerge.merge(base, own);
    ArrayNode args = JsonNodeFactory.instance.arrayNode();
    if (base.has("args")) {
      base.get("args").forEach(a -> args.add(a.deepCopy()));
    }
    if (own.has("args")) {
      own.get("args").forEach(a -> args.add(a.deepCopy()));
    }
    if (!args.isEmpty()) {
      merged.set("args", args);
    }
    if (!merged.hasNonNull("name") && base.hasNonNull("name")) {
      merged.set("name", base.get("name"));
    }
    return merged;
  }

  /** Folds {@code runner} into the pod tree's containers; returns the serving container's name. */
  private static String fold(ObjectNode pod, JsonNode runner) {
    ArrayNode containers = pod.has("containers") && pod.get("containers").isArray()
        ? (ArrayNode) pod.get("containers") : pod.putArray("containers");
    if (runner == null || runner.isNull()) {
      return containers.isEmpty() ? null : containers.get(0).path("name").asText(null);
    }
    String name = runner.path("name").asText(null);
    for (int i = 0; i < containers.size(); i++) {
      if (name == null ? i == 0 : name.equals(containers.get(i).path("name").asText(null))) {
        containers.set(i, mergeContainers(containers.get(i), runner));
        return containers.get(i).path("name").asText(null);
      }
    }
    ObjectNode added = runner.deepCopy();
    if (name == null) {
      added.put("name", PredictorConversion.MAIN_CONTAINER);
    }
    containers.add(added);
    return added.path("name").asText();
  }

  /** The runtime's top-level resources (where the service's runner set none) and node selector. */
  private static void applyRuntimeDefaults(PodSpec pod, String main, ServingRuntimeSpec runtime,
      boolean ownResources) {
    if (runtime == null) {
      return;
    }
    if (runtime.getNodeSelector() != null && !runtime.getNodeSelector().isEmpty()) {
      Map<String, String> selector = new LinkedHashMap<>(runtime.getNodeSelector());
      if (pod.getNodeSelector() != null) {
        selector.putAll(pod.getNodeSelector());
      }
      pod.setNodeSelector(selector);
    }
    Container serving = ModelWiring.mainContainer(pod, main);
    if (ownResources || serving == null || runtime.getContainers() == null) {
      return;
    }
    runtime.getContainers().stream().filter(c -> c.getName() != null && c.getName().equals(serving.getName()))
        .findFirst().ifPresent(top -> {
          if (top.getResources() == null) {
            return;
          }
          ResourceRequirements r = serving.getResources() == null ? new ResourceRequirements()
              : serving.getResources();
          r.setRequests(fill(r.getRequests(), top.getResources().getRequests()));
          r.setLimits(fill(r.getLimits(), top.getResources().getLimits()));
          serving.setResources(r);
        });
  }

  private static Map<String, Quantity> fill(Map<String, Quantity> own, Map<String, Quantity> defaults) {
    Map<String, Quantity> out = new LinkedHashMap<>(own == null ? Map.of() : own);
    if (defaults != null) {
      defaults.forEach(out::putIfAbsent);
    }
    return out.isEmpty() ? null : out;
  }

  private static ObjectNode pod(JsonNode base, JsonNode own) {
    JsonNode merged = StrategicMerge.merge(base, own);
    if (merged == null || !merged.isObject()) {
      return null;
    }
    ObjectNode out = (ObjectNode) merged;
    JsonNode runner = mergeContainers(base == null ? null : base.get(RUNNER), own == null ? null : own.get(RUNNER));
    if (runner != null) {
      out.set(RUNNER, runner);
    }
    return out;
  }

  private static ObjectNode tree(Object value) {
    return JSON.convertValue(value, ObjectNode.class);
  }
}
