package dev.modelplane.operator.ome.basemodel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.ome.storage.BaseModelKey;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

class NodeReportSourcesTest {
  @Test
  void theBaseModelControllersIgnoreTheReportsOfFineTunedWeights() {
    var cm = new ConfigMapBuilder().addToData("finetunedweight.support", "{}")
        .addToData("clusterbasemodel.llama", "{}").build();
    assertThat(NodeReportSources.models(cm, k -> !k.fineTunedWeight() && k.clusterScoped()))
        .extracting(r -> r.getName()).containsExactly("llama");
    assertThat(NodeReportSources.models(cm, BaseModelKey::fineTunedWeight)).extracting(r -> r.getName())
        .containsExactly("support");
  }
}
