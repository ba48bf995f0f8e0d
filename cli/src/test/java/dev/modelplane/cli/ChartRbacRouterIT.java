package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The router runs with exactly the permissions the Helm chart grants it (its ServiceAccount, Role and RoleBinding,
 * authenticated with a token of that account): it discovers an InferencePool and its pod from the apiserver and
 * routes a chat completion to a simulator there, nothing it asks for is forbidden, and the Role grants no more than
 * reading (list, watch) pods, pools and objectives.
 */
@WithControlPlane
class ChartRbacRouterIT {
  private static final Set<String> RBAC = Set.of("ServiceAccount", "Role", "RoleBinding");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  private final List<Process> processes = new ArrayList<>();

  @TempDir
  Path dir;

  @AfterEach
  void stop() throws Exception {
    for (Process p : processes) {
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void theChartsRouterRoleIsEnoughToDiscoverAndRouteAndGrantsOnlyReads(KubeTest test) throws Exception {
    String ns = test.namespace();
    KubernetesClient admin = test.controlPlane().client();
    List<GenericKubernetesResource> applied = OperatorFixtures.applyChartRbac(admin, test.uniqueName("mp"), ns,
        kind -> RBAC.contains(kind), "--show-only", "templates/router.yaml");
    try {
      GenericKubernetesResource role = applied.stream().filter(o -> "Role".equals(o.getKind())).findFirst()
          .orElseThrow();
      assertThat(role.getMetadata().getName()).isEqualTo("modelplane-router");
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> rules = (List<Map<String, Object>>) role
          .getAdditionalProperties().get("rules");
      // Reads only, but for the one status it writes: the Accepted condition of objectives and model rewrites
      // (whose patch reads the object first: get).
      assertThat(rules).allSatisfy(r -> assertThat(r.get("verbs")).isEqualTo(
          ((List<?>) r.get("resources")).stream().allMatch(res -> String.valueOf(res).endsWith("/status"))
              ? List.of("patch") : ((List<?>) r.get("resources")).contains("inferenceobjectives")
              ? List.of("get", "list", "watch") : List.of("list", "watch")));
      assertThat(rules.stream().flatMap(r -> ((List<?>) r.get("resources")).stream()).map(String::valueOf).toList())
          .containsExactlyInAnyOrder("pods", "inferencepools", "inferenceobjectives", "inferencemodelrewrites",
              "inferenceobjectives/status", "inferencemodelrewrites/status", "services", "endpointslices");

      int simPort = FreePorts.pick();
      String ip = "127.0.33.1";
      String model = "test-org/rbac-model";
      start("simulator", List.of("simulator", "--model", model, "--host", ip, "--port", String.valueOf(simPort)),
          null);
      KubernetesClient client = test.client();
      client.resource(Serialization.unmarshal("""
          apiVersion: inference.networking.k8s.io/v1
          kind: InferencePool
          metadata: {name: chat}
          spec:
            selector: {matchLabels: {app: chat-sim}}
            targetPorts: [{number: %d}]
            endpointPickerRef: {name: modelplane-router, port: {number: 9002}, failureMode: FailOpen}
          """.formatted(simPort), GenericKubernetesResource.class)).create();
      client.serviceAccounts().resource(new ServiceAccountBuilder().withNewMetadata().withName("default")
          .endMetadata().build()).create();
      // The chart's Service the pool names. In a cluster its EndpointSlice lists the router pods, and the router
      // recognises itself there; the apiserver refuses the loopback address this router has, so the Service has no
      // endpoint here and the pool fails open to in-process. What this shows is that the Role lets the router read
      // Services and EndpointSlices (self detection is tested in the router module).
      client.services().resource(new io.fabric8.kubernetes.api.model.ServiceBuilder().withNewMetadata()
          .withName("modelplane-router").endMetadata().withNewSpec().addNewPort().withName("grpc").withPort(9002)
          .endPort().endSpec().build()).create();
      Pod pod = client.pods().resource(new PodBuilder().withNewMetadata().withName("chat-sim-0")
          .addToLabels("app", "chat-sim").endMetadata().withNewSpec().addNewContainer().withName("sim")
          .withImage("registry.invalid/sim:1").endContainer().endSpec().build()).create();
      pod.setStatus(new PodStatusBuilder().withPhase("Running").withPodIP(ip)
          .addNewCondition().withType("Ready").withStatus("True").endCondition().build());
      client.pods().resource(pod).updateStatus();

      Path kubeconfig = OperatorFixtures.kubeconfigWithToken(test, "modelplane-router",
          dir.resolve("router.kubeconfig"));
      int port = FreePorts.pick();
      start("router", List.of("router", "--host=127.0.0.1", "--port=" + port,
          "--grpc-port=" + FreePorts.pick(), "--grpc-health-port=" + FreePorts.pick(),
          "--metrics-port=" + FreePorts.pick(), "--pool-namespace=" + ns, "--all-pools"), kubeconfig);

      await().atMost(TIMEOUT).ignoreExceptions().until(() -> get(port, "/readyz").statusCode() == 200
          && get(port, "/health").body().contains("\"endpoints\":1"));
      String body = "{\"model\":\"" + model
          + "\",\"max_tokens\":4,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
          + "/v1/chat/completions")).timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      // An objective of the pool gets its Accepted condition, written under the same Role.
      client.resource(Serialization.unmarshal("""
          apiVersion: inference.networking.x-k8s.io/v1alpha2
          kind: InferenceObjective
          metadata: {name: interactive}
          spec: {priority: 10, poolRef: {name: chat}}
          """, GenericKubernetesResource.class)).create();
      await().atMost(TIMEOUT).untilAsserted(() -> assertThat(String.valueOf(client.genericKubernetesResources(
          "inference.networking.x-k8s.io/v1alpha2", "InferenceObjective").withName("interactive").get()
          .getAdditionalProperties().get("status"))).contains("reason=Accepted", "status=True"));
      assertThat(Files.readString(dir.resolve("router.log"), StandardCharsets.UTF_8))
          .doesNotContainIgnoringCase("forbidden").doesNotContain("may not list and watch")
          .contains("the pool's endpoint picker has no ready endpoint");
    } finally {
      for (GenericKubernetesResource o : applied) {
        admin.resource(o).delete();
      }
    }
  }

