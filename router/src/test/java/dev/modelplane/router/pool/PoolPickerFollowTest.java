package dev.modelplane.router.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.extproc.GrpcTls;
import dev.modelplane.router.gateway.GatewayOptions;
import dev.modelplane.router.testing.FakeModelServer;
import dev.modelplane.router.testing.LoopbackNames;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway following each InferencePool's {@code endpointPickerRef} against a real kube-apiserver: the picker
 * Service {@code epp} has no ClusterIP route, only an EndpointSlice whose endpoint is a second router's ext_proc
 * server on loopback, which always picks model server b (the only one it knows), whereas the gateway on its own
 * would pick a (b reports a queue and a fuller KV cache; not so full that the pool counts as saturated). Stopping
 * the picker then shows each pool's failure mode. The apiserver refuses loopback IPs in EndpointSlices, so the slice
 * is of type FQDN with a name that {@link LoopbackNames} maps to 127.0.0.1.
 */
@WithControlPlane
class PoolPickerFollowTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private final Vertx vertx = Vertx.vertx();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static void create(KubernetesClient client, String yaml) {
    client.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
  }

  private static void pool(KubernetesClient client, String name, int port, String picker, String failureMode) {
    create(client, """
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata: {name: %s}
        spec:
          selector: {matchLabels: {app: vllm}}
          targetPorts: [{number: %d}]
          endpointPickerRef: {name: %s, port: {number: 9002}, failureMode: %s}
        """.formatted(name, port, picker, failureMode));
  }

  private static void pod(KubernetesClient client, String name, String ip) {
    Pod pod = client.pods().resource(new PodBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of("app", "vllm")).endMetadata()
        .withNewSpec().addNewContainer().withName("server").withImage("vllm/vllm-openai").endContainer().endSpec()
        .build()).create();
    pod.setStatus(new PodStatusBuilder().withPhase("Running").withPodIP(ip)
        .addNewCondition().withType("Ready").withStatus("True").endCondition().build());
    client.pods().resource(pod).updateStatus();
  }

  private Router gateway(KubernetesClient client, String ns, RouterOptions.PickerRefs mode) throws Exception {
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false);
    Router router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, null, List.of(), ns, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)
        .withEppTls(GrpcTls.ClientTls.PLAINTEXT).withPickerRefs(mode));
    closeables.add(router);
    KubernetesDiscovery discovery = router.discover(client, new KubernetesDiscovery.Selection(List.of(), ns),
        Duration.ofMillis(200));
    router.start();
    discovery.start();
    await().atMost(WAIT).until(() -> router.pools().unavailableReason() == null && router.pools().pools().size() == 3
        && router.pools().pools().stream().allMatch(p -> p.endpoints().size() == 2));
    return router;
  }

  private HttpResponse<String> post(Router router, String ns, String pool) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.gatewayPort()
            + "/inference-pools/" + ns + "/" + pool + "/v1/completions")).timeout(Duration.ofSeconds(20))
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"hi\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String servedBy(HttpResponse<String> r) {
    return r.headers().firstValue("x-gateway-destination-endpoint-served").orElse("");
  }

  @Test
  void poolsArePickedByThePickerTheyNameAndFailOpenOrClosedWithoutIt(KubeTest kube) throws Exception {
    KubernetesClient client = kube.client();
    String ns = kube.namespace();
    int port = FreePorts.pickOnEveryAddress();
    FakeModelServer a = new FakeModelServer(vertx, "a").bind("127.0.0.2", port).start();
    FakeModelServer b = new FakeModelServer(vertx, "b").bind("127.0.0.3", port).start().metrics(4, 0.7);
    closeables.add(a);
    closeables.add(b);
    Router picker = new Router(new RouterOptions("127.0.0.1", null, 0, -1, -1, b.hostPort(), List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)
        .withExtProcTls(GrpcTls.ServerTls.PLAINTEXT)).start();
    closeables.add(picker);
    String pickerHost = "epp" + LoopbackNames.SUFFIX;
    assertThat(java.net.InetAddress.getByName(pickerHost).isLoopbackAddress()).as("test resolver loaded").isTrue();
    String pickerAddress = pickerHost + ":" + picker.extProcPort();

    client.serviceAccounts().resource(new ServiceAccountBuilder().withNewMetadata().withName("default")
        .endMetadata().build()).create();
    create(client, """
        apiVersion: v1
        kind: Service
        metadata: {name: epp}
        spec:
          ports: [{name: metrics, port: 9090}, {name: grpc, port: 9002}]
        """);
    create(client, """
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata:
          name: epp-1
          labels: {kubernetes.io/service-name: epp}
        addressType: FQDN
        endpoints: [{addresses: [%s], conditions: {ready: true}}]
        ports: [{name: metrics, port: 1}, {name: grpc, port: %d}]
        """.formatted(pickerHost, picker.extProcPort()));
    pool(client, "open", port, "epp", "FailOpen");
    pool(client, "closed", port, "epp", "FailClose");
    pool(client, "orphan", port, "missing", "FailClose");
    pod(client, "vllm-a", "127.0.0.2");
    pod(client, "vllm-b", "127.0.0.3");

    Router following = gateway(client, ns, RouterOptions.PickerRefs.FOLLOW);
    Router inProcess = gateway(client, ns, RouterOptions.PickerRefs.IN_PROCESS);
    await().atMost(WAIT).until(() -> servedBy(post(inProcess, ns, "closed")).equals(a.hostPort()));

    // 1. The picker decides, for both failure modes: b, which the gateway itself would not choose.
    for (String pool : List.of("open", "closed", "open", "closed")) {
      HttpResponse<String> r = post(following, ns, pool);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(servedBy(r)).as(pool).isEqualTo(b.hostPort());
    }
    assertThat(picker.metrics().scrape()).containsPattern(
        "inference_objective_request_total\\{model_name=\"m\",priority=\"0\",target_model_name=\"m\"} 4");
    assertThat(following.poolPickers().openAddresses()).containsExactly(pickerAddress);
    // A pool naming a Service that does not exist: its picker fails, and FailClose answers 503 naming it.
    HttpResponse<String> orphan = post(following, ns, "orphan");
    assertThat(orphan.statusCode()).isEqualTo(503);
    assertThat(orphan.body()).contains("endpoint picker " + ns + "/missing has no ready endpoint (Service " + ns
        + "/missing not found)");
    // in-process ignores every reference.
    assertThat(inProcess.poolPickers()).isNull();
    assertThat(post(inProcess, ns, "orphan").statusCode()).isEqualTo(200);

    // 2. The picker stops: FailOpen still answers, FailClose answers 503 naming the picker.
    closeables.remove(picker);
    picker.close();
    HttpResponse<String> open = post(following, ns, "open");
    assertThat(open.statusCode()).as(open.body()).isEqualTo(200);
    HttpResponse<String> closed = post(following, ns, "closed");
    assertThat(closed.statusCode()).isEqualTo(503);
    assertThat(closed.body()).contains("endpoint picker " + ns + "/epp at " + pickerAddress + " unavailable");
    HttpResponse<String> ignored = post(inProcess, ns, "closed");
    assertThat(ignored.statusCode()).as(ignored.body()).isEqualTo(200);

    // 3. The picker's endpoint leaves: its channel is closed; FailOpen picks in-process, FailClose says why not.
    client.resources(io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice.class).withName("epp-1").delete();
    await().atMost(WAIT).until(() -> following.poolPickers().openAddresses().isEmpty());
    HttpResponse<String> inProcessOpen = post(following, ns, "open");
    assertThat(inProcessOpen.statusCode()).as(inProcessOpen.body()).isEqualTo(200);
    assertThat(servedBy(inProcessOpen)).isEqualTo(a.hostPort());
    HttpResponse<String> noEndpoint = post(following, ns, "closed");
    assertThat(noEndpoint.statusCode()).isEqualTo(503);
    assertThat(noEndpoint.body()).contains("endpoint picker " + ns + "/epp has no ready endpoint");
  }
}
