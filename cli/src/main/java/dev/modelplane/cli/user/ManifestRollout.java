package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Applies manifests and follows the objects until they are ready, printing each change of phase. */
public final class ManifestRollout {
  public static final String FIELD_MANAGER = "modelplane-up";
  /** Phases that end the wait: ready, or deliberately not running (suspended, scaled to zero). */
  private static final Set<String> READY_PHASES = Set.of("Ready", "Running", "Succeeded", "Available", "Bound",
      "Suspended", "Stopped", "Active");
  /** BenchmarkJob states in which the run has started (or ended well). */
  private static final Set<String> BENCHMARK_STARTED = Set.of("Running", "Completed");
  /** API groups whose objects the operator gives a status: wait for one. */
  private static final Set<String> OPERATOR_GROUPS = Set.of("inference.llmkube.dev", "ome.io", "model.otterscale.io");
  private static final String POOL_API = "inference.networking.k8s.io/v1";

  /** Where an object stands: ready or not, and a one-line summary. */
  public record Readiness(boolean ready, String summary) {
  }

  private ManifestRollout() {
  }

  /** Server-side applies every object of {@code manifest} (namespace {@code default} when none is given). */
  public static List<HasMetadata> apply(KubernetesClient client, InputStream manifest) {
    return apply(client, manifest, FIELD_MANAGER);
  }

  /** As {@link #apply(KubernetesClient, InputStream)}, as {@code fieldManager}. */
  public static List<HasMetadata> apply(KubernetesClient client, InputStream manifest, String fieldManager) {
    List<HasMetadata> applied = new ArrayList<>();
    for (HasMetadata item : client.load(manifest).items()) {
      if (item == null) {
        continue;
      }
      if (namespaced(client, item)) {
        if (item.getMetadata().getNamespace() == null) {
          item.getMetadata().setNamespace("default");
        }
        ensureNamespace(client, item.getMetadata().getNamespace());
      }
      if (item.getMetadata().getManagedFields() != null) {
        item.getMetadata().setManagedFields(null);
      }
      applied.add(client.resource(item).fieldManager(fieldManager).forceConflicts().serverSideApply());
    }
    return applied;
  }

