package dev.modelplane.operator.common;

import dev.modelplane.operator.common.OperatorLabels;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a custom resource's objects by server-side apply (owned by it, so they go with it) and deletes the ones it
 * applied before and no longer wants. Objects of kinds whose CRD is not installed (LeaderWorkerSet, Knative, KEDA,
 * Gateway API, Istio, Prometheus Operator) are reported, never thrown.
 */
public final class ObjectApplier {
  public static final String FIELD_MANAGER = "modelplane-operator";
  private static final Logger LOG = LoggerFactory.getLogger(ObjectApplier.class);

  private final KubernetesClient client;
  private final boolean stampManagedBy;

  /** An applier that labels what it applies {@code app.kubernetes.io/managed-by: modelplane}. */
  public ObjectApplier(KubernetesClient client) {
    this(client, true);
  }

  /** {@code stampManagedBy} false keeps the objects' own {@code managed-by} label (an upstream contract). */
  public ObjectApplier(KubernetesClient client, boolean stampManagedBy) {
    this.client = client;
    this.stampManagedBy = stampManagedBy;
  }

  /**
   * What applying did.
   *
   * @param applied keys ({@link #key}) of the objects now in the cluster
   * @param missingKinds {@code plural.group} of kinds whose CRD is not installed
   * @param errors apply errors by object key
   * @param conflict an object changed under us; try again shortly
   */
  public record Result(Set<String> applied, Set<String> missingKinds, Map<String, String> errors, boolean conflict) {
  }

  /** Applies {@code objects} owned by {@code owner}, then deletes the objects of {@code previous} not applied now. */
  public Result apply(HasMetadata owner, List<HasMetadata> objects, Set<String> previous) {
    OwnerReference ref = new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
        .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).withController(true)
        .withBlockOwnerDeletion(true).build();
    Set<String> applied = new LinkedHashSet<>();
    Set<String> missing = new LinkedHashSet<>();
    Map<String, String> errors = new HashMap<>();
    boolean conflict = false;
    for (HasMetadata object : objects) {
      object.getMetadata().setOwnerReferences(List.of(ref));
      object.getMetadata().setNamespace(owner.getMetadata().getNamespace());
      if (stampManagedBy) {
        Map<String, String> labels = object.getMetadata().getLabels() == null ? new HashMap<>()
            : new HashMap<>(object.getMetadata().getLabels());
        labels.put(OperatorLabels.MANAGED_BY, OperatorLabels.MANAGED_BY_VALUE);
        object.getMetadata().setLabels(labels);
      }
      String key = key(object);
      conflict |= applyOne(object, key, owner.getMetadata().getNamespace() + "/" + owner.getMetadata().getName(),
          applied, missing, errors);
      if (!applied.contains(key) && previous.contains(key)) {
        applied.add(key);
      }
    }
    for (String stale : previous) {
      if (!applied.contains(stale) && objects.stream().noneMatch(o -> key(o).equals(stale))) {
        delete(owner.getMetadata().getNamespace(), stale);
      }
    }
    return new Result(applied, missing, errors, conflict);
  }

  /** Server-side applies one object, sorting a failure into missing kinds or errors; true on a conflict. */
  private boolean applyOne(HasMetadata object, String key, String owner, Set<String> applied, Set<String> missing,
      Map<String, String> errors) {
    try {
      client.resource(object).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
      applied.add(key);
    } catch (KubernetesClientException e) {
      if (notInstalled(e)) {
        missing.add(plural(object));
      } else if (e.getCode() == 409) {
        return true;
      } else {
        LOG.atWarn().addKeyValue("owner", owner).addKeyValue("object", key).addKeyValue("error", message(e))
            .log("apply failed");
        errors.put(key, message(e));
      }
    }
    return false;
  }

  /**
   * Deletes an object if it exists ({@code namespace} null for a cluster-scoped one); a kind whose CRD is not
   * installed has nothing to delete. Returns whether something was deleted.
   */
  public boolean deleteIfPresent(String apiVersion, String kind, String namespace, String name) {
    try {
      var op = client.genericKubernetesResources(apiVersion, kind);
      var deleted = namespace == null ? op.withName(name).delete() : op.inNamespace(namespace).withName(name).delete();
      if (!deleted.isEmpty()) {
        LOG.atInfo().addKeyValue("namespace", namespace).addKeyValue("object", apiVersion + "/" + kind + "/" + name)
            .log("deleted");
        return true;
      }
    } catch (KubernetesClientException e) {
      if (!notInstalled(e)) {
        LOG.atWarn().addKeyValue("namespace", namespace).addKeyValue("object", apiVersion + "/" + kind + "/" + name)
            .addKeyValue("error", message(e)).log("delete failed");
      }
    }
    return false;
  }

  /** {@code apiVersion/kind/name}, the form kept in the service's status to know what to delete later. */
  public static String key(HasMetadata object) {
    return object.getApiVersion() + "/" + object.getKind() + "/" + object.getMetadata().getName();
  }

  private void delete(String namespace, String key) {
    int last = key.lastIndexOf('/');
    int kindAt = key.lastIndexOf('/', last - 1);
    String apiVersion = key.substring(0, kindAt);
    String kind = key.substring(kindAt + 1, last);
    String name = key.substring(last + 1);
    try {
      client.genericKubernetesResources(apiVersion, kind).inNamespace(namespace).withName(name).delete();
      LOG.atInfo().addKeyValue("namespace", namespace).addKeyValue("object", key).log("deleted");
    } catch (KubernetesClientException e) {
      if (!notInstalled(e)) {
        LOG.atWarn().addKeyValue("namespace", namespace).addKeyValue("object", key).addKeyValue("error", message(e))
            .log("delete failed");
      }
    }
  }

  private static boolean notInstalled(KubernetesClientException e) {
    String text = String.valueOf(e.getMessage());
    return e.getCode() == 404 || text.contains("Could not find the metadata for the")
        || text.contains("Could not find a registered handler")
        || text.contains("the server could not find the requested resource");
  }

  private static String plural(HasMetadata object) {
    String group = object.getApiVersion().contains("/")
        ? object.getApiVersion().substring(0, object.getApiVersion().indexOf('/')) : "";
    return object.getKind().toLowerCase(java.util.Locale.ROOT) + "s" + (group.isEmpty() ? "" : "." + group);
  }

  /** The apiserver's message, cut to a readable length (fabric8's own messages can embed the whole object). */
  private static String message(KubernetesClientException e) {
    String text = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
        : String.valueOf(e.getMessage());
    return text.length() > 300 ? text.substring(0, 300) + "…" : text;
  }

  /** Keys from their stored form (one per line). */
  public static Set<String> parse(String stored) {
    Set<String> keys = new LinkedHashSet<>();
    if (stored != null) {
      for (String line : stored.split("\n")) {
        if (!line.isBlank()) {
          keys.add(line.strip());
        }
      }
    }
    return keys;
  }

  /** The stored form of keys. */
  public static String format(Set<String> keys) {
    return String.join("\n", new ArrayList<>(keys));
  }
}
