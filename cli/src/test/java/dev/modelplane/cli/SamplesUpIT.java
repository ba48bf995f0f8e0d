package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.ControlPlaneBinaries;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The LLMKube, OME, Gateway API Inference Extension and local OtterScale samples are self-contained: each, applied
 * alone with {@code modelplane up -f} on the local platform, reaches Ready (or, for the suspended one, Suspended) —
 * its Models,
 * claims, PriorityClass, RuntimeClass and GPUs are all there, OME models are placed by the dev cluster's model
 * agents and OME runtimes come with {@code up}. A sample with an InferencePool, or whose service gets one, answers
 * through the router. Each sample's objects are deleted before the next.
 */
class SamplesUpIT {
  /** Samples without an InferencePool of their own whose services get one (an OME router without an image). */
  private static final java.util.Set<String> ANSWERING = java.util.Set.of("inferenceservice-routed.yaml",
      "modelservice-local.yaml");
  @org.junit.jupiter.api.io.TempDir
  static Path state;
  static List<String> ports;

  @BeforeAll
  static void platform() throws Exception {
    if (ControlPlaneBinaries.find().isEmpty()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no control-plane binaries: run hack/control-plane/build.sh");
      }
      Assumptions.abort("skipped: " + ControlPlaneBinaries.missingMessage());
    }
    ports = UpEndToEndIT.upArgs(state, "3m");
    UpEndToEndIT.Run up = UpEndToEndIT.modelplane(concat(List.of("up", "--no-apply"), ports), 600);
    assertThat(up.exit()).as(up.output()).isZero();
  }

  @AfterAll
  static void down() throws Exception {
    if (state != null && Files.exists(state)) {
      UpEndToEndIT.modelplane(List.of("down", "--state-dir", state.toString()), 120);
    }
  }

  static Stream<Path> samples() throws IOException {
    Path root = OperatorFixtures.repoRoot().resolve("deploy/samples");
    try (Stream<Path> llmkube = Files.list(root.resolve("llmkube"));
        Stream<Path> ome = Files.list(root.resolve("ome"));
        Stream<Path> gie = Files.list(root.resolve("gie"));
        Stream<Path> otterscale = Files.list(root.resolve("otterscale"))) {
      return Stream.of(llmkube, ome, gie, otterscale).flatMap(s -> s)
          .filter(p -> p.getFileName().toString().startsWith("inferenceservice-") || p.startsWith(root.resolve("gie"))
              || p.getFileName().toString().equals("modelservice-local.yaml"))
          .sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void sampleReachesReadyWithUp(Path sample) throws Exception {
    UpEndToEndIT.Run up = UpEndToEndIT.modelplane(concat(List.of("up", "-f", sample.toString()), ports), 400);
    try {
      assertThat(up.exit()).as(up.output()).isZero();
      assertThat(up.output()).contains("[4/5] wait until ready");
      assertThat(up.output()).contains(ANSWERING.contains(sample.getFileName().toString())
          || Files.readString(sample).contains("kind: InferencePool") ? "answered: " : "skipped");
    } finally {
      try (KubernetesClient client = new KubernetesClientBuilder()
          .withConfig(Config.fromKubeconfig(Files.readString(state.resolve("kubeconfig")))).build()) {
        List<HasMetadata> objects = client.load(Files.newInputStream(sample)).items();
        for (HasMetadata o : objects) {
          if (o.getMetadata().getNamespace() == null && !o.getKind().startsWith("Cluster")) {
            o.getMetadata().setNamespace("default");
          }
          client.resource(o).delete();
        }
        await().atMost(Duration.ofSeconds(120)).until(() -> client.pods().inAnyNamespace().list().getItems()
            .stream().noneMatch(p -> objects.stream().anyMatch(o -> p.getMetadata().getNamespace()
                .equals(o.getMetadata().getNamespace()))));
      }
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
