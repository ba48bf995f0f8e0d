package dev.modelplane.operator.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class KeyValueLogsTest {
  private static final Instant T = Instant.parse("2026-11-01T10:00:00Z");

  @Test
  void structuredMessagesKeepTheirShape() {
    assertThat(KeyValueLogs.line(T, Level.INFO, "dev.modelplane.operator.llmkube.InferenceServiceReconciler",
        "status isvc=ns/chat phase=READY ready=1/1", null))
        .isEqualTo("ts=2026-11-01T10:00:00Z level=INFO logger=InferenceServiceReconciler event=status isvc=ns/chat "
            + "phase=READY ready=1/1");
    assertThat(KeyValueLogs.line(T, Level.WARN, "x.Y", "event write failed reason=\"a b\"", null))
        .endsWith("logger=Y msg=\"event write failed reason=\\\"a b\\\"\"");
  }

  @Test
  void freeTextAndErrorsAreQuotedOnOneLine() {
    String line = KeyValueLogs.line(T, Level.ERROR, "io.javaoperatorsdk.operator.Operator",
        "Error during reconciliation\nsecond line", new IllegalStateException("boom \"x\""));
    assertThat(line).doesNotContain("\n").startsWith("ts=2026-11-01T10:00:00Z level=ERROR logger=Operator msg=")
        .contains("msg=\"Error during reconciliation\\nsecond line\"")
        .contains("error=\"java.lang.IllegalStateException: boom \\\"x\\\"\"");
  }
}
