package dev.modelplane.common.logging;

import static dev.modelplane.common.logging.LogEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyValueLayoutTest {
  private final KeyValueLayout layout = new KeyValueLayout();

  @Test
  void keyValuePairsAndMdcFollowTheMessageQuotedWhereNeeded() {
    String line = layout.doLayout(event(Level.INFO, "dev.modelplane.router.Router", "pool synced", null,
        Map.of("request_id", "r-1"),
        "pool", "serving/llama", "endpoints", 3, "note", "a \"b\" c=d", "empty", "", "path", "C:\\x", "none", null));
    assertThat(line).isEqualTo("ts=2026-11-01T10:00:00Z level=INFO logger=Router msg=\"pool synced\" "
        + "pool=serving/llama endpoints=3 note=\"a \\\"b\\\" c=d\" empty=\"\" path=C:\\x none=null request_id=r-1\n");
  }

  @Test
  void operatorMessagesKeepTheirShapeAndReconcilesNameTheirResource() {
    Map<String, String> josdk = new LinkedHashMap<>();
    josdk.put("resource.apiVersion", "inference.llmkube.dev/v1alpha1");
    josdk.put("resource.kind", "InferenceService");
    josdk.put("resource.name", "chat");
    josdk.put("resource.namespace", "ns");
    josdk.put("resource.resourceVersion", "42");
    josdk.put("resource.uid", "u-1");
    assertThat(layout.doLayout(event(Level.INFO,
        "dev.modelplane.operator.llmkube.isvc.LlmkubeInferenceServiceReconciler",
        "status isvc=ns/chat phase=READY ready=1/1 why=\"all good\"", null, josdk)))
        .isEqualTo("ts=2026-11-01T10:00:00Z level=INFO logger=LlmkubeInferenceServiceReconciler event=status "
            + "isvc=ns/chat phase=READY ready=1/1 why=\"all good\" resource=ns/chat resource.kind=InferenceService\n");
    assertThat(layout.doLayout(event(Level.WARN, "x.Y", "event write failed reason=\"a b\"", null)))
        .isEqualTo("ts=2026-11-01T10:00:00Z level=WARN logger=Y msg=\"event write failed reason=\\\"a b\\\"\"\n");
    assertThat(layout.doLayout(event(Level.INFO, "x.Y", "stopped", null)))
        .isEqualTo("ts=2026-11-01T10:00:00Z level=INFO logger=Y event=stopped\n");
    assertThat(layout.doLayout(event(Level.WARN, "x.Y", "fetch.retry error=\"line one\nline two\"", null)))
        .isEqualTo("ts=2026-11-01T10:00:00Z level=WARN logger=Y event=fetch.retry error=\"line one\\nline two\"\n");
  }

  @Test
  void anExceptionKeepsEveryCauseAndFrameOnOneLine() {
    String line = layout.doLayout(event(Level.ERROR, "io.javaoperatorsdk.operator.Operator",
        "Error during reconciliation\nsecond line", LogEvents.threeLevels()));
    assertThat(line).isEqualTo("ts=2026-11-01T10:00:00Z level=ERROR logger=Operator "
        + "msg=\"Error during reconciliation\\nsecond line\" error=\"java.lang.IllegalStateException: outer\" "
        + "stack=\"java.lang.IllegalStateException: outer\\n\\tat x.B.run(B.java:1)\\n\\tat x.B.main(B.java:2)\\n"
        + "Caused by: java.io.UncheckedIOException: middle\\n\\tat x.C.load(C.java:3)\\n"
        + "\\t... 1 common frames omitted\\n"
        + "Caused by: java.io.IOException: root \\\"cause\\\"\\n\\tat x.D.read(D.java:4)\\n"
        + "\\t... 2 common frames omitted\"\n");
    assertThat(line.indexOf('\n')).isEqualTo(line.length() - 1);
  }

  @Test
  void oddKeysAndControlCharactersCannotBreakTheLine() {
    assertThat(layout.doLayout(event(Level.DEBUG, "A", "m", null, "bad key=", "x\u0001y\tz\r")))
        .isEqualTo("ts=2026-11-01T10:00:00Z level=DEBUG logger=A event=m bad_key_=\"x y\\tz\\r\"\n");
  }
}
