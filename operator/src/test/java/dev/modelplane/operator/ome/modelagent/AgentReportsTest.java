package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import dev.modelplane.operator.modelsource.fetch.DownloadProgress.Phase;
import dev.modelplane.operator.modelsource.fetch.DownloadProgress;
import dev.modelplane.operator.ome.storage.NodeReport;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AgentReportsTest {
  private static final Instant NOW = Instant.parse("2025-01-02T03:04:05.678Z");

  @Test
  void updatingCarriesProgressInOmesShape() throws Exception {
    NodeReport r = AgentReports.updating("llama", "hf://org/llama",
        new DownloadProgress(Phase.DOWNLOADING, 1000, 250, 4, 1, 4096), NOW, "downloading");
    assertThat(new ObjectMapper().readTree(r.toJson())).isEqualTo(new ObjectMapper().readTree("""
        {"name":"llama","status":"Updating","progress":{"phase":"Downloading","totalBytes":1000,
         "completedBytes":250,"totalFiles":4,"completedFiles":1,"speedBytesPerSec":4096,
         "lastUpdated":"2025-01-02T03:04:05Z"},"message":"downloading","storageUri":"hf://org/llama"}"""));
    assertThat(NodeReport.parse(r.toJson())).isEqualTo(r);
  }

  @Test
  void failedAndReadyReports() {
    NodeReport failed = AgentReports.failed("m", "oci://n/a/b/c/o/d", "UnsupportedStorage", "no oci", null, NOW);
    assertThat(failed.failed()).isTrue();
    assertThat(failed.toJson()).isEqualTo("{\"name\":\"m\",\"status\":\"Failed\",\"reason\":\"UnsupportedStorage\","
        + "\"message\":\"no oci\",\"storageUri\":\"oci://n/a/b/c/o/d\"}");
    NodeReport ready = AgentReports.ready("m", "hf://a/b", new ObjectMapper().createObjectNode().put("maxTokens", 4),
        new DownloadProgress(Phase.COMPLETED, 10, 10, 1, 1, 0), NOW, "done");
    assertThat(ready.toJson()).contains("\"status\":\"Ready\"", "\"config\":{\"maxTokens\":4}",
        "\"phase\":\"Done\"");
  }

  @Test
  void phasesHaveNames() {
    assertThat(java.util.Arrays.stream(Phase.values()).map(AgentReports::phase))
        .containsExactly("Verifying", "Downloading", "Done", "Failed", "Cancelled");
  }

  @Test
  void throttleAdmitsTheFirstReportPhaseChangesAndOnePerInterval() {
    AtomicLong clock = new AtomicLong(0);
    ReportThrottle throttle = new ReportThrottle(Duration.ofSeconds(10), clock::get);
    DownloadProgress downloading = new DownloadProgress(Phase.DOWNLOADING, 10, 1, 1, 0, 1);
    assertThat(throttle.admit(downloading)).as("first").isTrue();
    clock.set(Duration.ofSeconds(3).toNanos());
    assertThat(throttle.admit(downloading)).as("3 s later").isFalse();
    clock.set(Duration.ofMillis(9_999).toNanos());
    assertThat(throttle.admit(downloading)).as("just under 10 s").isFalse();
    clock.set(Duration.ofSeconds(10).toNanos());
    assertThat(throttle.admit(downloading)).as("10 s").isTrue();
    clock.set(Duration.ofSeconds(11).toNanos());
    assertThat(throttle.admit(new DownloadProgress(Phase.VERIFYING, 10, 1, 1, 0, 1))).as("phase change").isTrue();
    assertThat(throttle.admit(downloading)).as("phase change back").isTrue();
    assertThat(throttle.admit(downloading)).as("same instant, same phase").isFalse();
  }

  @Test
  void ggufHeadersMapToMetadata() {
    var m = ModelConfigInspector.fromGguf(new GgufMetadata("llama", "Tiny", "Q4_K_M", "mit", 3, 291L, 4096L, 2048L,
        32L, 22L));
    assertThat(m.modelArchitecture()).isEqualTo("llama");
    assertThat(m.quantization()).isEqualTo("Q4_K_M");
    assertThat(m.maxTokens()).isEqualTo(4096);
    assertThat(m.modelFormat().name()).isEqualTo("gguf");
    assertThat(m.modelFormat().version()).isEqualTo("3");
  }
}
