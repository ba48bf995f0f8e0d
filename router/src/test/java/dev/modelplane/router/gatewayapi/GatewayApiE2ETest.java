package dev.modelplane.router.gatewayapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.UpstreamCrds;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import dev.modelplane.router.pool.KubernetesDiscovery;
import dev.modelplane.router.testing.FakeModelServer;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The router as a Gateway API implementation against a real kube-apiserver: a GatewayClass of ours, a Gateway with
 * an HTTP listener on a free loopback port, an HTTPRoute matching the body's model through
 * {@code X-Gateway-Model-Name} and splitting by weight over two InferencePools (one without an
 * {@code endpointPickerRef}, one naming a Service that does not exist); the requests land where the route says and
 * every object's status reads as the Gateway API and GIE specify.
 */
@WithControlPlane
class GatewayApiE2ETest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static void apply(KubernetesClient client, String yaml) {
    client.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
  }

  /** An InferencePool {@code name} of the pods labelled {@code app: name}, with {@code extra} spec fields. */
  private static void pool(KubernetesClient client, String name, int port, String extra) {
    apply(client, """
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata: {name: %s}
        spec:
          selector: {matchLabels: {app: %s}}
          targetPorts: [{number: %d}]
          %s
        """.formatted(name, name, port, extra));
  }

  private static void pod(KubernetesClient client, String name, String app, String ip) {
    Pod pod = client.pods().resource(new PodBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of("app", app)).endMetadata()
        .withNewSpec().addNewContainer().withName("server").withImage("vllm/vllm-openai").endContainer().endSpec()
        .build()).create();
    pod.setStatus(new PodStatusBuilder().withPhase("Running").withPodIP(ip)
        .addNewCondition().withType("Ready").withStatus("True").endCondition().build());
    client.pods().resource(pod).updateStatus();
  }

  private HttpResponse<String> chat(int port, String path, String model) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\","
            + "\"content\":\"hi\"}]}")).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode status(KubernetesClient client, String apiVersion, String kind, String name) {
    GenericKubernetesResource obj = client.genericKubernetesResources(apiVersion, kind).withName(name).get();
    Object status = obj == null ? null : obj.getAdditionalProperties().get("status");
    return status == null ? JSON.createObjectNode() : JSON.valueToTree(status);
  }

  /** {@code type=status/reason} of every condition in {@code node.conditions}. */
  private static List<String> conditions(JsonNode node) {
    List<String> out = new java.util.ArrayList<>();
    node.path("conditions").forEach(c -> out.add(c.path("type").asText() + "=" + c.path("status").asText() + "/"
        + c.path("reason").asText()));
    return out;
  }

  @Test
  void routesByModelNameAndWeightAndWritesEveryStatus(KubeTest kube) throws Exception {
    kube.installUpstreamCrds(UpstreamCrds.GATEWAY_API);
    KubernetesClient client = kube.client();
    String ns = kube.namespace();
    client.serviceAccounts().resource(new ServiceAccountBuilder().withNewMetadata().withName("default")
        .endMetadata().build()).create();
    Vertx vertx = Vertx.vertx();
    int serverPort = FreePorts.pickOnEveryAddress();
    int listenerPort = FreePorts.pick();
    String className = kube.uniqueName("modelplane");
    String controller = "modelplane.dev/" + className;
    try (FakeModelServer llamaServer = new FakeModelServer(vertx, "llama").bind("127.0.0.2", serverPort).start();
        FakeModelServer qwenServer = new FakeModelServer(vertx, "qwen").bind("127.0.0.3", serverPort).start()) {
      pool(client, "llama", serverPort, "");
      pool(client, "qwen", serverPort, "endpointPickerRef: {name: qwen-epp, port: {number: 9002}, failureMode: FailOpen}");
      pod(client, "llama-0", "llama", "127.0.0.2");
      pod(client, "qwen-0", "qwen", "127.0.0.3");
      apply(client, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: GatewayClass
          metadata: {name: %s}
          spec: {controllerName: %s}
          """.formatted(className, controller));
      apply(client, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: Gateway
          metadata: {name: inference}
          spec:
            gatewayClassName: %s
            listeners:
            - {name: http, protocol: HTTP, port: %d}
          """.formatted(className, listenerPort));
      apply(client, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: HTTPRoute
          metadata: {name: by-model}
          spec:
            parentRefs: [{name: inference}]
            rules:
            - matches:
              - path: {type: PathPrefix, value: /v1/}
                headers: [{name: X-Gateway-Model-Name, value: qwen}]
              filters:
              - type: RequestHeaderModifier
                requestHeaderModifier: {set: [{name: x-route, value: qwen-rule}]}
              backendRefs:
              - {group: inference.networking.k8s.io, kind: InferencePool, name: qwen}
            - matches:
              - path: {type: PathPrefix, value: /v1/}
                headers: [{name: X-Gateway-Model-Name, value: split}]
              backendRefs:
              - {group: inference.networking.k8s.io, kind: InferencePool, name: llama, weight: 70}
              - {group: inference.networking.k8s.io, kind: InferencePool, name: qwen, weight: 30}
            - matches:                  # the same path as the rules above, without a header: they win
              - path: {type: PathPrefix, value: /v1/}
              backendRefs:
              - {group: inference.networking.k8s.io, kind: InferencePool, name: llama}
          """);

      GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false);
      try (Router router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, null, List.of(), ns, null,
          MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start()) {
        KubernetesDiscovery discovery = new KubernetesDiscovery(client, router.pools(),
            new KubernetesDiscovery.Selection(List.of(), ns));
        router.attachDiscovery(discovery);
        router.followSync(discovery::unavailableReason, discovery::degradedReason, Duration.ofMillis(100));
        discovery.start();
        router.serveGatewayApi(client, controller);

        // Statuses: the class accepted, the Gateway programmed with its route attached, the route accepted with
        // its references resolved, each pool accepted by the Gateway, qwen's missing picker Service reported.
        await().atMost(WAIT).untilAsserted(() -> {
          assertThat(conditions(status(client, GatewayController.GATEWAY_API, "GatewayClass", className)))
              .contains("Accepted=True/Accepted");
          JsonNode gateway = status(client, GatewayController.GATEWAY_API, "Gateway", "inference");
          assertThat(conditions(gateway)).contains("Accepted=True/Accepted", "Programmed=True/Programmed");
          assertThat(gateway.path("listeners").get(0).path("attachedRoutes").asInt()).isEqualTo(1);
          assertThat(gateway.path("addresses").get(0).path("value").asText()).isEqualTo("127.0.0.1");
          JsonNode route = status(client, GatewayController.GATEWAY_API, "HTTPRoute", "by-model").path("parents");
          assertThat(route).hasSize(1);
          assertThat(route.get(0).path("controllerName").asText()).isEqualTo(controller);
          assertThat(conditions(route.get(0))).contains("Accepted=True/Accepted", "ResolvedRefs=True/ResolvedRefs");
          JsonNode llama = status(client, "inference.networking.k8s.io/v1", "InferencePool", "llama")
              .path("parents");
          assertThat(llama).hasSize(1);
          assertThat(llama.get(0).path("parentRef").path("name").asText()).isEqualTo("inference");
          assertThat(conditions(llama.get(0))).contains("Accepted=True/Accepted", "ResolvedRefs=True/ResolvedRefs");
          JsonNode qwen = status(client, "inference.networking.k8s.io/v1", "InferencePool", "qwen").path("parents");
          assertThat(qwen).hasSize(1);
          assertThat(conditions(qwen.get(0))).contains("Accepted=True/Accepted",
              "ResolvedRefs=False/InvalidExtensionRef");
        });

        // The body's model chooses the rule: qwen's rule (with its header filter), else the path's.
        await().atMost(WAIT).untilAsserted(() -> assertThat(chat(listenerPort, "/v1/chat/completions", "qwen")
            .statusCode()).isEqualTo(200));
        int qwenBefore = qwenServer.requests();
        HttpResponse<String> toQwen = chat(listenerPort, "/v1/chat/completions", "qwen");
        assertThat(toQwen.statusCode()).isEqualTo(200);
        assertThat(qwenServer.requests()).as(toQwen.headers().map() + " " + toQwen.body()).isEqualTo(qwenBefore + 1);
        assertThat(qwenServer.headers().getLast().get("x-route")).isEqualTo("qwen-rule");
        assertThat(qwenServer.headers().getLast().get("x-gateway-model-name")).isEqualTo("qwen");
        int llamaBefore = llamaServer.requests();
        assertThat(chat(listenerPort, "/v1/chat/completions", "anything-else").statusCode()).isEqualTo(200);
        assertThat(llamaServer.requests()).isEqualTo(llamaBefore + 1);

        // No rule matches /v2/rerank: 404, as Gateway API asks.
        HttpResponse<String> unmatched = chat(listenerPort, "/v2/rerank", "qwen");
        assertThat(unmatched.statusCode()).isEqualTo(404);
        assertThat(unmatched.body()).contains("no HTTPRoute rule matches");

        // 70/30 over 1,000 requests, within ±5 %.
        llamaBefore = llamaServer.requests();
        qwenBefore = qwenServer.requests();
        for (int i = 0; i < 1000; i++) {
          assertThat(chat(listenerPort, "/v1/chat/completions", "split").statusCode()).isEqualTo(200);
        }
        int toLlama = llamaServer.requests() - llamaBefore;
        assertThat(qwenServer.requests() - qwenBefore).isEqualTo(1000 - toLlama);
        assertThat(toLlama).isBetween(650, 750);

        // The main port is no Gateway listener: it routes by the model catalog, and an unknown model is OpenAI's 404.
        HttpResponse<String> unknown = chat(router.gatewayPort(), "/v1/chat/completions", "no-such-model");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).path("error").path("code").asText()).isEqualTo("model_not_found");

        // The route taken away: its pools are no longer attached, the listener counts no route.
        client.genericKubernetesResources(GatewayController.GATEWAY_API, "HTTPRoute").withName("by-model").delete();
        await().atMost(WAIT).untilAsserted(() -> {
          assertThat(status(client, "inference.networking.k8s.io/v1", "InferencePool", "llama").path("parents"))
              .isEmpty();
          assertThat(status(client, GatewayController.GATEWAY_API, "Gateway", "inference").path("listeners").get(0)
              .path("attachedRoutes").asInt()).isZero();
          assertThat(chat(listenerPort, "/v1/chat/completions", "qwen").statusCode()).isEqualTo(404);
        });
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get();
    }
  }
}
