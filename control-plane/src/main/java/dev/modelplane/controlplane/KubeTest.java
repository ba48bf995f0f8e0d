package dev.modelplane.controlplane;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one test sees of the shared control plane: its own namespace, a client bound to it, and fake nodes it adds
 * (removed again after the test, so node-dependent tests do not see each other's nodes).
 */
public final class KubeTest {
  private final ControlPlane controlPlane;
  private final String namespace;
  private final KubernetesClient client;
  private final KubernetesClient namespaced;
  private final List<String> nodes = new ArrayList<>();
  private final List<String> crds = new ArrayList<>();

  KubeTest(ControlPlane controlPlane, String namespace) {
    this.controlPlane = controlPlane;
    this.namespace = namespace;
    this.client = controlPlane.client();
    this.namespaced = client.adapt(NamespacedKubernetesClient.class).inNamespace(namespace);
  }

  /** The test's namespace. */
  public String namespace() {
    return namespace;
  }

  /** A short name unique to this test, e.g. for cluster-scoped objects: {@code prefix} plus the namespace's suffix. */
  public String uniqueName(String prefix) {
    return prefix + "-" + namespace.substring(namespace.lastIndexOf('-') + 1);
  }

  /** An admin client whose namespaced operations default to the test's namespace. */
  public KubernetesClient client() {
    return namespaced;
  }

  /** The shared control plane. */
  public ControlPlane controlPlane() {
    return controlPlane;
  }

  /** Adds fake nodes for this test (kwok is started if needed); they are deleted after the test. */
  public List<Node> addNodes(FakeNode... fakeNodes) throws IOException {
    for (FakeNode node : fakeNodes) {
      nodes.add(node.name());
    }
    return controlPlane.addNodes(fakeNodes);
  }

  /**
   * Installs the CRDs of {@code sets} for this test (waiting until each is Established); they are deleted again
   * after the test, so other tests see the kinds absent.
   */
  public void installUpstreamCrds(UpstreamCrds... sets) throws IOException {
    for (UpstreamCrds set : sets) {
      crds.addAll(controlPlane.installCrdFiles(set.files()));
    }
  }

  void cleanUp() {
    controlPlane.removeCrds(crds);
    for (String node : nodes) {
      client.nodes().withName(node).delete();
    }
    client.namespaces().withName(namespace).delete();
  }
}
