package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelplane.cli.devcluster.ServerKind;
import dev.modelplane.cli.devcluster.SimulatorArgs;
import dev.modelplane.cli.devcluster.SimulatorPlan;
import dev.modelplane.simulator.Simulator;
import dev.modelplane.simulator.SimulatorConfig;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The quickstart's llama.cpp server answers under its Model's name: the operator renders {@code --alias <modelRef>},
 * the dev cluster's pod runner turns it into the simulator's served name, and the simulator lists that name in
 * {@code /v1/models}, not the model file's path.
 */
class LlamaCppAliasTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void theQuickstartPodListsItsModelsName() throws Exception {
    Path root = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
    MainTest.Result rendered = MainTest.run("render", "-f", root.resolve("deploy/samples/quickstart.yaml").toString(),
        "--model-cache", "none");
    assertThat(rendered.code()).as(rendered.err()).isZero();
    Deployment deployment = null;
    for (JsonNode doc : YAML.readerFor(JsonNode.class).<JsonNode>readValues(rendered.out()).readAll()) {
      if ("Deployment".equals(doc.path("kind").asText())) {
        deployment = YAML.convertValue(doc, Deployment.class);
      }
    }
    assertThat(deployment).isNotNull();
    var container = deployment.getSpec().getTemplate().getSpec().getContainers().getFirst();
    assertThat(container.getArgs()).containsSequence("--alias", "qwen2-5-0-5b-instruct");

    Pod pod = new PodBuilder().withMetadata(deployment.getSpec().getTemplate().getMetadata())
        .withSpec(deployment.getSpec().getTemplate().getSpec()).build();
    SimulatorPlan plan = SimulatorArgs.plan(pod, container, ServerKind.LLAMA_CPP);
    assertThat(plan.ignored()).doesNotContain("--alias");
    SimulatorConfig config = new SimulatorConfig();
    new CommandLine(config).parseArgs(plan.args().toArray(String[]::new));
    try (Simulator sim = Simulator.start(config.host("127.0.0.1").port(0))) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      HttpRequest models = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sim.port() + "/v1/models"))
          .timeout(Duration.ofSeconds(5)).build();
      List<String> ids = new ArrayList<>();
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
        HttpResponse<String> answer = http.send(models, HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        ids.clear();
        new ObjectMapper().readTree(answer.body()).path("data").forEach(m -> ids.add(m.path("id").asText()));
      });
      assertThat(ids).containsExactly("qwen2-5-0-5b-instruct");
    }
  }
}
