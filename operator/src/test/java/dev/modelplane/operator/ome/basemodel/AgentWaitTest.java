package dev.modelplane.operator.ome.basemodel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.ome.storage.NodeReport;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentWaitTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  private static Node node(String name, String ready, Instant since) {
    NodeBuilder b = new NodeBuilder().withNewMetadata().withName(name).endMetadata();
    if (ready != null) {
      b.withNewStatus().addNewCondition().withType("Ready").withStatus(ready)
          .withLastTransitionTime(since.toString()).endCondition().endStatus();
    }
    return b.build();
  }

  private static NodeReport report(String status) {
    return new NodeReport("m", status, null, null, null, null, "hf://o/m");
  }

  @Test
  void aReadyNodesAgentIsWaitedForWithoutLimit() {
    AgentWait.Outcome o = AgentWait.decide(Map.of("a", report(NodeReport.READY)),
        Map.of("a", node("a", "True", T0)), T0, T0.plus(Duration.ofDays(7)), TIMEOUT);
    assertThat(o.waiting()).containsExactly("a");
    assertThat(o.givenUp()).isEmpty();
  }

  @Test
  void aNodeNotReadyLongerThanTheTimeoutIsGivenUp() {
    Map<String, NodeReport> reports = Map.of("dead", report(NodeReport.READY), "flaky", report(NodeReport.READY),
        "done", report(NodeReport.DELETED));
    Map<String, Node> nodes = Map.of("dead", node("dead", "Unknown", T0), "flaky",
        node("flaky", "False", T0.plus(Duration.ofMinutes(8))), "done", node("done", "True", T0));
    AgentWait.Outcome before = AgentWait.decide(reports, nodes, T0, T0.plus(TIMEOUT).minusSeconds(1), TIMEOUT);
    assertThat(before.waiting()).containsExactly("dead", "flaky");
    assertThat(before.givenUp()).isEmpty();
    AgentWait.Outcome after = AgentWait.decide(reports, nodes, T0, T0.plus(TIMEOUT), TIMEOUT);
    assertThat(after.waiting()).containsExactly("flaky");
    assertThat(after.givenUp()).containsExactly(new AgentWait.GivenUp("dead", T0, "Unknown"));
  }

  @Test
  void aNodeWithoutReadinessCountsFromTheDeletion() {
    Instant deleted = T0.plus(Duration.ofHours(1));
    Map<String, NodeReport> reports = Map.of("n", report(NodeReport.UPDATING));
    Map<String, Node> nodes = Map.of("n", node("n", null, null));
    assertThat(AgentWait.decide(reports, nodes, deleted, deleted.plus(Duration.ofMinutes(9)), TIMEOUT).waiting())
        .containsExactly("n");
    assertThat(AgentWait.decide(reports, nodes, deleted, deleted.plus(TIMEOUT), TIMEOUT).givenUp())
        .isEqualTo(List.of(new AgentWait.GivenUp("n", deleted, "missing")));
  }
}
