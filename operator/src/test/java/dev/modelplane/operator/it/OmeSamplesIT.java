package dev.modelplane.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.UpstreamCrds;
import dev.modelplane.controlplane.WithControlPlane;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The OME samples and the shipped runtimes, applied as a user would to a cluster with GPU nodes (kwok) on which the
 * model agent has reported the models Ready: every service becomes Ready, and the one whose router names no image
 * gets an InferencePool of its engine pods.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER,
    ControlPlane.Component.KWOK})
class OmeSamplesIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final List<String> MODELS = List.of("llama-3-1-8b-instruct", "llama-3-3-70b-instruct",
      "mistral-7b-instruct", "qwen2-5-7b-instruct");
  private static OperatorHarness harness;

  @BeforeAll
  static void startOperator(ControlPlane controlPlane) {
    harness = OperatorHarness.start(controlPlane);
  }

  @AfterAll
  static void stopOperator() {
    if (harness != null) {
      harness.close();
    }
  }

  private static Path repo() {
    return Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
  }

  private static List<HasMetadata> load(KubernetesClient client, Path dir) throws IOException {
    List<HasMetadata> objects = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          objects.addAll(client.load(in).items());
        }
      }
    }
    return objects;
  }

  private static Condition condition(InferenceService isvc, String type) {
    assertThat(isvc.getStatus()).as("status").isNotNull();
    return isvc.getStatus().conditions().stream().filter(c -> c.getType().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " in " + isvc.getStatus().conditions()));
  }

  @Test
  void theSamplesServeOnTheNodesWhereTheirModelsAre(KubeTest test) throws IOException {
    // Cluster-wide: the samples name their own namespace (llm), which a test-namespaced client would override.
    KubernetesClient client = test.controlPlane().client();
    test.installUpstreamCrds(UpstreamCrds.KEDA);
    // The prefill/decode sample's pods use the host network (RDMA), so each needs a node of its own.
    List<FakeNode> nodes = new ArrayList<>();
    for (String n : List.of("gpu-a", "gpu-b", "gpu-c", "gpu-d")) {
      FakeNode node = FakeNode.nvidia(test.uniqueName(n), 8);
      for (String model : MODELS) {
        node = node.withLabel("models.ome.io/clusterbasemodel." + model, "Ready");
      }
      nodes.add(node);
    }
    test.addNodes(nodes.toArray(FakeNode[]::new));
    List<HasMetadata> applied = new ArrayList<>();
    applied.addAll(load(client, repo().resolve("deploy/runtimes")));
    applied.addAll(load(client, repo().resolve("deploy/samples/ome")).stream()
        .filter(o -> !o.getKind().equals("BenchmarkJob")).toList());
    applied.stream().map(o -> o.getMetadata().getNamespace()).filter(java.util.Objects::nonNull).distinct()
        .filter(ns -> client.namespaces().withName(ns).get() == null)
        .forEach(ns -> client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
            .endMetadata().build()).create());
    try {
      for (HasMetadata object : applied) {
        object.getMetadata().setResourceVersion(null);
        if (object instanceof dev.modelplane.api.ome.v1beta1.ClusterBaseModel cbm) {
          cbm.setStatus(null);
        }
        client.resource(object).serverSideApply();
      }
      KubernetesClient llm = client.adapt(io.fabric8.kubernetes.client.NamespacedKubernetesClient.class)
          .inNamespace("llm");
      llm.getConfiguration().setNamespace("llm");
      assertThat(llm.resources(InferenceService.class).list().getItems()).extracting(i -> i.getMetadata().getName())
          .containsExactlyInAnyOrder("llama-3-1-8b", "llama-3-3-70b-pd", "mistral-7b-legacy");
      await().atMost(TIMEOUT).untilAsserted(() -> {
        for (String name : List.of("llama-3-1-8b", "llama-3-3-70b-pd", "mistral-7b-legacy")) {
          InferenceService isvc = llm.resources(InferenceService.class).withName(name).get();
          assertThat(condition(isvc, "Ready").getStatus()).as(name + ": " + condition(isvc, "Ready").getMessage())
              .isEqualTo("True");
          // The URL names the port of the service's Service (the entry component's serving port).
          int port = llm.services().withName(name).get().getSpec().getPorts().get(0).getPort();
          assertThat(isvc.getStatus().url()).isEqualTo("http://" + name + ".llm.svc.cluster.local"
              + (port == 80 ? "" : ":" + port));
        }
        InferenceService routed = client.resources(InferenceService.class).inNamespace("assistants")
            .withName("qwen-chat").get();
        assertThat(condition(routed, "Ready").getStatus()).as(condition(routed, "Ready").getMessage())
            .isEqualTo("True");
      });
      assertThat(client.genericKubernetesResources("inference.networking.k8s.io/v1", "InferencePool")
          .inNamespace("assistants").withName("qwen-chat").get()).isNotNull();
      assertThat(llm.apps().deployments().withName("llama-3-3-70b-pd-decoder").get().getSpec().getTemplate()
          .getSpec().getContainers().getFirst().getArgs()).contains("--disaggregation-mode=decode");
      assertThat(llm.genericKubernetesResources("keda.sh/v1alpha1", "ScaledObject")
          .withName("scaledobject-llama-3-1-8b-engine").get()).isNotNull();
    } finally {
      for (HasMetadata object : applied.reversed()) {
        client.resource(object).delete();
      }
    }
  }
}
