package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelplane.controlplane.KubeTest;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** What the tests of the operator as a process share: the jar, a service-account kubeconfig, objects to reconcile. */
final class OperatorFixtures {
  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private OperatorFixtures() {
  }

  static Path repoRoot() {
    return Path.of(System.getProperty("modelplane.repo.root", ".."));
  }

  static Path jar() {
    Path jar = Path.of(System.getProperty("modelplane.jar", "target/modelplane.jar"));
    assertThat(jar).as("the shaded jar (mvn package builds it)").exists();
    return jar;
  }

  /**
   * Applies deploy/operator/rbac.yaml and picker-rbac.yaml into the test's namespace and writes, to {@code file}, a kubeconfig carrying a
   * token of its service account — so the operator runs with exactly the manifest's permissions.
   */
  static Path serviceAccountKubeconfig(KubeTest test, Path file) throws IOException {
    return serviceAccountKubeconfig(test.client(), test.namespace(), test.uniqueName("modelplane-operator"),
        test.controlPlane().kubeconfig(), file);
  }

  /** As {@link #serviceAccountKubeconfig(KubeTest, Path)}, for any control plane (its admin kubeconfig given). */
  static Path serviceAccountKubeconfig(KubernetesClient admin, String ns, String account, Path adminKubeconfig,
      Path file) throws IOException {
    String text = Files.readString(repoRoot().resolve("deploy/operator/rbac.yaml"))
        .replace("namespace: modelplane-system", "namespace: " + ns)
        .replace("name: modelplane-operator\n", "name: " + account + "\n")
        .replace("name: modelplane-operator-namespaced\n", "name: " + account + "-namespaced\n")
        .replace("name: modelplane-operator-leader-election\n", "name: operator-leader-election\n")
        .replace("name: modelplane-operator-events\n", "name: " + account + "-events\n");
    applyAll(admin, text);
    // The endpoint pickers' bindings (cluster-wide mode); the installed ClusterRole is shared by every test.
    String pickers = Files.readString(repoRoot().resolve("deploy/operator/picker-rbac.yaml"))
        .replace("namespace: modelplane-system", "namespace: " + ns)
        .replace("name: modelplane-operator\n", "name: " + account + "\n")
        .replace("name: modelplane-operator-picker-bindings\n", "name: " + account + "-picker-bindings\n");
    try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(pickers)) {
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (doc != null && !doc.isEmpty()) {
          try {
            admin.resource(YAML.convertValue(doc, GenericKubernetesResource.class)).create();
          } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
              throw e;
            }
          }
        }
      }
    }
    return kubeconfigWithToken(admin, ns, account, adminKubeconfig, file);
  }

  /**
   * Renders the Helm chart (Helm built on first use; under CI=true a failed build fails the test, else skips it) for
   * {@code release} in {@code namespace} with the given {@code --set} arguments, and creates the rendered objects
   * whose kind {@code kinds} accepts. Returns what it created, for the caller to delete.
   */
  static List<GenericKubernetesResource> applyChartRbac(KubernetesClient admin, String release, String namespace,
      Predicate<String> kinds, String... sets) throws Exception {
    UpEndToEndIT.Run helmBuild = UpEndToEndIT.run(List.of("bash",
        repoRoot().resolve("hack/helm/build.sh").toString()), 1800);
    if (helmBuild.exit() != 0) {
      if ("true".equals(System.getenv("CI"))) {
        Assertions.fail("hack/helm/build.sh failed (CI=true needs Helm): " + helmBuild.output());
      }
      Assumptions.abort("Helm could not be built: " + helmBuild.output());
    }
    String helm = helmBuild.output().strip().lines().reduce((a, b) -> b).orElseThrow();
    List<String> command = new ArrayList<>(List.of(helm, "template", release,
        repoRoot().resolve("deploy/helm/modelplane").toString(), "--namespace", namespace));
    command.addAll(List.of(sets));
    UpEndToEndIT.Run rendered = UpEndToEndIT.run(command, 120);
    assertThat(rendered.exit()).as(rendered.output()).isZero();
    List<GenericKubernetesResource> applied = new ArrayList<>();
    for (JsonNode doc : YAML.readerFor(JsonNode.class).<JsonNode>readValues(rendered.output()).readAll()) {
      if (doc != null && doc.isObject() && kinds.test(doc.path("kind").asText())) {
        try {
          applied.add(admin.resource(YAML.convertValue((ObjectNode) doc, GenericKubernetesResource.class)).create());
        } catch (KubernetesClientException e) {
          // A fixed-name object another test of this control plane made (the ClusterRole modelplane-endpoint-picker):
          // the same, and not this test's to delete.
          if (e.getCode() != 409) {
            throw e;
          }
        }
      }
    }
    return applied;
  }

  /** Creates every object of a multi-document YAML text. */
  static void applyAll(KubernetesClient admin, String text) throws IOException {
    try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(text)) {
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (doc != null && !doc.isEmpty()) {
          admin.resource(YAML.convertValue(doc, GenericKubernetesResource.class)).create();
        }
      }
    }
  }

  /** Writes a kubeconfig for the test's control plane with a token of service account {@code account}. */
  static Path kubeconfigWithToken(KubeTest test, String account, Path file) throws IOException {
    return kubeconfigWithToken(test.client(), test.namespace(), account, test.controlPlane().kubeconfig(), file);
  }

  private static Path kubeconfigWithToken(KubernetesClient admin, String ns, String account, Path adminKubeconfig,
      Path file) throws IOException {
    TokenRequest token = admin.serviceAccounts().inNamespace(ns).withName(account).tokenRequest(
        new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build());
    JsonNode cluster = YAML.readTree(adminKubeconfig.toFile()).path("clusters").get(0)
        .path("cluster");
    Files.createDirectories(file.getParent());
    Files.writeString(file, """
        apiVersion: v1
        kind: Config
        clusters:
        - name: test
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: operator
          user:
            token: %s
        contexts:
        - name: test
          context: {cluster: test, user: operator, namespace: %s}
        current-context: test
        """.formatted(cluster.path("server").asText(), cluster.path("certificate-authority-data").asText(),
        token.getStatus().getToken(), ns));
    return file;
  }

  /** A Model with a Hugging Face id and a vLLM InferenceService using it, both called {@code name}. */
  static void applyModelAndService(KubernetesClient client, String name) {
    client.resource(YAML.convertValue(Map.of("apiVersion", "inference.llmkube.dev/v1alpha1", "kind", "Model",
        "metadata", Map.of("name", name), "spec", Map.of("source", "test-org/" + name)),
        GenericKubernetesResource.class)).create();
    client.resource(YAML.convertValue(Map.of("apiVersion", "inference.llmkube.dev/v1alpha1",
        "kind", "InferenceService", "metadata", Map.of("name", name),
        "spec", Map.of("modelRef", name, "runtime", "vllm", "skipModelInit", true)),
        GenericKubernetesResource.class)).create();
  }

  static void awaitDeployment(KubernetesClient client, String name) {
    await().atMost(TIMEOUT).until(() -> client.apps().deployments().withName(name).get() != null);
  }

  static void awaitLeader(KubernetesClient client, String ns, String identity) {
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> identity.equals(holder(client, ns)));
  }

  /** The holder of the default Lease {@code modelplane-operator} in {@code ns}, or null. */
  static String holder(KubernetesClient client, String ns) {
    Lease lease = client.leases().inNamespace(ns).withName("modelplane-operator").get();
    return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
  }

  /** The value of an unlabelled Prometheus sample, or NaN when absent. */
  static double gauge(String metrics, String name) {
    return metrics.lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{")).findFirst()
        .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).orElse(Double.NaN);
  }

  private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newBuilder()
      .version(java.net.http.HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

  /** GET {@code path} from a process of ours listening on 127.0.0.1:{@code port}. */
  static java.net.http.HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return HTTP.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(5)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  /** The HTTP status of {@code path}, or -1 while nothing listens on the port or it does not answer in time. */
  static int status(int port, String path) throws IOException, InterruptedException {
    try {
      return get(port, path).statusCode();
    } catch (java.net.ConnectException | java.net.http.HttpTimeoutException e) {
      return -1;
    }
  }
}
