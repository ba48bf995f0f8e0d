package dev.modelplane.router.pool;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteStatus;
import dev.modelplane.api.gie.v1alpha2.InferenceObjectiveStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the {@code Accepted} condition of the InferenceObjectives and InferenceModelRewrites of the pools this router
 * serves: {@code True} (reason {@code Accepted}) for the objects it applies, {@code Unknown} (reason {@code Pending})
 * with the reason in the message for those it ignores (a legacy object beside {@code llm-d.ai} ones for the same
 * pool). Objects of pools it does not serve are left to the router that serves them. A condition equal to the one
 * stored is not written again, so the update the write causes ends there; writes run one at a time off the
 * informer's thread. Without the right to patch the status (an older Role) it warns once and goes on routing.
 */
final class PolicyStatusWriter implements PoolPolicies.StatusSink, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PolicyStatusWriter.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String TYPE = "Accepted";

  private final KubernetesClient client;
  private final Clock clock;
  private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "policy-status");
    t.setDaemon(true);
    return t;
  });
  private final AtomicBoolean warnedForbidden = new AtomicBoolean();

  PolicyStatusWriter(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  @Override
  public void verdict(CustomResource<?, ?> obj, boolean applied, String message) {
    String status = applied ? "True" : "Unknown";
    String reason = applied ? "Accepted" : "Pending";
    Long generation = obj.getMetadata().getGeneration();
    Condition current = conditions(obj.getStatus()).stream().filter(c -> TYPE.equals(c.getType())).findFirst()
        .orElse(null);
    if (current != null && status.equals(current.getStatus()) && reason.equals(current.getReason())
        && message.equals(current.getMessage()) && Objects.equals(generation, current.getObservedGeneration())) {
      return;
    }
    boolean moved = current == null || !status.equals(current.getStatus());
    String since = moved || current.getLastTransitionTime() == null
        ? clock.instant().truncatedTo(ChronoUnit.SECONDS).toString() : current.getLastTransitionTime();
    ObjectNode condition = JSON.createObjectNode().put("type", TYPE).put("status", status).put("reason", reason)
        .put("message", message).put("lastTransitionTime", since);
    if (generation != null) {
      condition.put("observedGeneration", generation);
    }
    ObjectNode patch = JSON.createObjectNode();
    ArrayNode list = patch.putObject("status").putArray("conditions");
    list.add(condition);
    Class<? extends CustomResource<?, ?>> type = typeOf(obj);
    String ns = obj.getMetadata().getNamespace();
    String name = obj.getMetadata().getName();
    writer.execute(() -> write(type, ns, name, patch.toString()));
  }

  @SuppressWarnings("unchecked")
  private static Class<? extends CustomResource<?, ?>> typeOf(CustomResource<?, ?> obj) {
    return (Class<? extends CustomResource<?, ?>>) obj.getClass();
  }

  private void write(Class<? extends CustomResource<?, ?>> type, String ns, String name, String patch) {
    try {
      client.resources(type).inNamespace(ns).withName(name).subresource("status")
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 403) {
        if (warnedForbidden.compareAndSet(false, true)) {
          LOG.atWarn().addKeyValue("error", e.getMessage())
              .log("may not write the status of objectives and model rewrites: grant patch on their status "
                  + "subresource to the router's service account");
        }
      } else if (e.getCode() != 404) { // 404: deleted meanwhile
        LOG.atDebug().addKeyValue("object", ns + "/" + name).addKeyValue("error", e.getMessage())
            .log("policy status not written");
      }
    }
  }

  private static List<Condition> conditions(Object status) {
    List<Condition> list = status instanceof InferenceObjectiveStatus s ? s.conditions()
        : status instanceof InferenceModelRewriteStatus s ? s.conditions() : null;
    return list == null ? List.of() : list;
  }

  @Override
  public void close() {
    writer.shutdownNow();
  }
}
