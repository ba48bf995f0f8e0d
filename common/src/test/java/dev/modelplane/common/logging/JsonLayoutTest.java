package dev.modelplane.common.logging;

import static dev.modelplane.common.logging.LogEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonLayoutTest {
  private final JsonLayout layout = new JsonLayout();

  @Test
  void oneObjectPerLineWithTypedKeyValuesAndMdc() {
    assertThat(layout.doLayout(event(Level.INFO, "dev.modelplane.router.Router", "pool synced", null,
        Map.of("request_id", "r-1"), "pool", "serving/llama", "endpoints", 3, "ratio", 0.5, "native", true,
        "none", null, "msg", "clash")))
        .isEqualTo("{\"ts\":\"2026-11-01T10:00:00Z\",\"level\":\"INFO\",\"logger\":\"dev.modelplane.router.Router\","
            + "\"msg\":\"pool synced\",\"pool\":\"serving/llama\",\"endpoints\":3,\"ratio\":0.5,\"native\":true,"
            + "\"none\":null,\"msg_2\":\"clash\",\"request_id\":\"r-1\"}\n");
  }

  @Test
  void operatorMessagesBecomeFields() {
    assertThat(layout.doLayout(event(Level.INFO, "x.InferenceServiceReconciler",
        "status isvc=ns/chat phase=READY why=\"all \\\"good\\\"\"", null,
        Map.of("resource.name", "chat", "resource.namespace", "ns"))))
        .isEqualTo("{\"ts\":\"2026-11-01T10:00:00Z\",\"level\":\"INFO\",\"logger\":\"x.InferenceServiceReconciler\","
            + "\"event\":\"status\",\"isvc\":\"ns/chat\",\"phase\":\"READY\",\"why\":\"all \\\"good\\\"\","
            + "\"resource\":\"ns/chat\"}\n");
  }

  @Test
  void anExceptionKeepsEveryCauseAndFrame() throws Exception {
    String line = layout.doLayout(event(Level.ERROR, "x.Y", "failed\nbadly", LogEvents.threeLevels()));
    assertThat(line.indexOf('\n')).isEqualTo(line.length() - 1);
    JsonNode json = new ObjectMapper().readTree(line);
    assertThat(json.path("msg").asText()).isEqualTo("failed\nbadly");
    assertThat(json.path("error").asText()).isEqualTo("java.lang.IllegalStateException: outer");
    assertThat(json.path("stack").asText()).isEqualTo("java.lang.IllegalStateException: outer\n"
        + "\tat x.B.run(B.java:1)\n\tat x.B.main(B.java:2)\n"
        + "Caused by: java.io.UncheckedIOException: middle\n\tat x.C.load(C.java:3)\n\t... 1 common frames omitted\n"
        + "Caused by: java.io.IOException: root \"cause\"\n\tat x.D.read(D.java:4)\n\t... 2 common frames omitted");
  }
}
