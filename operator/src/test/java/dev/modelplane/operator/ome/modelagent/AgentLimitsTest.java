package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.operator.ome.storage.BaseModelKey;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AgentLimitsTest {
  private static final BaseModelKey A = new BaseModelKey("t", "a");
  private static final BaseModelKey B = new BaseModelKey("t", "b");
  private static final BaseModelKey C = new BaseModelKey("t", "c");

  @Test
  void aNodePlacesAtMostTheLimitAndKeepsWhatItHas() {
    assertThat(AgentLimits.overLimit(Set.of(A, B), C, 2)).as("a third model").isTrue();
    assertThat(AgentLimits.overLimit(Set.of(A, B), A, 2)).as("one already placed").isFalse();
    assertThat(AgentLimits.overLimit(Set.of(A), C, 2)).isFalse();
  }

  @Test
  void reportsAndLabelsStopAtTheirLimitButKnownOnesStillChange() {
    assertThat(NodeStatusWriter.admits(Set.of("t.basemodel.a", "t.basemodel.b"), "t.basemodel.c", 2)).isFalse();
    assertThat(NodeStatusWriter.admits(Set.of("t.basemodel.a", "t.basemodel.b"), "t.basemodel.a", 2)).isTrue();
    assertThat(NodeStatusWriter.admits(Set.of("t.basemodel.a"), "t.basemodel.c", 2)).isTrue();
    assertThat(new AgentLimits(0, 10, 100).maxReports()).isEqualTo(200);
  }

  @Test
  void limitsAreChecked() {
    assertThatThrownBy(() -> new AgentLimits(-1, 10, 10)).hasMessageContaining("--disk-budget");
    assertThatThrownBy(() -> new AgentLimits(0, 0, 10)).hasMessageContaining("--max-listed-objects");
    assertThatThrownBy(() -> new AgentLimits(0, 10, 0)).hasMessageContaining("--max-models-per-node");
  }
}
