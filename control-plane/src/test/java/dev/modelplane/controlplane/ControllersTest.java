package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The controllers of a real cluster: kube-controller-manager turns a Deployment into Pods and garbage-collects them
 * with their owner; kube-scheduler places pods by extended resources such as GPUs; kwok runs them on fake nodes
 * with loopback pod IPs.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER,
    ControlPlane.Component.KWOK})
class ControllersTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @Test
  void aDeploymentMakesRunningPodsWithLoopbackIpsAndTheyAreCollectedWithIt(KubeTest test) throws IOException {
    test.addNodes(FakeNode.cpu(test.uniqueName("cpu")));
    KubernetesClient client = test.client();
    Deployment deployment = new DeploymentBuilder()
        .withNewMetadata().withName("web").endMetadata()
        .withNewSpec().withReplicas(2)
        .withNewSelector().addToMatchLabels("app", "web").endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
        .withNewSpec().addNewContainer().withName("web").withImage("registry.invalid/never-pulled:1")
        .withNewResources().addToRequests("cpu", new Quantity("100m")).endResources().endContainer()
        .endSpec().endTemplate().endSpec().build();
    client.services().resource(new io.fabric8.kubernetes.api.model.ServiceBuilder().withNewMetadata()
        .withName("web").endMetadata().withNewSpec().addToSelector("app", "web").addNewPort().withPort(80).endPort()
        .endSpec().build()).create();
    client.apps().deployments().resource(deployment).create();

    await().atMost(TIMEOUT).untilAsserted(() -> {
      List<Pod> pods = client.pods().withLabel("app", "web").list().getItems();
      assertThat(pods).hasSize(2).allSatisfy(p -> {
        assertThat(p.getStatus().getPhase()).isEqualTo("Running");
        assertThat(p.getStatus().getPodIP()).startsWith("127.");
        assertThat(p.getMetadata().getOwnerReferences()).isNotEmpty();
      });
    });
    await().atMost(TIMEOUT).untilAsserted(() ->
        assertThat(client.apps().deployments().withName("web").get().getStatus().getReadyReplicas()).isEqualTo(2));
    // The endpoint controllers are off (they act within moments of a Service, long before two pods are ready): no
    // Endpoints, no EndpointSlices, none of their loopback warnings.
    assertThat(client.discovery().v1().endpointSlices().withLabel("kubernetes.io/service-name", "web").list()
        .getItems()).isEmpty();
    assertThat(client.endpoints().withName("web").get()).isNull();
    assertThat(client.events().v1().events().list().getItems())
        .noneSatisfy(e -> assertThat(e.getNote()).contains("loopback"));

    client.apps().deployments().withName("web").delete();
    await().atMost(TIMEOUT).untilAsserted(() ->
        assertThat(client.pods().withLabel("app", "web").list().getItems()).isEmpty());
    assertThat(client.apps().replicaSets().withLabel("app", "web").list().getItems()).isEmpty();
  }

  @Test
  void eachNodeHasItsOwnLoopbackAddressWhichHostNetworkPodsGet(KubeTest test) throws IOException {
    String first = test.uniqueName("hn-a");
    String second = test.uniqueName("hn-b");
    test.addNodes(FakeNode.cpu(first), FakeNode.cpu(second));
    KubernetesClient client = test.client();
    Map<String, String> nodeIps = new java.util.HashMap<>();
    for (String node : List.of(first, second)) {
      var addresses = client.nodes().withName(node).get().getStatus().getAddresses();
      String ip = addresses.stream().filter(a -> a.getType().equals("InternalIP")).findFirst().orElseThrow()
          .getAddress();
      assertThat(ip).startsWith("127.254.");
      nodeIps.put(node, ip);
    }
    assertThat(nodeIps.get(first)).isNotEqualTo(nodeIps.get(second));
    for (String node : List.of(first, second)) {
      client.pods().resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName(node)
          .endMetadata().withNewSpec().withNodeName(node).withHostNetwork(true).addNewContainer().withName("c")
          .withImage("registry.invalid/never-pulled:1").endContainer().endSpec().build()).create();
    }
    await().atMost(TIMEOUT).untilAsserted(() -> {
      for (String node : List.of(first, second)) {
        assertThat(client.pods().withName(node).get().getStatus().getPodIP()).isEqualTo(nodeIps.get(node));
      }
    });
  }

  @Test
  void aPodAskingForMoreGpusThanAnyNodeHasStaysPendingWithTheSchedulerReason(KubeTest test) throws IOException {
    String node = test.uniqueName("gpu");
    test.addNodes(FakeNode.nvidia(node, 2));
    KubernetesClient client = test.client();
    client.pods().resource(gpuPod("too-big", 3)).create();
    client.pods().resource(gpuPod("fits", 2)).create();

    await().atMost(TIMEOUT).untilAsserted(() -> {
      Pod fits = client.pods().withName("fits").get();
      assertThat(fits.getSpec().getNodeName()).isEqualTo(node);
      assertThat(fits.getStatus().getPhase()).isEqualTo("Running");
      assertThat(fits.getStatus().getPodIP()).startsWith("127.");
    });
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Pod tooBig = client.pods().withName("too-big").get();
      assertThat(tooBig.getStatus().getPhase()).isEqualTo("Pending");
      assertThat(tooBig.getStatus().getConditions()).anySatisfy(c -> {
        assertThat(c.getType()).isEqualTo("PodScheduled");
        assertThat(c.getStatus()).isEqualTo("False");
        assertThat(c.getReason()).isEqualTo("Unschedulable");
        assertThat(c.getMessage()).contains("Insufficient nvidia.com/gpu");
      });
    });
    // addNodes waits until the node's not-ready taint is lifted, so the first FailedScheduling event already names
    // the GPU shortage (events.k8s.io keeps the first note of a series and only counts repeats).
    await().atMost(TIMEOUT).untilAsserted(() -> {
      List<Event> events = client.events().v1().events().list().getItems();
      assertThat(events).anySatisfy(e -> {
        assertThat(e.getReason()).isEqualTo("FailedScheduling");
        assertThat(e.getNote()).contains("Insufficient nvidia.com/gpu");
      });
    });
  }

  private static Pod gpuPod(String name, int gpus) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().addNewContainer().withName("server").withImage("registry.invalid/never-pulled:1")
        .withNewResources().withLimits(Map.of("nvidia.com/gpu", new Quantity(Integer.toString(gpus))))
        .endResources().endContainer().endSpec().build();
  }
}
