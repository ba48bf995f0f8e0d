package dev.modelplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Whether the operator's objects for a {@link ChaosFleet} are what they would be without faults: every object
 * {@code modelplane render} makes exists once, with the fields the operator owns hashing the same as the rendered
 * ones, owned by its live primary; nothing else carries an owner reference to the fleet's kinds (no duplicates, no
 * orphans); every Deployment is rolled out; every primary's status reached its phase.
 */
final class ChaosCheck {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> PRIMARY_GROUPS = Set.of("inference.llmkube.dev", "ome.io", "model.otterscale.io");
  /** Kinds the operator creates that render may not list for this fleet, scanned for strays all the same. */
  private static final List<String[]> ALWAYS_SCANNED = List.of(new String[] {"apps/v1", "Deployment"},
      new String[] {"v1", "Service"}, new String[] {"autoscaling/v2", "HorizontalPodAutoscaler"},
      new String[] {"policy/v1", "PodDisruptionBudget"}, new String[] {"batch/v1", "Job"},
      new String[] {"v1", "PersistentVolumeClaim"});

  private ChaosCheck() {
  }

  /**
   * What one check found.
   *
   * @param expected objects render makes (of kinds the apiserver serves)
   * @param missing expected objects that do not exist
   * @param differing objects whose owned fields hash differently from the rendered ones
   * @param unowned namespaced objects without a controller reference to a live primary
   * @param strays objects owned by the fleet's kinds (or orphaned) that render does not make: duplicates, leftovers
   * @param notRolledOut Deployments whose pods are not all updated and ready
   * @param phases primaries whose status did not reach the expected phase
   * @param pods serving pods not terminating
   * @param expectedPods pods the Deployments ask for
   */
  record Report(int expected, List<String> missing, List<String> differing, List<String> unowned,
      List<String> strays, List<String> notRolledOut, List<String> phases, int pods, int expectedPods) {
    boolean converged() {
      return missing.isEmpty() && differing.isEmpty() && unowned.isEmpty() && strays.isEmpty()
          && notRolledOut.isEmpty() && phases.isEmpty() && pods == expectedPods;
    }

    String brief() {
      return "expected=" + expected + " missing=" + missing.size() + " differing=" + differing.size() + " unowned="
          + unowned.size() + " strays=" + strays.size() + " notRolledOut=" + notRolledOut.size() + " phases="
          + phases.size() + " pods=" + pods + "/" + expectedPods;
    }

    /** The brief line and the first few problems of each kind. */
    String details() {
      return brief() + "\n missing " + first(missing) + "\n differing " + first(differing) + "\n unowned "
          + first(unowned) + "\n strays " + first(strays) + "\n notRolledOut " + first(notRolledOut)
          + "\n phases " + first(phases);
    }

    private static List<String> first(List<String> l) {
      return l.subList(0, Math.min(5, l.size()));
    }
  }

  /**
   * Events the operator wrote in the fleet's namespace.
   *
   * @param total number of Events
   * @param maxPerObjectAndReason the most Events one object got for one reason
   * @param worst that object and reason
   */
  record Events(int total, int maxPerObjectAndReason, String worst) {
  }

