package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The user commands (deploy, list, status, queue, delete, chat) against a real API server: output, exit codes. */
@WithControlPlane
class UserCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LLMKUBE = "inference.llmkube.dev/v1alpha1";

  private static MainTest.Result run(KubeTest test, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--kubeconfig", test.controlPlane().kubeconfig().toString(), "-n", test.namespace()));
    return MainTest.run(all.toArray(String[]::new));
  }

  @Test
  void deployDryRunPrintsTheModelServiceAndPoolWithTheRuntimePort() throws Exception {
    MainTest.Result yaml = MainTest.run("deploy", "chat", "--model", "https://example.com/m.gguf", "--dry-run");
    assertThat(yaml.code()).as(yaml.err()).isZero();
    List<JsonNode> docs = new ArrayList<>();
    new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class).<JsonNode>readValues(yaml.out())
        .forEachRemaining(docs::add);
    assertThat(docs).extracting(d -> d.path("kind").asText())
        .containsExactly("Model", "InferenceService", "InferencePool");
    assertThat(docs.get(1).at("/metadata/namespace").asText()).isEqualTo("default");
    assertThat(docs.get(2).at("/spec/targetPorts/0/number").asInt()).isEqualTo(8080);
    MainTest.Result json = MainTest.run("deploy", "big", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--runtime",
        "vllm", "--gpus", "2", "--priority", "high", "--dry-run", "-o", "json", "-n", "team-a");
    JsonNode list = JSON.readTree(json.out());
    assertThat(list.path("kind").asText()).isEqualTo("List");
    assertThat(list.at("/items/1/spec/resources/gpu").asInt()).isEqualTo(2);
    assertThat(list.at("/items/1/spec/priority").asText()).isEqualTo("high");
    assertThat(list.at("/items/2/spec/targetPorts/0/number").asInt()).isEqualTo(8000);
    assertThat(list.at("/items/0/metadata/namespace").asText()).isEqualTo("team-a");
  }

  @Test
  void badFlagsAreUsageErrors() {
    MainTest.Result negative = MainTest.run("deploy", "x", "--model", "m", "--replicas", "-1", "--dry-run");
    assertThat(negative.code()).isEqualTo(2);
    assertThat(negative.err()).contains("--replicas and --gpus must not be negative");
    MainTest.Result missing = MainTest.run("deploy", "x");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("Missing required option: '--model=SRC'");
    MainTest.Result format = MainTest.run("list", "-o", "xml");
    assertThat(format.code()).isEqualTo(2);
    assertThat(format.err()).contains("-o must be yaml, json or wide, not 'xml'");
    for (String command : List.of("deploy", "list", "status", "queue", "delete", "chat", "up", "down")) {
      MainTest.Result help = MainTest.run(command, "--help");
      assertThat(help.code()).as(command).isZero();
      assertThat(help.out()).as(command).contains("Usage: modelplane " + command);
    }
  }

  @Test
  void deployListStatusQueueAndDeleteAgainstTheApiServer(KubeTest test) throws Exception {
    MainTest.Result deploy = run(test, "deploy", "chat", "--model", "https://example.com/qwen.gguf", "--gpus", "1");
    assertThat(deploy.code()).as(deploy.err()).isZero();
    assertThat(deploy.out()).contains("Model " + test.namespace() + "/chat applied",
        "InferenceService " + test.namespace() + "/chat applied",
        "InferencePool " + test.namespace() + "/chat applied");
    KubernetesClient client = test.client();
    client.resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder().withApiVersion(LLMKUBE)
        .withKind("Model").withNewMetadata().withName("hand-made").endMetadata()
        .addToAdditionalProperties("spec", Map.of("source", "https://example.com/other.gguf")).build()).create();

    MainTest.Result list = run(test, "list");
    assertThat(list.code()).isZero();
    assertThat(list.out().lines().findFirst().orElseThrow()).startsWith("NAMESPACE").contains("KIND", "NAME",
        "STATUS", "AGE");
    assertThat(list.out()).contains("inferenceservice.llmkube", "model.llmkube", "inferencepool", "hand-made");
    assertThat(JSON.readTree(run(test, "list", "-o", "json").out()).path("items")).hasSize(4);
    assertThat(run(test, "list", "-o", "wide").out().lines().findFirst().orElseThrow()).contains("DETAIL");

    // What the operator would report for a service waiting for a GPU.
    var isvcs = client.genericKubernetesResources(LLMKUBE, "InferenceService").inNamespace(test.namespace());
    GenericKubernetesResource live = isvcs.withName("chat").get();
    live.getAdditionalProperties().put("status", Map.of("phase", "Pending", "queuePosition", 1,
        "effectivePriority", 10000, "schedulingStatus", "InsufficientGPU",
        "conditions", List.of(Map.of("type", "Available", "status", "False", "reason", "WaitingForGPU",
            "message", "1 GPU asked, none free", "lastTransitionTime", "2026-11-24T00:00:00Z"))));
    isvcs.resource(live).updateStatus();
    client.v1().events().inNamespace(test.namespace()).resource(new EventBuilder().withNewMetadata()
        .withName("chat.1").endMetadata().withNewInvolvedObject().withKind("InferenceService").withName("chat")
        .withNamespace(test.namespace()).endInvolvedObject().withType("Warning").withReason("Unschedulable")
        .withMessage("0/1 nodes have a free GPU").withLastTimestamp("2026-11-24T00:00:00Z").build()).create();

    MainTest.Result status = run(test, "status", "chat");
    assertThat(status.code()).as(status.err()).isZero();
    assertThat(status.out()).contains("inferenceservice.llmkube " + test.namespace() + "/chat", "Status:     Pending",
        "GPU queue:  position 1, priority 10000 (InsufficientGPU)", "WaitingForGPU", "1 GPU asked, none free",
        "model.llmkube", "inferencepool", "Events (most recent last):", "Unschedulable", "0/1 nodes have a free GPU");
    MainTest.Result queue = run(test, "queue");
    assertThat(queue.out()).contains("POSITION").containsPattern("1\\s+" + test.namespace() + "\\s+chat\\s+normal "
        + "\\(10000\\)\\s+1\\s+InsufficientGPU");

    MainTest.Result unknown = run(test, "status", "nope");
    assertThat(unknown.code()).isEqualTo(1);
    assertThat(unknown.err()).startsWith("error: status: no modelplane object named nope in namespace "
        + test.namespace()).hasLineCount(1);
    MainTest.Result noPool = run(test, "chat", "nope", "hi");
    assertThat(noPool.code()).isEqualTo(1);
    assertThat(noPool.err()).contains("no InferencePool nope");
    MainTest.Result noRouter = run(test, "chat", "chat", "hi", "--url",
        "http://127.0.0.1:" + FreePorts.pick());
    assertThat(noRouter.code()).isEqualTo(1);
    assertThat(noRouter.err()).startsWith("error: chat: no router at").hasLineCount(1);

    MainTest.Result delete = run(test, "delete", "chat");
    assertThat(delete.code()).as(delete.err()).isZero();
    assertThat(delete.out()).contains("InferenceService " + test.namespace() + "/chat deleted",
        "Model " + test.namespace() + "/chat deleted", "InferencePool " + test.namespace() + "/chat deleted");
    assertThat(run(test, "list").out()).contains("hand-made").doesNotContain("inferencepool");
    MainTest.Result again = run(test, "delete", "chat");
    assertThat(again.code()).isEqualTo(1);
    assertThat(again.err()).contains("no InferenceService chat");
    assertThat(run(test, "queue").out()).contains("No InferenceService is waiting for GPUs.");
  }
}