  @Test
  void theChartsGatewayApiClusterRoleIsEnoughToServeAGatewayAndWriteItsStatus(KubeTest test) throws Exception {
    test.installUpstreamCrds(dev.modelplane.controlplane.UpstreamCrds.GATEWAY_API);
    String ns = test.namespace();
    KubernetesClient admin = test.controlPlane().client();
    List<GenericKubernetesResource> applied = OperatorFixtures.applyChartRbac(admin, test.uniqueName("mp"), ns,
        kind -> RBAC.contains(kind) || kind.equals("ClusterRole") || kind.equals("ClusterRoleBinding"),
        "--show-only", "templates/router.yaml", "--set", "router.gatewayAPI.enabled=true");
    try {
      int simPort = FreePorts.pick();
      String ip = "127.0.33.2";
      start("simulator", List.of("simulator", "--model", "gw-model", "--host", ip, "--port",
          String.valueOf(simPort)), null);
      KubernetesClient client = test.client();
      client.serviceAccounts().resource(new ServiceAccountBuilder().withNewMetadata().withName("default")
          .endMetadata().build()).create();
      Pod pod = client.pods().resource(new PodBuilder().withNewMetadata().withName("gw-sim-0")
          .addToLabels("app", "gw-sim").endMetadata().withNewSpec().addNewContainer().withName("sim")
          .withImage("registry.invalid/sim:1").endContainer().endSpec().build()).create();
      pod.setStatus(new PodStatusBuilder().withPhase("Running").withPodIP(ip)
          .addNewCondition().withType("Ready").withStatus("True").endCondition().build());
      client.pods().resource(pod).updateStatus();
      String className = test.uniqueName("gwc");
      String controller = "modelplane.dev/" + className;
      int listener = FreePorts.pick();
      for (String yaml : List.of("""
          apiVersion: inference.networking.k8s.io/v1
          kind: InferencePool
          metadata: {name: gw-pool}
          spec:
            selector: {matchLabels: {app: gw-sim}}
            targetPorts: [{number: %d}]
          """.formatted(simPort), """
          apiVersion: gateway.networking.k8s.io/v1
          kind: GatewayClass
          metadata: {name: %s}
          spec: {controllerName: %s}
          """.formatted(className, controller), """
          apiVersion: gateway.networking.k8s.io/v1
          kind: Gateway
          metadata: {name: gw}
          spec:
            gatewayClassName: %s
            listeners: [{name: http, protocol: HTTP, port: %d}]
          """.formatted(className, listener), """
          apiVersion: gateway.networking.k8s.io/v1
          kind: HTTPRoute
          metadata: {name: all}
          spec:
            parentRefs: [{name: gw}]
            rules: [{backendRefs: [{group: inference.networking.k8s.io, kind: InferencePool, name: gw-pool}]}]
          """)) {
        client.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
      }

      Path kubeconfig = OperatorFixtures.kubeconfigWithToken(test, "modelplane-router",
          dir.resolve("router.kubeconfig"));
      start("router", List.of("router", "--host=127.0.0.1", "--port=" + FreePorts.pick(),
          "--grpc-port=" + FreePorts.pick(), "--grpc-health-port=" + FreePorts.pick(),
          "--metrics-port=" + FreePorts.pick(), "--pool-namespace=" + ns, "--all-pools",
          "--gateway-controller-name=" + controller), kubeconfig);

      String body = "{\"model\":\"gw-model\",\"max_tokens\":4,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
      await().atMost(TIMEOUT).ignoreExceptions().until(() -> HTTP.send(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + listener + "/v1/chat/completions")).timeout(Duration.ofSeconds(30))
          .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
      await().atMost(TIMEOUT).untilAsserted(() -> {
        assertThat(String.valueOf(client.genericKubernetesResources("gateway.networking.k8s.io/v1", "Gateway")
            .withName("gw").get().getAdditionalProperties().get("status")))
            .as(Files.readString(dir.resolve("router.log"), StandardCharsets.UTF_8)).contains("reason=Programmed");
        assertThat(String.valueOf(client.genericKubernetesResources("gateway.networking.k8s.io/v1", "HTTPRoute")
            .withName("all").get().getAdditionalProperties().get("status"))).contains("controllerName=" + controller);
        assertThat(String.valueOf(client.genericKubernetesResources("inference.networking.k8s.io/v1",
            "InferencePool").withName("gw-pool").get().getAdditionalProperties().get("status")))
            .contains("reason=ResolvedRefs");
        assertThat(String.valueOf(admin.genericKubernetesResources("gateway.networking.k8s.io/v1", "GatewayClass")
            .withName(className).get().getAdditionalProperties().get("status"))).contains("reason=Accepted");
      });
      assertThat(Files.readString(dir.resolve("router.log"), StandardCharsets.UTF_8))
          .doesNotContainIgnoringCase("forbidden");
      admin.genericKubernetesResources("gateway.networking.k8s.io/v1", "GatewayClass").withName(className).delete();
    } finally {
      for (GenericKubernetesResource o : applied) {
        admin.resource(o).delete();
      }
    }
  }

  private void start(String name, List<String> args, Path kubeconfig) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-jar", OperatorFixtures.jar().toAbsolutePath().toString()));
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve(name + ".log").toFile());
    if (kubeconfig != null) {
      pb.environment().put("KUBECONFIG", kubeconfig.toString());
    }
    processes.add(pb.start());
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