  /** Creates {@code namespace} when it does not exist (manifests often name one of their own). */
  private static void ensureNamespace(KubernetesClient client, String namespace) {
    if (client.namespaces().withName(namespace).get() == null) {
      client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
          .withName(namespace).endMetadata().build()).fieldManager(FIELD_MANAGER).serverSideApply();
    }
  }

  private static boolean namespaced(KubernetesClient client, HasMetadata item) {
    var resources = client.getApiResources(item.getApiVersion());
    if (resources == null) {
      throw new IllegalArgumentException(item.getKind() + " " + item.getMetadata().getName() + ": the cluster does "
          + "not serve " + item.getApiVersion() + " (is its CRD installed?)");
    }
    return resources.getResources().stream().filter(r -> item.getKind().equals(r.getKind())).findFirst()
        .map(r -> Boolean.TRUE.equals(r.getNamespaced())).orElseThrow(() -> new IllegalArgumentException(
            item.getKind() + " " + item.getMetadata().getName() + ": " + item.getApiVersion() + " has no kind "
                + item.getKind()));
  }

  /** Reads {@code in} fully (so a file can be applied and echoed). */
  public static byte[] read(InputStream in) throws IOException {
    try (in) {
      return in.readAllBytes();
    }
  }

  /**
   * Follows {@code objects} until every one is ready, printing a line whenever one's summary changes. False when
   * {@code timeout} passed first.
   */
  public static boolean waitReady(KubernetesClient client, List<HasMetadata> objects, Duration timeout,
      PrintWriter out) throws InterruptedException {
    Map<String, String> shown = new LinkedHashMap<>();
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      boolean all = true;
      for (HasMetadata object : objects) {
        Readiness r = POOL_API.equals(object.getApiVersion()) && "InferencePool".equals(object.getKind())
            ? poolReadiness(client, fetch(client, object)) : readiness(fetch(client, object));
        r = withDownload(client, object, r);
        String key = object.getKind() + "/" + object.getMetadata().getName();
        if (!r.summary().equals(shown.get(key))) {
          shown.put(key, r.summary());
          out.println("  " + key + ": " + r.summary());
          out.flush();
        }
        all &= r.ready();
      }
      if (all) {
        return true;
      }
      if (Instant.now().isAfter(deadline)) {
        return false;
      }
      Thread.sleep(1000);
    }
  }

  /** An LLMKube InferenceService still starting also says how far its pods' model download is. */
  private static Readiness withDownload(KubernetesClient client, HasMetadata object, Readiness r) {
    if (r.ready() || !ModelplaneKind.LLMKUBE.equals(object.getApiVersion())
        || !"InferenceService".equals(object.getKind())) {
      return r;
    }
    String namespace = object.getMetadata().getNamespace();
    List<String> progress = DownloadProgress.ofService(client, namespace == null ? client.getNamespace() : namespace,
        object.getMetadata().getName());
    return progress.isEmpty() ? r : new Readiness(false, r.summary() + "; " + String.join("; ", progress));
  }

  private static JsonNode fetch(KubernetesClient client, HasMetadata object) {
    try {
      var resources = client.genericKubernetesResources(object.getApiVersion(), object.getKind());
      String namespace = object.getMetadata().getNamespace();
      GenericKubernetesResource fresh = (namespace == null ? resources.withName(object.getMetadata().getName())
          : resources.inNamespace(namespace).withName(object.getMetadata().getName())).get();
      return fresh == null ? null : OutputFormat.JSON_MAPPER.valueToTree(fresh);
    } catch (KubernetesClientException e) {
      return null;
    }
  }

  /** A pool is ready once one of the pods it selects is Ready (the router can send it requests). */
  static Readiness poolReadiness(KubernetesClient client, JsonNode pool) {
    if (pool == null) {
      return new Readiness(false, "not found");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    pool.path("spec").path("selector").path("matchLabels").fields()
        .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
    long ready = client.pods().inNamespace(pool.path("metadata").path("namespace").asText()).withLabels(labels)
        .list().getItems().stream().filter(p -> p.getStatus() != null && p.getStatus().getConditions() != null
            && p.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))).count();
    return new Readiness(ready > 0, ready + " ready endpoint" + (ready == 1 ? "" : "s"));
  }

  /** Readiness from the usual status shapes: phase, OME's state, a Ready condition, Deployment replicas. */
  public static Readiness readiness(JsonNode object) {
    if (object == null) {
      return new Readiness(false, "not found");
    }
    JsonNode status = object.path("status");
    String group = object.path("apiVersion").asText().split("/")[0];
    if (OPERATOR_GROUPS.contains(group) && (status.isMissingNode() || status.isEmpty())
        && !object.path("kind").asText().endsWith("ServingRuntime")) {
      return new Readiness(false, "waiting for the operator");
    }
    JsonNode ready = condition(status, "Ready");
    String detail = ready == null || ready.path("message").asText("").isEmpty() ? ""
        : " (" + ready.path("reason").asText() + ": " + ready.path("message").asText() + ")";
    if (status.hasNonNull("phase")) {
      String phase = status.get("phase").asText();
      return new Readiness(READY_PHASES.contains(phase), phase + (READY_PHASES.contains(phase) ? "" : detail));
    }
    if (status.hasNonNull("state")) {
      String state = status.get("state").asText();
      if ("BenchmarkJob".equals(object.path("kind").asText())) {
        // A benchmark is under way once it runs; waiting for its end would tie up the command for its whole run.
        boolean started = BENCHMARK_STARTED.contains(state);
        String why = status.path("failureMessage").asText(status.path("details").asText(""));
        return new Readiness(started, state + (started || why.isEmpty() ? "" : " (" + why + ")"));
      }
      // A base model's Ready condition says how far its download is ("… (1.20 GiB of 4.00 GiB, 30%)").
      return new Readiness("Ready".equals(state), state + ("Ready".equals(state) ? "" : detail));
    }
    if ("Deployment".equals(object.path("kind").asText())) {
      int want = object.path("spec").path("replicas").asInt(1);
      int have = status.path("readyReplicas").asInt(0);
      return new Readiness(have >= want, have + "/" + want + " ready");
    }
    if (ready != null) {
      boolean ok = "True".equals(ready.path("status").asText());
      return new Readiness(ok, ok ? "Ready" : "not ready" + detail);
    }
    return new Readiness(true, "applied");
  }

  private static JsonNode condition(JsonNode status, String type) {
    for (JsonNode c : status.path("conditions")) {
      if (type.equals(c.path("type").asText())) {
        return c;
      }
    }
    return null;
  }
}
