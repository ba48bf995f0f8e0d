package dev.modelplane.router.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.extproc.GrpcTls;
import dev.modelplane.router.gateway.GatewayOptions;
import dev.modelplane.router.testing.FakeModelServer;
import com.google.protobuf.ByteString;
import dev.modelplane.testsupport.FreePorts;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The router and a kube-apiserver that is down: started without it, the router waits (503 with the reason, not
 * ready), then routes once the apiserver answers; with the apiserver killed under traffic it keeps routing on the
 * last known endpoints and picks up a pod added while it was away. A control plane of its own (not the shared one),
 * since its apiserver is killed; the pods' addresses are loopback ones served by in-test model servers.
 */
@WithControlPlane
class ApiServerOutageTest {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String NS = "default";
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private static void pool(KubernetesClient client, int port) {
    client.resource(Serialization.unmarshal("""
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata:
          name: llama
          namespace: default
        spec:
          selector:
            matchLabels:
              app: vllm
          targetPorts: [{number: %d}]
          endpointPickerRef:
            name: epp
            port: {number: 9002}
        """.formatted(port), GenericKubernetesResource.class)).create();
  }

  private static void pod(KubernetesClient client, String name, String ip) {
    Pod pod = client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of("app", "vllm")).endMetadata()
        .withNewSpec().addNewContainer().withName("server").withImage("vllm/vllm-openai").endContainer().endSpec()
        .build()).create();
    pod.setStatus(new PodStatusBuilder().withPhase("Running").withPodIP(ip)
        .addNewCondition().withType("Ready").withStatus("True").endCondition().build());
    client.pods().inNamespace(NS).resource(pod).updateStatus();
  }

  private HttpResponse<String> get(Router router, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.gatewayPort() + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(Router router) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.gatewayPort()
            + "/v1/chat/completions")).timeout(Duration.ofSeconds(10)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"hi\"}]}")).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The picker's first answer to a request without a body (any endpoint will do for it). */
  private static ProcessingResponse extProcFirstAnswer(ManagedChannel channel) throws Exception {
    CompletableFuture<ProcessingResponse> first = new CompletableFuture<>();
    StreamObserver<ProcessingRequest> stream = ExternalProcessorGrpc.newStub(channel).process(new StreamObserver<>() {
      @Override
      public void onNext(ProcessingResponse value) {
        first.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        first.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        first.completeExceptionally(new AssertionError("stream ended without an answer"));
      }
    });
    HeaderMap.Builder h = HeaderMap.newBuilder();
    Map.of(":method", "POST", ":path", "/v1/completions", ":authority", "gw").forEach((k, v) ->
        h.addHeaders(HeaderValue.newBuilder().setKey(k).setRawValue(ByteString.copyFromUtf8(v))));
    stream.onNext(ProcessingRequest.newBuilder().setRequestHeaders(HttpHeaders.newBuilder().setHeaders(h)
        .setEndOfStream(true)).build());
    try {
      return first.get(10, TimeUnit.SECONDS);
    } finally {
      stream.onCompleted();
    }
  }

  @Test
  void startsWithoutTheApiServerThenRoutesAndKeepsRoutingThroughAnApiServerRestart() throws Exception {
    Vertx vertx = Vertx.vertx();
    int port = FreePorts.pickOnEveryAddress();
    FakeModelServer a = new FakeModelServer(vertx, "a").bind("127.0.0.2", port).start();
    FakeModelServer b = new FakeModelServer(vertx, "b").bind("127.0.0.3", port).start();
    try (ControlPlane cp = ControlPlane.start()) {
      cp.installCrds();
      KubernetesClient admin = cp.client();
      admin.serviceAccounts().inNamespace(NS).resource(new ServiceAccountBuilder().withNewMetadata()
          .withName("default").endMetadata().build()).create();
      pool(admin, port);
      pod(admin, "vllm-a", "127.0.0.2");
      cp.stopCore(ControlPlane.Core.KUBE_APISERVER, true);

      PoolKey llama = new PoolKey(NS, "llama");
      GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false);
      try (KubernetesClient routerClient = cp.newClient();
          Router router = new Router(new RouterOptions("127.0.0.1", gw, 0, -1, -1, null, List.of(llama), null, null,
              MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)
              .withExtProcTls(GrpcTls.ServerTls.PLAINTEXT))) {
        KubernetesDiscovery discovery = new KubernetesDiscovery(routerClient, router.pools(),
            new KubernetesDiscovery.Selection(List.of(llama), NS));
        router.attachDiscovery(discovery);
        router.followSync(discovery::unavailableReason, discovery::degradedReason, Duration.ofMillis(200));
        router.start();
        discovery.start();
        ManagedChannel channel = GrpcTls.channel("127.0.0.1:" + router.extProcPort(), GrpcTls.ClientTls.PLAINTEXT);
        try {
          // 1. No apiserver: up, not ready, and both front ends say why.
          await().atMost(WAIT).until(() -> String.valueOf(router.pools().unavailableReason())
              .contains("the Kubernetes API is unreachable"));
          HttpResponse<String> readyz = get(router, "/readyz");
          assertThat(readyz.statusCode()).isEqualTo(503);
          assertThat(readyz.body()).contains("endpoint discovery has not synced");
          HttpResponse<String> refused = post(router);
          assertThat(refused.statusCode()).isEqualTo(503);
          assertThat(refused.body()).contains("\"type\":\"service_unavailable\"")
              .contains("endpoint discovery has not synced: the Kubernetes API is unreachable");
          ProcessingResponse immediate = extProcFirstAnswer(channel);
          assertThat(immediate.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
          assertThat(immediate.getImmediateResponse().getBody().toStringUtf8())
              .contains("the Kubernetes API is unreachable");

          // 2. The apiserver comes up: the pool appears and requests route.
          long upAt = System.nanoTime();
          cp.startCore(ControlPlane.Core.KUBE_APISERVER);
          await().atMost(WAIT).until(() -> get(router, "/readyz").statusCode() == 200);
          System.out.printf("apiserver outage: ready %d ms after the apiserver came up%n",
              (System.nanoTime() - upAt) / 1_000_000);
          await().atMost(WAIT).until(() -> router.pools().get(llama).endpoints().size() == 1);
          HttpResponse<String> routed = post(router);
          assertThat(routed.statusCode()).as(routed.body()).isEqualTo(200);
          assertThat(routed.body()).contains("hello from a");
          assertThat(extProcFirstAnswer(channel).hasRequestHeaders()).isTrue();

          // 3. The apiserver killed under traffic: every request still routes on the last known endpoints.
          Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
          AtomicBoolean stop = new AtomicBoolean();
          CompletableFuture<Integer> traffic = CompletableFuture.supplyAsync(() -> {
            int sent = 0;
            long end = System.nanoTime() + WAIT.multipliedBy(2).toNanos();
            while (!stop.get() && System.nanoTime() < end && sent < 20_000) {
              try {
                statuses.merge(post(router).statusCode(), 1, Integer::sum);
              } catch (Exception e) {
                statuses.merge(-1, 1, Integer::sum);
              }
              sent++;
            }
            return sent;
          });
          cp.stopCore(ControlPlane.Core.KUBE_APISERVER, true);
          await().atMost(WAIT).until(() -> !discovery.watching());
          Thread.sleep(2_000);
          assertThat(router.pools().unavailableReason()).isNull();
          assertThat(get(router, "/readyz").statusCode()).isEqualTo(200);
          cp.startCore(ControlPlane.Core.KUBE_APISERVER);
          // A pod added right as the apiserver returns, before the router's informers have reconnected.
          pod(cp.client(), "vllm-b", "127.0.0.3");
          a.metrics(8, 0.9); // a now looks busy: new requests go to b once it is known
          long back = System.nanoTime();
          await().atMost(WAIT).until(() -> router.pools().get(llama).endpoints().size() == 2);
          System.out.printf("apiserver outage: pod added during the outage routed-to %d ms after the restart%n",
              (System.nanoTime() - back) / 1_000_000);
          await().atMost(WAIT).until(() -> post(router).body().contains("hello from b"));
          stop.set(true);
          int sent = traffic.get(WAIT.toSeconds(), TimeUnit.SECONDS);
          System.out.printf("apiserver outage: %d requests during the kill and restart, statuses %s%n", sent,
              statuses);
          assertThat(statuses.keySet()).containsOnly(200);
          assertThat(sent).isPositive();
        } finally {
          channel.shutdownNow();
        }
      }
    } finally {
      a.close();
      b.close();
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
