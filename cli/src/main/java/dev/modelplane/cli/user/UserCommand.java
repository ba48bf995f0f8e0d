package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/**
 * What the user commands share: the cluster options and reading modelplane objects generically (a kind whose CRD
 * is not installed reads as empty). Exit codes: 0 done, 1 failed or not found, 2 usage error.
 */
abstract class UserCommand implements Callable<Integer> {
  static final int NOT_FOUND = 1;

  @Mixin
  ClusterOptions cluster = new ClusterOptions();

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** Objects of {@code kind} in {@code namespace} (null: all namespaces; ignored for cluster-scoped kinds). */
  static List<JsonNode> list(KubernetesClient client, ModelplaneKind kind, String namespace) {
    try {
      var op = client.genericKubernetesResources(kind.apiVersion(), kind.kind());
      List<GenericKubernetesResource> items = !kind.namespaced() ? op.list().getItems()
          : namespace == null ? op.inAnyNamespace().list().getItems() : op.inNamespace(namespace).list().getItems();
      return items.stream().map(i -> (JsonNode) OutputFormat.JSON_MAPPER.valueToTree(i)).toList();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 || e.getMessage() != null && e.getMessage().contains("Could not find")) {
        return List.of();
      }
      throw e;
    }
  }

  /** One object, if it exists. */
  static Optional<JsonNode> get(KubernetesClient client, ModelplaneKind kind, String namespace, String name) {
    try {
      var op = client.genericKubernetesResources(kind.apiVersion(), kind.kind());
      GenericKubernetesResource r = kind.namespaced() ? op.inNamespace(namespace).withName(name).get()
          : op.withName(name).get();
      return Optional.ofNullable(r).map(OutputFormat.JSON_MAPPER::valueToTree);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 || e.getMessage() != null && e.getMessage().contains("Could not find")) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
