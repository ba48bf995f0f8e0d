package dev.modelplane.operator.ome.basemodel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.LifeCycleState;
import dev.modelplane.api.ome.v1beta1.ModelStatusSpec;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.ome.storage.NodeReport;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BaseModelStatusAggregatorTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  static NodeReport report(String status) {
    return new NodeReport("m", status, null, null, null, null, "hf://o/m");
  }

  static NodeReport failed(String reason, String message) {
    return new NodeReport("m", NodeReport.FAILED, null, null, reason, message, "hf://o/m");
  }

  static NodeReport updating(long done, long total) {
    return new NodeReport("m", NodeReport.UPDATING, null,
        new NodeReport.Progress("Downloading", total, done, 2, 0, 100L, T0.toString()), null, null, "hf://o/m");
  }

  @Test
  void readyWhenAnyNodeIsReadyWithSortedNodeLists() {
    Map<String, NodeReport> reports = new LinkedHashMap<>();
    reports.put("node-c", report(NodeReport.READY));
    reports.put("node-a", report(NodeReport.READY));
    reports.put("node-b", failed("SourceUnreachable", "connection refused"));
    ModelStatusSpec s = BaseModelStatusAggregator.aggregate(3, null, reports, List.of(), T0);
    assertThat(s.state()).isEqualTo(LifeCycleState.Ready);
    assertThat(s.nodesReady()).containsExactly("node-a", "node-c");
    assertThat(s.nodesFailed()).containsExactly("node-b");
    assertThat(s.observedGeneration()).isEqualTo(3);
    Condition ready = Conditions.find(s.conditions(), "Ready");
    assertThat(ready.getStatus()).isEqualTo("True");
    assertThat(ready.getMessage()).isEqualTo("Ready on 2 of 3 node(s): node-a, node-c");
    Condition degraded = Conditions.find(s.conditions(), "Degraded");
    assertThat(degraded.getStatus()).isEqualTo("True");
    assertThat(degraded.getMessage()).isEqualTo("node-b: SourceUnreachable: connection refused");
  }

  @Test
  void aVendorModelIsReadyOnNoNodeUnlessItsSpecIsBroken() {
    ModelStatusSpec s = BaseModelStatusAggregator.aggregate(2, null, Map.of(), List.of(), T0, true);
    assertThat(s.state()).isEqualTo(LifeCycleState.Ready);
    assertThat(s.nodesReady()).isEmpty();
    assertThat(s.conditions()).filteredOn(c -> c.getType().equals("Ready")).singleElement().satisfies(c -> {
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo(BaseModelStatusAggregator.PROVIDED_BY_VENDOR);
    });
    ModelStatusSpec broken = BaseModelStatusAggregator.aggregate(2, null, Map.of(), List.of(
        dev.modelplane.operator.common.FieldProblem.fatal("spec.storage", "MissingStorage", "x")), T0, true);
    assertThat(broken.state()).isEqualTo(LifeCycleState.Failed);
  }

  @Test
  void failedWhenNoNodeIsReadyAndOneFailed() {
    ModelStatusSpec s = BaseModelStatusAggregator.aggregate(1, null,
        Map.of("n1", failed("UnsupportedStorage", "oci:// is not supported"), "n2", updating(1, 2)), List.of(), T0);
    assertThat(s.state()).isEqualTo(LifeCycleState.Failed);
    assertThat(s.nodesReady()).isEmpty();
    assertThat(s.nodesFailed()).containsExactly("n1");
    assertThat(Conditions.find(s.conditions(), "Ready").getReason()).isEqualTo("NoNodeReady");
  }

  @Test
  void downloadProgressIsBytesOfTotalAndPercent() {
    assertThat(BaseModelStatusAggregator.downloaded(1288490189L, 4294967296L)).isEqualTo("1.20 GiB of 4.00 GiB, 30%");
    assertThat(BaseModelStatusAggregator.downloaded(5L, 5L)).isEqualTo("5 B of 5 B, 100%");
  }

  @Test
  void inTransitWhileDownloadingWithProgressInTheMessage() {
    ModelStatusSpec s = BaseModelStatusAggregator.aggregate(1, null, Map.of("n1", updating(50, 200)), List.of(), T0);
    assertThat(s.state()).isEqualTo(LifeCycleState.In_Transit);
    Condition ready = Conditions.find(s.conditions(), "Ready");
    assertThat(ready.getReason()).isEqualTo("Downloading");
    assertThat(ready.getMessage()).isEqualTo("Downloading on 1 node(s): n1 (50 B of 200 B, 25%)");
    assertThat(Conditions.find(s.conditions(), "Degraded").getStatus()).isEqualTo("False");
  }

  @Test
  void inTransitWithoutReportsSaysAgentsHaveNotReported() {
    ModelStatusSpec s = BaseModelStatusAggregator.aggregate(1, null, Map.of(), List.of(), T0);
    assertThat(s.state()).isEqualTo(LifeCycleState.In_Transit);
    assertThat(Conditions.find(s.conditions(), "Ready").getReason()).isEqualTo("WaitingForAgents");
  }

  @Test
  void aSpecProblemFailsTheModelAndNamesTheField() {
    FieldProblem p = FieldProblem.fatal("spec.storage.storageUri", "UnsupportedStorage", "oci:// is not supported");
    ModelStatusSpec s = BaseModelStatusAggregator.aggregate(2, null, Map.of(), List.of(p), T0);
    assertThat(s.state()).isEqualTo(LifeCycleState.Failed);
    Condition degraded = Conditions.find(s.conditions(), "Degraded");
    assertThat(degraded.getReason()).isEqualTo("UnsupportedStorage");
    assertThat(degraded.getMessage()).isEqualTo("spec.storage.storageUri: oci:// is not supported");
  }

  @Test
  void aRefusedDirectoryIsNeverReadyWhateverANodeReports() {
    FieldProblem p = FieldProblem.fatal("spec.storage.path", "PathConflict", "'/raid/models/a/x' is the same "
        + "directory of basemodel/a/x, which claimed it first; a model's directory may not overlap another's");
    ModelStatusSpec s = BaseModelStatusAggregator.aggregate(2, null, Map.of("node-a", report(NodeReport.READY)),
        List.of(p), T0);
    assertThat(s.state()).isEqualTo(LifeCycleState.Failed);
    assertThat(s.nodesReady()).isEmpty();
    Condition ready = Conditions.find(s.conditions(), "Ready");
    assertThat(ready.getStatus()).isEqualTo("False");
    assertThat(ready.getReason()).isEqualTo("PathConflict");
    assertThat(ready.getMessage()).startsWith("spec.storage.path: '/raid/models/a/x'").contains("basemodel/a/x");
  }

  @Test
  void transitionTimeMovesOnlyOnChangeAndLifecycleIsKept() {
    ModelStatusSpec first = BaseModelStatusAggregator.aggregate(1,
        new ModelStatusSpec("Public", LifeCycleState.Creating, null, null, null, null),
        Map.of("n1", updating(1, 2)), List.of(), T0);
    ModelStatusSpec same = BaseModelStatusAggregator.aggregate(1, first, Map.of("n1", updating(1, 2)), List.of(),
        T0.plusSeconds(60));
    assertThat(same).isEqualTo(first);
    assertThat(same.lifecycle()).isEqualTo("Public");
    ModelStatusSpec ready = BaseModelStatusAggregator.aggregate(1, first, Map.of("n1", report(NodeReport.READY)),
        List.of(), T0.plusSeconds(120));
    assertThat(Conditions.find(ready.conditions(), "Ready").getLastTransitionTime())
        .isEqualTo("2026-01-01T00:02:00Z");
    assertThat(Conditions.find(ready.conditions(), "Degraded").getLastTransitionTime())
        .isEqualTo("2026-01-01T00:00:00Z");
  }

  @Test
  void reportsReadBackFromJsonAndUnreadableOnesFail() {
    NodeReport r = updating(5, 10);
    assertThat(NodeReport.parse(r.toJson())).isEqualTo(r);
    NodeReport bad = NodeReport.parse("{not json");
    assertThat(bad.failed()).isTrue();
    assertThat(bad.reason()).isEqualTo("UnreadableReport");
  }
}
