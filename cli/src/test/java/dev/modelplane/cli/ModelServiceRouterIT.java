package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.ModelServiceSettings;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.app.ModelplaneOperator;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The endpoint picker exactly as the operator generates it for a prefill/decode ModelService: its arguments and its
 * configuration are read back from the Deployment and the ConfigMap in the apiserver, and {@code modelplane router}
 * runs with them (only the listen address, the ports and the file path made local), serving the InferencePool from
 * the apiserver and routing real requests to simulators at the serving pods' addresses — decode pods only, with
 * prefill/decode decisions taken by OtterScale's P/D configuration.
 */
@WithControlPlane
class ModelServiceRouterIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final String MODEL = "Qwen/Qwen3-0.6B";
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final List<Process> processes = new ArrayList<>();
  private ModelplaneOperator operator;

  @TempDir
  Path dir;

  @AfterEach
  void stop() throws Exception {
    if (operator != null) {
      operator.close();
    }
    for (Process p : processes) {
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  private Process start(String name, List<String> args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", OperatorFixtures.jar().toAbsolutePath().toString()));
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve(name + ".log").toFile());
    Process p = pb.start();
    processes.add(p);
    return p;
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void servingPod(KubernetesClient client, String name, Deployment d, String ip) {
    Pod pod = client.pods().resource(new PodBuilder().withNewMetadata().withName(name)
        .withLabels(d.getSpec().getTemplate().getMetadata().getLabels()).endMetadata()
        .withNewSpec().addNewContainer().withName("vllm").withImage("vllm/vllm-openai").endContainer().endSpec()
        .build()).create();
    pod.setStatus(new PodStatusBuilder().withPhase("Running").withPodIP(ip)
        .addNewCondition().withType("Ready").withStatus("True").endCondition().build());
    client.pods().resource(pod).updateStatus();
  }

  @Test
  void theRouterServesThePoolWithThePickerArgumentsAndConfigurationTheOperatorGenerated(KubeTest test)
      throws Exception {
    KubernetesClient client = test.client();
    String ns = test.namespace();
    // No controller-manager: the service account pods are admitted against, and the pods themselves, by hand.
    client.serviceAccounts().resource(new ServiceAccountBuilder().withNewMetadata().withName("default")
        .endMetadata().build()).create();
    ModelServiceSettings msSettings = new ModelServiceSettings(null, null, null, "", "", null,
        ModelServiceSettings.Provider.NONE, false, null);
    operator = ModelplaneOperator.create(client, OperatorSettings.defaults().toBuilder()
        .modelCache(OperatorSettings.ModelCacheSettings.disabled()).modelService(msSettings).build(),
        new SimpleMeterRegistry(), null).start();
    int enginePort = FreePorts.pick();
    client.resource(Serialization.unmarshal("""
        apiVersion: model.otterscale.io/v1alpha1
        kind: ModelService
        metadata: {name: qwen, namespace: %s}
        spec:
          model: {name: %s, image: registry.example/models/qwen3:0.6b}
          engine: {port: %d}
          accelerator: {type: cpu}
          decode: {replicas: 2}
          prefill: {replicas: 1}
          routingProxy: {targetPort: %d}
        """.formatted(ns, MODEL, enginePort, enginePort + 1), ModelService.class)).create();
    await().atMost(TIMEOUT).until(() -> client.apps().deployments().inNamespace(ns).withName("qwen-epp").get() != null
        && client.configMaps().inNamespace(ns).withName("qwen-epp-config").get() != null
        && client.apps().deployments().inNamespace(ns).withName("qwen-prefill").get() != null);
    Deployment picker = client.apps().deployments().inNamespace(ns).withName("qwen-epp").get();
    List<String> generated = picker.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
    ConfigMap config = client.configMaps().inNamespace(ns).withName("qwen-epp-config").get();
    assertThat(config.getData()).containsOnlyKeys("pd-config.yaml");
    Path configFile = dir.resolve("pd-config.yaml");
    Files.writeString(configFile, config.getData().get("pd-config.yaml"));

    // Simulators where the serving pods are: two decode, one prefill.
    Map<String, String> decodeIps = Map.of("qwen-decode-0", "127.0.31.1", "qwen-decode-1", "127.0.31.2");
    String prefillIp = "127.0.31.3";
    for (String ip : List.of("127.0.31.1", "127.0.31.2", prefillIp)) {
      start("sim-" + ip, List.of("simulator", "--model", MODEL, "--host", ip, "--port", String.valueOf(enginePort)));
    }
    Deployment decode = client.apps().deployments().inNamespace(ns).withName("qwen-decode").get();
    Deployment prefill = client.apps().deployments().inNamespace(ns).withName("qwen-prefill").get();
    decodeIps.forEach((name, ip) -> servingPod(client, name, decode, ip));
    servingPod(client, "qwen-prefill-0", prefill, prefillIp);

    // The generated arguments, with the listen address, ports and config path made local.
    int gatewayPort = FreePorts.pick();
    int grpcPort = FreePorts.pick();
    int healthPort = FreePorts.pick();
    int metricsPort = FreePorts.pick();
    List<String> args = new ArrayList<>();
    for (String a : generated) {
      if (a.startsWith("--host=")) {
        args.add("--host=127.0.0.1");
      } else if (a.startsWith("--grpc-port=")) {
        args.add("--grpc-port=" + grpcPort);
      } else if (a.startsWith("--config-file=")) {
        args.add("--config-file=" + configFile);
      } else {
        args.add(a);
      }
    }
    // Only what no operator setting changes: an operator another test left on the shared control plane may
    // reconcile this ModelService too, with its own settings (metrics authentication, say).
    assertThat(args).first().isEqualTo("router");
    assertThat(args).contains("--pool-name=qwen", "--pool-namespace=" + ns, "--zap-encoder=json");
    args.addAll(List.of("--port=" + gatewayPort, "--grpc-health-port=" + healthPort, "--metrics-port=" + metricsPort));
    ProcessBuilder routerProcess = new ProcessBuilder();
    routerProcess.environment().put("KUBECONFIG", test.controlPlane().kubeconfig().toString());
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", OperatorFixtures.jar().toAbsolutePath().toString()));
    command.addAll(args);
    Process router = routerProcess.command(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("router.log").toFile()).start();
    processes.add(router);

    await().atMost(TIMEOUT).ignoreExceptions().until(() -> get(gatewayPort, "/readyz").statusCode() == 200
        && get(gatewayPort, "/health").body().contains("\"endpoints\":3"));
    Set<String> served = new HashSet<>();
    String system = "You answer questions about the history of computing in exactly one sentence. ".repeat(20);
    for (int i = 0; i < 8; i++) {
      String body = "{\"model\":\"" + MODEL + "\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\""
          + system + " Question " + i + ": who wrote the first compiler?\"}]}";
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gatewayPort
          + "/v1/chat/completions")).timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      served.add(r.headers().firstValue("x-gateway-destination-endpoint-served").orElseThrow());
    }
    // Requests go to decode pods only; the prefill pod is named to them, never chosen as the destination.
    assertThat(served).isNotEmpty().allMatch(hp -> hp.startsWith("127.0.31.1:") || hp.startsWith("127.0.31.2:"));
    String metrics = get(metricsPort, "/metrics").body();
    assertThat(metrics.lines().filter(l -> l.startsWith("modelplane_router_disagg_decisions_total")
        && !l.contains("decode-only")).map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .reduce(0.0, Double::sum)).as(metrics.lines().filter(l -> l.contains("disagg")).toList().toString())
        .isPositive();
    assertThat(Files.readString(dir.resolve("router.log"), StandardCharsets.UTF_8)).contains("\"level\":\"INFO\"");
  }
}
