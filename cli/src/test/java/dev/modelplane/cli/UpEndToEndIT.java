package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.controlplane.ControlPlaneBinaries;
import dev.modelplane.controlplane.Edits;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code modelplane up} as a user runs it, then the platform it starts: the official OpenAI Python SDK streams a chat
 * completion through the router to a live llama.cpp pod; a 3-replica service shows the router spreading distinct
 * prompts and keeping a shared prefix on one pod; scale to zero gives a clear 503; delete stops the simulators;
 * {@code down} stops everything.
 */
class UpEndToEndIT {
  @TempDir
  static Path state;
  static int port;
  static List<String> upArgs;
  static HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @BeforeAll
  static void binaries() throws IOException {
    if (ControlPlaneBinaries.find().isEmpty()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no control-plane binaries: run hack/control-plane/build.sh");
      }
      Assumptions.abort("skipped: " + ControlPlaneBinaries.missingMessage());
    }
    upArgs = upArgs(state, "5m");
  }

  /**
   * The options of every {@code up} a test runs on the platform in {@code state}: each port picked free by {@code up}
   * itself (the ones chosen are in platform.json), and the timeout.
   */
  static List<String> upArgs(Path state, String timeout) {
    return List.of("--state-dir", state.toString(), "--port", "0", "--grpc-port", "0", "--grpc-health-port", "0",
        "--metrics-port", "0", "--operator-port", "0", "--timeout", timeout);
  }

  @AfterAll
  static void down() throws Exception {
    if (state != null && Files.exists(state)) {
      modelplane(List.of("down", "--state-dir", state.toString()), 120);
    }
  }

  @Test
  void upServesTheQuickstartThenSpreadsScalesToZeroAndStops() throws Exception {
    Run up = modelplane(concat(List.of("up"), upArgs), 600);
    assertThat(up.exit()).as(up.output()).isZero();
    PlatformState started = PlatformState.read(state).orElseThrow();
    port = started.port();
    assertThat(started.ports()).as("every port picked").hasValueSatisfying(p -> assertThat(p.all()).doesNotContain(0)
        .doesNotHaveDuplicates());
    assertThat(up.output()).contains("  ports: " + started.ports().orElseThrow().describe() + "\n");
    assertThat(up.output()).contains("[1/5]", "[5/5]", "InferenceService/qwen-chat: Ready",
        "InferencePool/qwen-chat: 1 ready endpoint", "OpenAI base URL: http://127.0.0.1:" + port + "/v1",
        "stop:     ./modelplane down --state-dir " + state);
    String base = "http://127.0.0.1:" + port + "/v1";

    // The live view whose address the summary prints shows the pool and the request `up` sent to check it.
    String live = "http://127.0.0.1:" + started.metricsPort() + "/ui";
    assertThat(up.output()).contains("live:     " + live + "\n");
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(live)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
    JsonNode liveState = DevClusterCommand.JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(live + "/state"))
        .build(), HttpResponse.BodyHandlers.ofString()).body());
    assertThat(liveState.at("/pools/0/name").asText()).isEqualTo("qwen-chat");
    assertThat(liveState.at("/pools/0/namespace").asText()).isEqualTo("default");
    assertThat(liveState.at("/decisions/0/model").asText()).isEqualTo("qwen2-5-0-5b-instruct");
    assertThat(liveState.at("/decisions/0/status").asInt()).isEqualTo(200);

    // The curl line it prints works as printed.
    String curl = up.output().substring(up.output().indexOf("curl "), up.output().indexOf("}]}'") + 4);
    assertThat(curl).as("an OpenAI request names only the model").doesNotContain("x-modelplane");
    Run curlRun = run(List.of("bash", "-c", curl + " --silent --show-error --fail"), 60);
    assertThat(curlRun.exit()).as(curlRun.output()).isZero();
    assertThat(curlRun.output()).contains("\"object\":\"chat.completion\"");

    // The llama.cpp server lists the Model's name (its --alias), not the model file's path.
    HttpResponse<String> models = http.send(HttpRequest.newBuilder(URI.create(base + "/models")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(models.statusCode()).as(models.body()).isEqualTo(200);
    assertThat(DevClusterCommand.JSON.readTree(models.body()).at("/data/0/id").asText())
        .isEqualTo("qwen2-5-0-5b-instruct");

    // The official OpenAI Python SDK streams through the router.
    List<String> clients = setupClients();
    Run sdk = run(List.of(clients.get(0), "-c", """
        import sys, openai
        c = openai.OpenAI(base_url=sys.argv[1], api_key="unused")
        s = c.chat.completions.create(model="qwen2-5-0-5b-instruct", stream=True, max_tokens=8,
            messages=[{"role": "user", "content": "Hello from the SDK"}], extra_body={"ignore_eos": True})
        parts = [ch.choices[0].delta.content or "" for ch in s if ch.choices]
        print("chunks", len(parts))
        print("models", ",".join(m.id for m in c.models.list()))
        """, base), 120);
    assertThat(sdk.exit()).as(sdk.output()).isZero();
    assertThat(Integer.parseInt(sdk.output().replaceAll("(?s).*chunks (\\d+).*", "$1"))).isEqualTo(8);
    assertThat(sdk.output()).contains("models qwen2-5-0-5b-instruct\n");

    // The official Anthropic Python SDK, given only the gateway's address, asks /v1/messages for the same model.
    Run messages = run(List.of(clients.get(0), "-c", """
        import sys, anthropic
        c = anthropic.Anthropic(base_url=sys.argv[1], api_key="unused")
        m = c.messages.create(model="qwen2-5-0-5b-instruct", max_tokens=8,
            messages=[{"role": "user", "content": "Hello from the Anthropic SDK"}])
        print("message", m.type, m.role, m.stop_reason in ("max_tokens", "end_turn"), len(m.content[0].text) > 0)
        """, "http://127.0.0.1:" + port), 120);
    assertThat(messages.exit()).as(messages.output()).isZero();
    assertThat(messages.output()).contains("message message assistant True True");

    // The user CLI on the same platform: list, and chat streamed through the router.
    String kubeconfig = state.resolve("kubeconfig").toString();
    Run list = modelplane(List.of("list", "--kubeconfig", kubeconfig), 60);
    assertThat(list.output()).containsPattern("default\\s+inferenceservice.llmkube\\s+qwen-chat\\s+Ready");
    Run chat = modelplane(List.of("chat", "qwen-chat", "Hello", "--max-tokens", "6", "--kubeconfig", kubeconfig,
        "--url", base), 60);
    assertThat(chat.exit()).as(chat.output()).isZero();
    assertThat(chat.output().strip()).isNotEmpty();
    Run status = modelplane(List.of("status", "qwen-chat", "--kubeconfig", kubeconfig), 60);
    assertThat(status.exit()).as(status.output()).isZero();
    assertThat(status.output()).contains("Status:").doesNotContain("loopback");
    // They print only their answer: no library warnings, no log lines (stdout and stderr are one stream here).
    for (Run quiet : List.of(list, chat, status)) {
      assertThat(quiet.output()).doesNotContainPattern("\\b(WARN|WARNING|INFO|DEBUG)\\b|level=|SLF4J|\\tat ");
    }

    // A second service with three replicas, applied by `up -f` on the running platform.
    Path spread = state.resolve("spread.yaml");
    Files.writeString(spread, SPREAD);
    Run again = modelplane(concat(List.of("up", "-f", spread.toString()), upArgs), 600);
    assertThat(again.exit()).as(again.output()).isZero();
    assertThat(again.output()).contains("already running", "already run", "InferencePool/spread: 3 ready endpoints",
        "  ports: " + started.ports().orElseThrow().describe() + "\n", "OpenAI base URL: " + base);

    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(state.resolve("kubeconfig")))).build()) {
      List<String> ips = client.pods().inNamespace("default").withLabel("app", "spread").list().getItems().stream()
          .map(p -> p.getStatus().getPodIP()).toList();
      assertThat(ips).hasSize(3).allSatisfy(ip -> assertThat(ip).startsWith("127."));

      Map<String, Double> before = served(ips);
      ExecutorService pool = Executors.newFixedThreadPool(3);
      List<Future<Integer>> distinct = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        String prompt = "request " + i + " " + "distinct words ".repeat(20) + i;
        distinct.add(pool.submit(() -> chat("default/spread", prompt).statusCode()));
      }
      for (Future<Integer> f : distinct) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(200);
      }
      pool.shutdown();
      Map<String, Double> afterDistinct = served(ips);
      assertThat(ips).allSatisfy(ip -> assertThat(afterDistinct.get(ip) - before.get(ip))
          .as("requests served by %s of 30 distinct prompts", ip).isPositive());

      String shared = "You are a careful assistant for a large retailer. ".repeat(60);
      for (int i = 0; i < 20; i++) {
        assertThat(chat("default/spread", shared + " Question " + i).statusCode()).isEqualTo(200);
      }
      Map<String, Double> afterShared = served(ips);
      assertThat(ips.stream().map(ip -> afterShared.get(ip) - afterDistinct.get(ip)).toList())
          .as("requests per pod for 20 prompts sharing a prefix").contains(20.0);

      // The Gateway API: up's GatewayClass is accepted; a Gateway of it gets a listener on the router, and an
      // HTTPRoute matching the body's model (X-Gateway-Model-Name) sends the quickstart's model to its pool.
      await().atMost(Duration.ofSeconds(30)).until(() -> String.valueOf(client.genericKubernetesResources(
          "gateway.networking.k8s.io/v1", "GatewayClass").withName("modelplane").get().getAdditionalProperties()
          .get("status")).contains("reason=Accepted, status=True"));
      int listener = dev.modelplane.testsupport.FreePorts.pick();
      client.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
          apiVersion: gateway.networking.k8s.io/v1
          kind: Gateway
          metadata: {name: up-gateway, namespace: default}
          spec:
            gatewayClassName: modelplane
            listeners: [{name: http, protocol: HTTP, port: %d}]
          """.formatted(listener), io.fabric8.kubernetes.api.model.GenericKubernetesResource.class)).create();
      client.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
          apiVersion: gateway.networking.k8s.io/v1
          kind: HTTPRoute
          metadata: {name: by-model, namespace: default}
          spec:
            parentRefs: [{name: up-gateway}]
            rules:
            - matches: [{headers: [{name: X-Gateway-Model-Name, value: qwen2-5-0-5b-instruct}]}]
              backendRefs: [{group: inference.networking.k8s.io, kind: InferencePool, name: qwen-chat}]
          """, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class)).create();
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> { // until the listener is up
        HttpResponse<String> routed = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listener
                + "/v1/chat/completions")).timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"model\": \"qwen2-5-0-5b-instruct\", \"max_tokens\": 4, "
                + "\"messages\": [{\"role\": \"user\", \"content\": \"Hello through a Gateway\"}]}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(routed.statusCode()).as(routed.body()).isEqualTo(200);
      });
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(String.valueOf(client
          .genericKubernetesResources("inference.networking.k8s.io/v1", "InferencePool").inNamespace("default")
          .withName("qwen-chat").get().getAdditionalProperties().get("status")))
          .contains("name=up-gateway", "reason=Accepted"));

      // The Inference Extension's conformance suite (the tests this machine can drive; docs/api-compatibility.md,
      // "Conformance") against this platform. Its Gateways listen on port 80.
      if (canBind(80)) {
        Run conformance = run(List.of("bash", OperatorFixtures.repoRoot().resolve("hack/conformance/gie.sh").toString(),
            "--kubeconfig", state.resolve("kubeconfig").toString()), 900);
        assertThat(conformance.exit()).as(conformance.output()).isZero();
        assertThat(conformance.output()).contains("PASS: TestConformance/InferencePoolAccepted",
            "PASS: TestConformance/HTTPRouteInvalidInferencePoolRef", "PASS: TestConformance/InferencePoolMissingEPPRef",
            "PASS: TestConformance/InferencePoolInvalidEPPService", "4 passed, 0 failed, 10 skipped");
      } else if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("the conformance suite's Gateways listen on port 80, which this user may "
            + "not bind: run the tests as root or give the JVM CAP_NET_BIND_SERVICE");
      }

      // Scale to zero: the router answers 503 with a clear body.
      Edits.onLatest(client.genericKubernetesResources("inference.llmkube.dev/v1alpha1", "InferenceService")
          .inNamespace("default").withName("spread"), r -> {
            ((Map<String, Object>) r.getAdditionalProperties().get("spec")).put("replicas", 0);
            return r;
          });
      await().atMost(Duration.ofSeconds(90)).until(() -> client.pods().inNamespace("default")
          .withLabel("app", "spread").list().getItems().isEmpty());
      // Until the router has seen the pods go, a request may still reach a stopped simulator (503, connection
      // refused); then every request gets the clear answer.
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
        HttpResponse<String> none = chat("default/spread", "anyone?");
        assertThat(none.statusCode()).isEqualTo(503);
        assertThat(none.body()).contains("\"error\"").containsIgnoringCase("no ready endpoint");
      });
      // The pods are gone at once; their simulators stop within the grace period (SIGTERM, SIGKILL after 5 s).
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> ips.forEach(ip ->
          assertThat(listening(ip, 8080)).as("simulator on %s stopped", ip).isFalse()));

      // A simulator killed is a container restart: not Ready, restarted after a backoff, Ready again.
      Pod qwen = client.pods().inNamespace("default").withLabel("app", "qwen-chat").list().getItems().get(0);
      String ip = qwen.getStatus().getPodIP();
      ProcessHandle simulator = ProcessHandle.allProcesses().filter(p -> p.info().arguments()
          .map(a -> String.join(" ", a)).filter(a -> a.contains("-Dmodelplane.live-pod=" + state)
              && a.contains("--host " + ip + " ")).isPresent()).findFirst().orElseThrow();
      simulator.destroyForcibly();
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
        Pod p = client.pods().inNamespace("default").withName(qwen.getMetadata().getName()).get();
        assertThat(p.getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(1);
        assertThat(p.getStatus().getContainerStatuses().get(0).getLastState().getTerminated().getExitCode())
            .isEqualTo(137);
        assertThat(p.getStatus().getConditions()).anySatisfy(c -> assertThat(c.getType() + "=" + c.getStatus())
            .isEqualTo("Ready=True"));
      });
      assertThat(listening(ip, 8080)).isTrue();

      // Delete the quickstart service: its simulator stops with its pod.
      client.genericKubernetesResources("inference.llmkube.dev/v1alpha1", "InferenceService").inNamespace("default")
          .withName("qwen-chat").delete();
      await().atMost(Duration.ofSeconds(90)).until(() -> !listening(qwen.getStatus().getPodIP(), 8080));
    }

    PlatformState platform = PlatformState.read(state).orElseThrow();
    Run down = modelplane(List.of("down", "--state-dir", state.toString()), 120);
    assertThat(down.exit()).as(down.output()).isZero();
    assertThat(down.output()).contains("router and operator stopped", "dev-cluster stopped");
    assertThat(PlatformState.alive(platform.operatorPid()) || PlatformState.alive(platform.routerPid())
        || PlatformState.alive(platform.clusterPid())).isFalse();
    assertThat(ProcessHandle.allProcesses().filter(p -> p.info().arguments()
        .map(a -> String.join(" ", a).contains("-Dmodelplane.live-pod=" + state)).orElse(false)).count()).isZero();
  }

  private static final String SPREAD = """
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: InferenceService
      metadata:
        name: spread
      spec:
        modelRef: qwen2-5-0-5b-instruct
        runtime: llamacpp
        replicas: 3
        contextSize: 65536
        parallelSlots: 4
        resources:
          cpu: "1"
          memory: 1Gi
      ---
      apiVersion: inference.networking.k8s.io/v1
      kind: InferencePool
      metadata:
        name: spread
      spec:
        selector:
          matchLabels:
            app: spread
        targetPorts:
        - number: 8080
        endpointPickerRef:
          name: modelplane-router
          port:
            number: 9002
      """;

  private static HttpResponse<String> chat(String pool, String prompt) throws IOException, InterruptedException {
    String body = "{\"model\":\"qwen2-5-0-5b-instruct\",\"max_tokens\":4,\"messages\":[{\"role\":\"user\","
        + "\"content\":" + DevClusterCommand.JSON.valueToTree(prompt) + "}]}";
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
        .header(EndpointCheck.POOL_HEADER, pool).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Successful requests each simulator has counted (its vLLM-style metric). */
  private static Map<String, Double> served(List<String> ips) throws IOException, InterruptedException {
    Map<String, Double> out = new HashMap<>();
    for (String ip : ips) {
      String text = http.send(HttpRequest.newBuilder(URI.create("http://" + ip + ":8080/metrics"))
          .timeout(Duration.ofSeconds(20)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      out.put(ip, text.lines().filter(l -> l.startsWith("vllm:request_success_total"))
          .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum());
    }
    return out;
  }

  private static boolean listening(String ip, int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(ip, port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static List<String> setupClients() throws Exception {
    Run r = run(List.of("bash", OperatorFixtures.repoRoot().resolve("hack/clients/setup.sh").toString()), 600);
    if (r.exit() != 0) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("hack/clients/setup.sh failed: " + r.output());
      }
      Assumptions.abort("the OpenAI SDKs could not be installed: " + r.output());
    }
    return r.output().lines().filter(l -> l.startsWith("/")).toList();
  }

  record Run(int exit, String output) {
  }

  /** Whether this process may listen on {@code port} of 127.0.0.1 (a privileged port needs root). */
  private static boolean canBind(int port) {
    try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
      probe.bind(new InetSocketAddress("127.0.0.1", port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  static Run modelplane(List<String> args, long timeoutSeconds) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dmodelplane.repo.root=" + OperatorFixtures.repoRoot(), "-jar", OperatorFixtures.jar().toString()));
    command.addAll(args);
    return run(command, timeoutSeconds);
  }

  static Run run(List<String> command, long timeoutSeconds) throws Exception {
    Path log = Files.createTempFile("modelplane-up-it", ".log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.deleteIfExists(log);
    return new Run(done ? p.exitValue() : -1, output);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
