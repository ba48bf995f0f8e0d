package dev.modelplane.operator.llmkube.model;

import static dev.modelplane.operator.TestObjects.model;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.EventRecorder;
import dev.modelplane.operator.modelsource.FileServer;
import dev.modelplane.operator.modelsource.InspectionPolicy;
import dev.modelplane.operator.modelsource.ModelInspector;
import dev.modelplane.operator.modelsource.RedactedUrl;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A pre-signed source URL's query (its signature) and userinfo never reach the operator's log, Events or the
 * Model's status when inspection of it fails, whether the server answered an error or the policy refused it.
 */
class PresignedUrlLogTest {
  private static final String SIGNATURE = "X-Amz-Signature=5ec7e75ec7e7";
  private static final String QUERY = "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDQUERYKEY&" + SIGNATURE;

  private final Clock clock = Clock.fixed(Instant.parse("2026-11-22T10:00:00Z"), ZoneOffset.UTC);
  private final List<String> events = new ArrayList<>();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private FileServer server;

  @BeforeEach
  void capture() throws Exception {
    server = new FileServer(true);
    logs.start();
    root().addAppender(logs);
  }

  @AfterEach
  void release() {
    root().detachAppender(logs);
    server.close();
  }

  private static Logger root() {
    return ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  }

  private String everything(ModelStatus status) {
    StringBuilder all = new StringBuilder(String.join("\n", events));
    logs.list.forEach(e -> all.append('\n').append(e.getFormattedMessage()));
    status.conditions().forEach(c -> all.append('\n').append(c.getMessage()));
    return all.toString();
  }

  private ModelStatus reconcile(InspectionPolicy policy, String source) {
    ModelReconciler reconciler = new ModelReconciler(OperatorSettings.builder().build(),
        new ModelInspector(Duration.ofSeconds(5), policy), new Recording(events, clock), clock);
    Model m = model("llama", "source: \"" + source + "\"\n");
    return ModelStatusAggregator.aggregate(reconciler.observe(m, null), clock.instant());
  }

  @Test
  void aFailedInspectionLogsTheUrlWithoutItsQuery() {
    String base = server.put("/other", new byte[0]).replace("/other", "/bucket/llama.gguf");
    ModelStatus status = reconcile(FileServer.LOOPBACK, base + QUERY);

    assertThat(events).singleElement().asString().startsWith("Warning MetadataUnavailable could not read " + base
        + ": GET " + base + " answered 404");
    assertThat(logs.list).anySatisfy(e -> assertThat(e.getFormattedMessage()).contains("url=" + base + " "));
    assertThat(everything(status)).doesNotContain("5ec7e75ec7e7").doesNotContain("AKIDQUERYKEY");
  }

  @Test
  void aRefusedInspectionLogsNeitherQueryNorUserinfo() {
    String base = server.put("/other", new byte[0]).replace("/other", "/bucket/llama.gguf");
    String withUser = base.replace("http://", "http://admin:hunter2@");
    ModelStatus status = reconcile(InspectionPolicy.defaults().withAllowHttp(true), withUser + QUERY);

    assertThat(events).singleElement().asString().contains("could not read " + base + ": refused to inspect");
    assertThat(everything(status)).doesNotContain("5ec7e75ec7e7").doesNotContain("AKIDQUERYKEY")
        .doesNotContain("hunter2");
  }

  @Test
  void redactionKeepsSchemeHostPortAndPath() {
    assertThat(RedactedUrl.of("https://u:p@bucket.s3.amazonaws.com:443/a/b.gguf" + QUERY + "#frag"))
        .isEqualTo("https://bucket.s3.amazonaws.com:443/a/b.gguf");
    assertThat(RedactedUrl.of("https://host?X-Amz-Signature=1")).isEqualTo("https://host");
    assertThat(RedactedUrl.of("s3://bucket/key.gguf")).isEqualTo("s3://bucket/key.gguf");
    assertThat(RedactedUrl.of("hf://org/repo")).isEqualTo("hf://org/repo");
    assertThat(RedactedUrl.of("hf://gpt2@v1")).isEqualTo("hf://gpt2@v1");
    assertThat(RedactedUrl.of("s3://bucket@us-west-2/prefix")).isEqualTo("s3://bucket@us-west-2/prefix");
    assertThat(RedactedUrl.of("HTTP://a:b@host/x")).isEqualTo("HTTP://host/x");
    assertThat(RedactedUrl.of("/models/m.gguf?x=1")).isEqualTo("/models/m.gguf");
    assertThat(RedactedUrl.of(null)).isNull();
  }

  private static final class Recording extends EventRecorder {
    private final List<String> events;

    Recording(List<String> events, Clock clock) {
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
}
