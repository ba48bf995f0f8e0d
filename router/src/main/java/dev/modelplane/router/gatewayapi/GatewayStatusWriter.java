package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.router.pool.PoolKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the status the compiler asks for: the whole status of our GatewayClasses and Gateways (with the bound
 * address, and a listener whose port could not be bound not {@code Programmed}), and our entries in the
 * {@code status.parents} of HTTPRoutes and InferencePools, beside other controllers' entries, which are kept. A
 * status equal to the stored one but for its timestamps is not written, so the update a write causes ends there; a
 * condition that did not change keeps its {@code lastTransitionTime}. Runs on the controller's thread.
 */
final class GatewayStatusWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GatewayStatusWriter.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String POOL_API = "inference.networking.k8s.io/v1";

  private final KubernetesClient client;
  private final String controllerName;
  private final AtomicBoolean warnedForbidden = new AtomicBoolean();
  /** Whether a write of the current round failed for a reason that may pass (the controller tries again). */
  private boolean failed;

  GatewayStatusWriter(KubernetesClient client, String controllerName) {
    this.client = client;
    this.controllerName = controllerName;
  }

  /** Writes what differs; answers whether every write that was needed went through (or cannot be retried). */
  boolean write(GatewayStatuses desired, Map<Integer, String> unbound, String address,
      List<GenericKubernetesResource> classes, List<GenericKubernetesResource> gateways,
      List<GenericKubernetesResource> routes, List<InferencePool> pools) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    failed = false;
    for (GenericKubernetesResource c : classes) {
      ObjectNode status = desired.gatewayClasses().get(c.getMetadata().getName());
      if (status != null) {
        status = status.deepCopy();
        writeWhole(c, GatewayController.GATEWAY_API, "GatewayClass", status, now);
      }
    }
    for (GenericKubernetesResource g : gateways) {
      ObjectNode status = desired.gateways().get(key(g));
      if (status != null) {
        status = status.deepCopy();
        withAddress(status, address);
        markUnbound(g, status, unbound);
        writeWhole(g, GatewayController.GATEWAY_API, "Gateway", status, now);
      }
    }
    for (GenericKubernetesResource r : routes) {
      writeParents(r, GatewayController.GATEWAY_API, "HTTPRoute", tree(r.getAdditionalProperties().get("status")),
          desired.httpRouteParents().getOrDefault(key(r), List.of()), now);
    }
    for (InferencePool p : pools) {
      PoolKey pk = new PoolKey(p.getMetadata().getNamespace(), p.getMetadata().getName());
      writeParents(p, POOL_API, "InferencePool", tree(p.getStatus()), desired.poolParents().getOrDefault(pk,
          List.of()), now);
    }
    return !failed;
  }

  private void writeWhole(GenericKubernetesResource obj, String apiVersion, String kind, ObjectNode status,
      Instant now) {
    JsonNode stored = tree(obj.getAdditionalProperties().get("status"));
    StatusMerge.carryTransitionTimes(stored, status, now);
    if (!StatusMerge.sameIgnoringTimes(stored, status)) {
      patch(obj, apiVersion, kind, status);
    }
  }

  private void writeParents(HasMetadata obj, String apiVersion, String kind, JsonNode stored, List<ObjectNode> ours,
      Instant now) {
    JsonNode storedParents = stored == null ? null : stored.get("parents");
    boolean hadOurs = false;
    if (storedParents != null) {
      for (JsonNode p : storedParents) {
        hadOurs |= controllerName.equals(p.path("controllerName").asText());
      }
    }
    if (ours.isEmpty() && !hadOurs) {
      return; // not ours, never was
    }
    ArrayNode merged = StatusMerge.mergeParents(storedParents, ours.stream().map(ObjectNode::deepCopy).toList(),
        controllerName);
    ObjectNode status = JSON.createObjectNode();
    status.set("parents", merged);
    StatusMerge.carryTransitionTimes(stored, status, now);
    ObjectNode storedView = JSON.createObjectNode();
    storedView.set("parents", storedParents == null ? JSON.createArrayNode() : storedParents);
    if (!StatusMerge.sameIgnoringTimes(storedView, status)) {
      patch(obj, apiVersion, kind, status);
    }
  }

  /**
   * The bound address, when it is one IP address: a host name is not what Gateway status reports, and a wildcard
   * ({@code 0.0.0.0}, {@code ::}) says nothing about where to reach the Gateway (in a cluster, its Service does).
   */
  private static void withAddress(ObjectNode status, String address) {
    if (address == null || !address.matches("[0-9a-fA-F:.]+") || address.matches("[0:.]+")) {
      return;
    }
    ArrayNode addresses = status.putArray("addresses");
    addresses.addObject().put("type", "IPAddress").put("value", address);
  }

  /** A listener whose port could not be bound is not programmed, and neither is a Gateway with no listener left. */
  private static void markUnbound(GenericKubernetesResource gateway, ObjectNode status, Map<Integer, String> unbound) {
    if (unbound.isEmpty()) {
      return;
    }
    JsonNode spec = tree(gateway.getAdditionalProperties().get("spec"));
    JsonNode listeners = status.path("listeners");
    boolean anyProgrammed = false;
    for (JsonNode l : listeners) {
      int port = -1;
      for (JsonNode s : spec.path("listeners")) {
        if (s.path("name").asText().equals(l.path("name").asText())) {
          port = s.path("port").asInt(-1);
        }
      }
      String why = unbound.get(port);
      for (JsonNode c : l.path("conditions")) {
        if ("Programmed".equals(c.path("type").asText())) {
          if (why != null) {
            ((ObjectNode) c).put("status", "False").put("reason", "Pending")
                .put("message", "cannot listen on port " + port + ": " + why);
          } else {
            anyProgrammed |= "True".equals(c.path("status").asText());
          }
        }
      }
    }
    if (!anyProgrammed) {
      for (JsonNode c : status.path("conditions")) {
        if ("Programmed".equals(c.path("type").asText()) && "True".equals(c.path("status").asText())) {
          ((ObjectNode) c).put("status", "False").put("reason", "Pending")
              .put("message", "no listener port could be bound");
        }
      }
    }
  }

  private void patch(HasMetadata obj, String apiVersion, String kind, ObjectNode status) {
    String ns = obj.getMetadata().getNamespace();
    String name = obj.getMetadata().getName();
    ObjectNode body = JSON.createObjectNode();
    body.set("status", status);
    try {
      var resources = client.genericKubernetesResources(apiVersion, kind);
      Resource<GenericKubernetesResource> target = ns == null ? resources.withName(name)
          : resources.inNamespace(ns).withName(name);
      target.subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), body.toString());
      LOG.atDebug().addKeyValue("kind", kind).addKeyValue("object", ns == null ? name : ns + "/" + name)
          .log("status written");
    } catch (KubernetesClientException e) {
      if (e.getCode() == 403) {
        if (warnedForbidden.compareAndSet(false, true)) {
          LOG.atWarn().addKeyValue("kind", kind).addKeyValue("error", e.getMessage())
              .log("may not write Gateway API status: grant patch on the status of gatewayclasses, gateways, "
                  + "httproutes and inferencepools to the router's service account");
        }
      } else if (e.getCode() != 404) { // 404: deleted meanwhile
        failed = true;
        LOG.atInfo().addKeyValue("kind", kind).addKeyValue("object", ns + "/" + name)
            .addKeyValue("error", e.getMessage()).log("status not written; trying again");
      }
    }
  }

  private static String key(HasMetadata obj) {
    return obj.getMetadata().getNamespace() + "/" + obj.getMetadata().getName();
  }

  private static JsonNode tree(Object value) {
    return value == null ? JSON.createObjectNode() : JSON.valueToTree(value);
  }

  @Override
  public void close() {
    // writes run on the controller's thread, which stops with it
  }
}
