package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The chaos fleet is what the chaos tests say it is: 200 services of every family, all of which render. */
class ChaosFleetTest {
  @Test
  void twoHundredServicesOfEveryFamilyRenderInTenBatches() {
    ChaosFleet fleet = ChaosFleet.of200("chaos", "t");
    assertThat(fleet.services()).isEqualTo(200);
    List<String> batches = fleet.batches(10);
    assertThat(batches).hasSize(10).allSatisfy(b -> assertThat(b).contains("kind: InferenceService",
        "kind: ModelService"));
    assertThat(batches.getFirst()).contains("kind: Model\n", "kind: ClusterBaseModel", "kind: BaseModel",
        "kind: ServingRuntime", "kind: ClusterServingRuntime");
    List<HasMetadata> rendered = fleet.rendered();
    Map<String, Long> kinds = rendered.stream().collect(Collectors.groupingBy(HasMetadata::getKind,
        Collectors.counting()));
    assertThat(kinds.get("Deployment")).isEqualTo(80 + 60 + 2 * 60);
    assertThat(rendered.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).distinct().count())
        .isEqualTo(rendered.size());
    assertThat(rendered).allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isIn("chaos", null));
    assertThat(fleet.pods()).isEqualTo(260);
    assertThat(fleet.nodes()).hasSize(4);
    assertThat(rendered.stream().collect(Collectors.toMap(o -> o.getKind() + "/" + o.getMetadata().getName(),
        Function.identity()))).containsKeys("Deployment/lk-000", "Deployment/ome-001-engine",
        "Deployment/ms-059-decode", "Deployment/ms-059-epp");
  }
}
