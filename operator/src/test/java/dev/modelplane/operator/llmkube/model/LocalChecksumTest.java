package dev.modelplane.operator.llmkube.model;

import static dev.modelplane.operator.TestObjects.model;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.modelsource.ModelInspector;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spec.sha256} of a local source: hashed by the operator when it can read the file, once per generation. */
class LocalChecksumTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  @TempDir
  Path dir;

  private final AtomicInteger hashes = new AtomicInteger();

  private ModelReconciler reconciler() {
    ModelInspector counting = new ModelInspector(Duration.ofSeconds(5)) {
      @Override
      public String sha256(String path) {
        hashes.incrementAndGet();
        return super.sha256(path);
      }
    };
    OperatorSettings settings = OperatorSettings.builder().allowedHostPathRoots(List.of(dir.toString())).build();
    return new ModelReconciler(settings, counting, null, Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private Path file(String content) throws IOException {
    return Files.writeString(dir.resolve("model.bin"), content);
  }

  private static String sha256(String content) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest(content.getBytes(StandardCharsets.UTF_8)));
  }

  private static Condition condition(ModelStatus s, String type) {
    return s.conditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
  }

  @Test
  void aMatchingFileIsVerifiedOnceAndReportsItsDigest() throws Exception {
    Path file = file("weights");
    String digest = sha256("weights");
    Model model = model("source: " + file + "\nformat: custom\nsha256: " + digest.toUpperCase() + "\n");
    ModelReconciler reconciler = reconciler();

    ModelObservation first = reconciler.observe(model, null);
    ModelStatus status = ModelStatusAggregator.aggregate(first, NOW);
    assertThat(status.phase()).isEqualTo(ModelPhase.READY);
    assertThat(status.sha256()).isEqualTo(digest);
    assertThat(condition(status, "Available").getReason()).isEqualTo("HostPathVerified");
    assertThat(condition(status, "Available").getMessage()).endsWith("; SHA-256 verified");
    assertThat(hashes).hasValue(1);

    model.setStatus(status);
    ModelObservation again = reconciler.observe(model, null);
    assertThat(again.phase()).isEqualTo(ModelPhase.READY);
    assertThat(again.reason()).isEqualTo("HostPathVerified");
    assertThat(hashes).as("not hashed again for the same generation").hasValue(1);

    model.getMetadata().setGeneration(2L);
    reconciler.observe(model, null);
    assertThat(hashes).as("a new generation is checked again").hasValue(2);
  }

  @Test
  void aDifferentFileFailsTheModelNamingTheField() throws Exception {
    Path file = file("tampered");
    String declared = sha256("original");
    Model model = model("source: " + file + "\nformat: custom\nsha256: " + declared + "\n");

    ModelObservation o = reconciler().observe(model, null);
    assertThat(o.phase()).isEqualTo(ModelPhase.FAILED);
    assertThat(o.problem().field()).isEqualTo("spec.sha256");
    assertThat(o.problem().reason()).isEqualTo("ChecksumMismatch");
    assertThat(o.problem().describe()).isEqualTo("spec.sha256: " + file + " has SHA-256 " + sha256("tampered")
        + ", not the declared " + declared);
    ModelStatus status = ModelStatusAggregator.aggregate(o, NOW);
    assertThat(status.sha256()).as("what the file really has").isEqualTo(sha256("tampered"));
    assertThat(condition(status, "Degraded").getStatus()).isEqualTo("True");

    model.setStatus(status);
    Files.writeString(file, "original");
    assertThat(reconciler().observe(model, null).phase()).as("a failed check is repeated")
        .isEqualTo(ModelPhase.READY);
  }

  @Test
  void aFileOnlyTheNodesHaveIsLeftToTheServingPods() {
    Model model = model("source: " + dir.resolve("on-the-nodes.gguf") + "\nsha256: " + "00ff".repeat(16) + "\n");
    ModelObservation o = reconciler().observe(model, null);
    assertThat(o.phase()).isEqualTo(ModelPhase.READY);
    assertThat(o.reason()).isEqualTo("HostPath");
    assertThat(o.message()).endsWith("; the serving pods verify its SHA-256 before the server starts");
    assertThat(o.sha256()).isEqualTo("00ff".repeat(16));
  }

  @Test
  void withoutAChecksumNothingIsHashed() throws Exception {
    Model model = model("source: " + file("weights") + "\nformat: custom\n");
    ModelObservation o = reconciler().observe(model, null);
    assertThat(o.phase()).isEqualTo(ModelPhase.READY);
    assertThat(o.sha256()).isNull();
    assertThat(hashes).hasValue(0);
  }
}
