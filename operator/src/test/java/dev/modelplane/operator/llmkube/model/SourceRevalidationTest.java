package dev.modelplane.operator.llmkube.model;

import static dev.modelplane.operator.TestObjects.model;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.modelsource.FileServer;
import dev.modelplane.operator.modelsource.GgufWriter;
import dev.modelplane.operator.modelsource.ModelInspector;
import dev.modelplane.operator.modelsource.SourceFingerprint;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Revalidation of remote sources: the fingerprint recorded at first inspection (ETag, length) is compared with the
 * source's every {@code --model-revalidation-interval}; a change is SourceDrifted under IfNotPresent and a refresh
 * (new fingerprint, so serving pods download again) under OnChange.
 */
class SourceRevalidationTest {
  private static final Duration INTERVAL = Duration.ofMinutes(30);

  private final FileServer server = new FileServer(true);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
  private final List<String> events = new ArrayList<>();
  private final ModelReconciler reconciler = new ModelReconciler(
      OperatorSettings.builder().revalidationInterval(INTERVAL).build(),
      new ModelInspector(Duration.ofSeconds(5), FileServer.LOOPBACK), new RecordingEvents(events, clock), clock);

  SourceRevalidationTest() throws Exception {
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** One reconcile: observe, aggregate, store the status as the apiserver would. */
  private ModelStatus reconcile(Model model) {
    ModelStatus status = ModelStatusAggregator.aggregate(reconciler.observe(model, null), clock.instant());
    model.setStatus(status);
    return status;
  }

  private static Optional<Condition> drifted(ModelStatus s) {
    return s.conditions().stream().filter(c -> c.getType().equals("SourceDrifted")).findFirst();
  }

  @Test
  void aChangedSourceIsReportedButKeptUnderIfNotPresent() {
    byte[] v1 = GgufWriter.llama(1024);
    String url = server.put("/m/llama.gguf", v1);
    Model model = model("llama", "source: " + url + "\n");

    ModelStatus first = reconcile(model);
    assertThat(first.sourceETag()).isEqualTo(FileServer.etag(v1));
    assertThat(first.lastRevalidated()).isEqualTo("2026-11-22T10:00:00Z");
    assertThat(drifted(first)).isEmpty();

    byte[] v2 = GgufWriter.llama(2048);
    server.put("/m/llama.gguf", v2);
    clock.advance(INTERVAL.minusMinutes(1));
    assertThat(reconcile(model).sourceETag()).as("not due yet").isEqualTo(FileServer.etag(v1));
    assertThat(drifted(model.getStatus())).isEmpty();

    clock.advance(Duration.ofMinutes(1));
    ModelStatus due = reconcile(model);
    assertThat(due.phase()).isEqualTo(ModelPhase.READY);
    assertThat(due.sourceETag()).as("the cached copy's fingerprint stays").isEqualTo(FileServer.etag(v1));
    assertThat(due.lastRevalidated()).isEqualTo("2026-11-22T10:30:00Z");
    Condition c = drifted(due).orElseThrow();
    assertThat(c.getStatus()).isEqualTo("True");
    assertThat(c.getReason()).isEqualTo("UpstreamChanged");
    assertThat(c.getMessage()).isEqualTo("The source changed since it was cached (ETag " + FileServer.etag(v1)
        + " → ETag " + FileServer.etag(v2) + "); refreshPolicy IfNotPresent keeps the cached copy");
    assertThat(events).containsExactly("Warning SourceDrifted the source changed since it was cached (ETag "
        + FileServer.etag(v1) + " → ETag " + FileServer.etag(v2) + "); refreshPolicy IfNotPresent keeps serving the "
        + "cached copy (set refreshPolicy: OnChange to download it again)");

    clock.advance(INTERVAL);
    reconcile(model);
    assertThat(events).as("one Warning per drift, not one per check").hasSize(1);

    server.put("/m/llama.gguf", v1);
    clock.advance(INTERVAL);
    Condition back = drifted(reconcile(model)).orElseThrow();
    assertThat(back.getStatus()).isEqualTo("False");
    assertThat(back.getReason()).isEqualTo("UpToDate");
  }

  @Test
  void aChangedSourceIsRecordedUnderOnChangeSoTheServingPodsDownloadItAgain() {
    byte[] v1 = GgufWriter.llama(1024);
    String url = server.put("/m/llama.gguf", v1);
    Model model = model("llama", "source: " + url + "\nrefreshPolicy: OnChange\n");
    reconcile(model);
    String before = SourceFingerprint.refreshToken(model);
    assertThat(before).hasSize(16);

    byte[] v2 = GgufWriter.llama(4096);
    server.put("/m/llama.gguf", v2);
    clock.advance(INTERVAL);
    ModelStatus refreshed = reconcile(model);
    assertThat(refreshed.sourceETag()).isEqualTo(FileServer.etag(v2));
    assertThat(refreshed.sourceContentLength()).isEqualTo(v2.length);
    assertThat(SourceFingerprint.refreshToken(model)).isNotEqualTo(before);
    Condition c = drifted(refreshed).orElseThrow();
    assertThat(c.getStatus()).isEqualTo("False");
    assertThat(c.getReason()).isEqualTo("Refreshed");
    assertThat(events).singleElement().asString().startsWith("Normal SourceRefreshed the source changed");
  }

  @Test
  void anUnchangedOrUnreachableSourceKeepsEverything() {
    byte[] v1 = GgufWriter.llama(1024);
    String url = server.put("/m/llama.gguf", v1);
    Model model = model("llama", "source: " + url + "\nrefreshPolicy: OnChange\n");
    reconcile(model);
    String token = SourceFingerprint.refreshToken(model);

    clock.advance(INTERVAL);
    assertThat(drifted(reconcile(model)).orElseThrow().getReason()).isEqualTo("UpToDate");

    server.close();
    clock.advance(INTERVAL);
    ModelStatus after = reconcile(model);
    assertThat(after.phase()).isEqualTo(ModelPhase.READY);
    assertThat(SourceFingerprint.refreshToken(model)).isEqualTo(token);
    assertThat(after.lastRevalidated()).isEqualTo("2026-11-22T11:00:00Z");
    assertThat(events).isEmpty();
  }

  @Test
  void fingerprintsCompareEtagsFirstThenLengths() {
    assertThat(new SourceFingerprint("\"a\"", 1L).changedTo(new SourceFingerprint("\"b\"", 1L))).isTrue();
    assertThat(new SourceFingerprint("\"a\"", 1L).changedTo(new SourceFingerprint("\"a\"", 2L))).isFalse();
    assertThat(new SourceFingerprint(null, 1L).changedTo(new SourceFingerprint(null, 2L))).isTrue();
    assertThat(new SourceFingerprint(null, 1L).changedTo(new SourceFingerprint("\"a\"", 1L))).isFalse();
    assertThat(new SourceFingerprint(null, null).changedTo(new SourceFingerprint("\"a\"", 9L))).isFalse();
    assertThat(SourceFingerprint.refreshToken(model("source: https://h/m.gguf\n"))).as("IfNotPresent").isNull();
  }

  private static final class RecordingEvents extends EventRecorder {
    private final List<String> events;

    RecordingEvents(List<String> events, Clock clock) {
      super(null, clock);
      this.events = events;
    }

    @Override
    public void warning(HasMetadata object, String reason, String message) {
      events.add("Warning " + reason + " " + message);
    }

    @Override
    public void normal(HasMetadata object, String reason, String message) {
      events.add("Normal " + reason + " " + message);
    }
  }

  private static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