  static Report check(KubernetesClient client, ChaosFleet fleet, List<HasMetadata> rendered) {
    String ns = fleet.namespace();
    Map<String, String> primaries = new LinkedHashMap<>();
    List<String> phases = new ArrayList<>();
    for (String[] kind : List.of(new String[] {"inference.llmkube.dev/v1alpha1", "Model"},
        new String[] {"inference.llmkube.dev/v1alpha1", "InferenceService"},
        new String[] {"ome.io/v1beta1", "InferenceService"}, new String[] {"ome.io/v1beta1", "BaseModel"},
        new String[] {"model.otterscale.io/v1alpha1", "ModelService"})) {
      for (GenericKubernetesResource p : client.genericKubernetesResources(kind[0], kind[1]).inNamespace(ns).list()
          .getItems()) {
        primaries.put(p.getMetadata().getUid(), kind[1] + "/" + p.getMetadata().getName());
        phase(p, phases);
      }
    }
    GenericKubernetesResource cbm = client.genericKubernetesResources("ome.io/v1beta1", "ClusterBaseModel")
        .withName(fleet.clusterModel()).get();
    if (cbm == null) {
      phases.add("ClusterBaseModel " + fleet.clusterModel() + " missing");
    } else {
      phase(cbm, phases);
    }
    int expectedPrimaries = fleet.services() + 2;
    if (primaries.size() != expectedPrimaries) {
      phases.add("primaries: " + primaries.size() + " of " + expectedPrimaries);
    }

    Map<String, HasMetadata> wanted = new LinkedHashMap<>();
    Map<String, String[]> kinds = new LinkedHashMap<>();
    for (String[] k : ALWAYS_SCANNED) {
      kinds.put(k[0] + " " + k[1], k);
    }
    for (HasMetadata object : rendered) {
      if (client.getApiResources(object.getApiVersion()) == null) {
        continue; // an optional kind whose CRD is not installed; the operator names it in a condition
      }
      wanted.put(key(object.getKind(), object.getMetadata().getNamespace(), object.getMetadata().getName()), object);
      if (object.getMetadata().getNamespace() != null) {
        kinds.put(object.getApiVersion() + " " + object.getKind(), new String[] {object.getApiVersion(),
            object.getKind()});
      }
    }
    List<String> missing = new ArrayList<>();
    List<String> differing = new ArrayList<>();
    List<String> unowned = new ArrayList<>();
    List<String> strays = new ArrayList<>();
    List<String> notRolledOut = new ArrayList<>();
    Map<String, GenericKubernetesResource> live = new LinkedHashMap<>();
    for (String[] k : kinds.values()) {
      for (GenericKubernetesResource o : client.genericKubernetesResources(k[0], k[1]).inNamespace(ns).list()
          .getItems()) {
        live.put(key(k[1], ns, o.getMetadata().getName()), o);
      }
    }
    for (HasMetadata object : wanted.values()) {
      String key = key(object.getKind(), object.getMetadata().getNamespace(), object.getMetadata().getName());
      GenericKubernetesResource found = object.getMetadata().getNamespace() != null ? live.get(key)
          : client.genericKubernetesResources(object.getApiVersion(), object.getKind())
              .withName(object.getMetadata().getName()).get();
      if (found == null) {
        missing.add(key);
        continue;
      }
      JsonNode want = owned(JSON.valueToTree(object));
      JsonNode have = project(want, JSON.valueToTree(found));
      if (!hash(want).equals(hash(have))) {
        differing.add(key + " rendered=" + hash(want).substring(0, 12) + " live=" + hash(have).substring(0, 12));
      }
      if (object.getMetadata().getNamespace() != null && found.getMetadata().getOwnerReferences().stream()
          .noneMatch(r -> Boolean.TRUE.equals(r.getController()) && primaries.containsKey(r.getUid()))) {
        unowned.add(key + " owners=" + found.getMetadata().getOwnerReferences().stream().map(r -> r.getKind() + "/"
            + r.getName() + (Boolean.TRUE.equals(r.getController()) ? "" : "(not controller)")
            + (primaries.containsKey(r.getUid()) ? "" : "(gone)")).toList());
      }
      if ("Deployment".equals(object.getKind())) {
        rollout(found, notRolledOut, key);
      }
    }
    for (Map.Entry<String, GenericKubernetesResource> e : live.entrySet()) {
      if (wanted.containsKey(e.getKey())) {
        continue;
      }
      List<OwnerReference> refs = e.getValue().getMetadata().getOwnerReferences();
      boolean ours = refs.stream().anyMatch(r -> PRIMARY_GROUPS.contains(group(r.getApiVersion())))
          || "modelplane".equals(e.getValue().getMetadata().getLabels() == null ? null
              : e.getValue().getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
      if (ours) {
        strays.add(e.getKey() + " owners=" + refs.stream().map(r -> r.getKind() + "/" + r.getName()
            + (primaries.containsKey(r.getUid()) ? "" : "(gone)")).toList());
      }
    }
    int expectedPods = fleet.pods();
    List<Pod> pods = client.pods().inNamespace(ns).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    return new Report(wanted.size(), missing, differing, unowned, strays, notRolledOut, phases, pods.size(),
        expectedPods);
  }

  /** The operator's Events in the fleet's namespace, per involved object and reason. */
  static Events events(KubernetesClient client, String namespace) {
    Map<String, Integer> counts = new TreeMap<>();
    int total = 0;
    for (Event e : client.v1().events().inNamespace(namespace).list().getItems()) {
      if (e.getSource() == null || !"modelplane-operator".equals(e.getSource().getComponent())) {
        continue;
      }
      int n = e.getCount() == null ? 1 : e.getCount();
      total += n;
      counts.merge(e.getInvolvedObject().getKind() + "/" + e.getInvolvedObject().getName() + " " + e.getReason(), n,
          Integer::sum);
    }
    Map.Entry<String, Integer> worst = counts.entrySet().stream().max(Comparator.comparingInt(Map.Entry::getValue))
        .orElse(Map.entry("-", 0));
    return new Events(total, worst.getValue(), worst.getKey());
  }

  private static void phase(GenericKubernetesResource p, List<String> out) {
    String who = p.getKind() + "/" + p.getMetadata().getName();
    JsonNode status = JSON.valueToTree(p).path("status");
    boolean ok = switch (p.getApiVersion().substring(0, p.getApiVersion().indexOf('/')) + " " + p.getKind()) {
      case "inference.llmkube.dev Model", "inference.llmkube.dev InferenceService", "model.otterscale.io ModelService"
          -> "Ready".equals(status.path("phase").asText());
      case "ome.io InferenceService" -> readyCondition(status);
      // No model agent runs here: the base models stay In_Transit, but their status must be written.
      default -> !status.path("state").asText().isEmpty();
    };
    if (!ok) {
      out.add(who + " status=" + status);
    }
  }

  private static boolean readyCondition(JsonNode status) {
    for (JsonNode c : status.path("conditions")) {
      if ("Ready".equals(c.path("type").asText())) {
        return "True".equals(c.path("status").asText());
      }
    }
    return false;
  }

  private static void rollout(GenericKubernetesResource d, List<String> out, String key) {
    JsonNode json = JSON.valueToTree(d);
    int replicas = json.path("spec").path("replicas").asInt(1);
    JsonNode status = json.path("status");
    boolean done = status.path("observedGeneration").asLong(-1) == d.getMetadata().getGeneration()
        && status.path("updatedReplicas").asInt(0) == replicas && status.path("readyReplicas").asInt(0) == replicas
        && status.path("replicas").asInt(0) == replicas;
    if (!done) {
      out.add(key + " status=" + status);
    }
  }

  /** The fields the operator writes: everything but the status and the metadata the API server keeps. */
  private static JsonNode owned(JsonNode object) {
    ObjectNode copy = ((ObjectNode) object).deepCopy();
    copy.remove("status");
    ObjectNode meta = JsonNodeFactory.instance.objectNode();
    JsonNode m = object.path("metadata");
    for (String f : List.of("name", "namespace", "labels", "annotations")) {
      if (m.has(f) && !m.get(f).isNull()) {
        meta.set(f, m.get(f));
      }
    }
    copy.set("metadata", meta);
    return normalise(copy);
  }

  /** {@code live} cut down to the shape of {@code want}: what hashes the same when the operator's fields agree. */
  private static JsonNode project(JsonNode want, JsonNode live) {
    if (want.isObject()) {
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = want.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode l = live == null ? null : live.get(e.getKey());
        out.set(e.getKey(), l == null || l.isNull() ? JsonNodeFactory.instance.textNode("<absent>")
            : project(e.getValue(), l));
      }
      return out;
    }
    if (want.isArray() && live.isArray() && want.size() == live.size()) {
      var out = JsonNodeFactory.instance.arrayNode();
      for (int i = 0; i < want.size(); i++) {
        out.add(project(want.get(i), live.get(i)));
      }
      return out;
    }
    return normalise(live);
  }

  /** Drops nulls and writes numbers in one form (an int and a float of one value hash the same). */
  private static JsonNode normalise(JsonNode node) {
    if (node.isObject()) {
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      node.fields().forEachRemaining(e -> {
        if (!e.getValue().isNull()) {
          out.set(e.getKey(), normalise(e.getValue()));
        }
      });
      return out;
    }
    if (node.isArray()) {
      var out = JsonNodeFactory.instance.arrayNode();
      node.forEach(n -> out.add(normalise(n)));
      return out;
    }
    if (node.isNumber()) {
      return JsonNodeFactory.instance.textNode("#" + node.decimalValue().stripTrailingZeros().toPlainString());
    }
    return node;
  }

  private static String hash(JsonNode node) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(node.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String group(String apiVersion) {
    int slash = Objects.requireNonNullElse(apiVersion, "").indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  private static String key(String kind, String namespace, String name) {
    return kind + "/" + (namespace == null ? "" : namespace + "/") + name;
  }
}
