package dev.modelplane.operator.ome.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

class BaseModelKeyTest {
  @Test
  void namespacedModelUsesOmeLabelAndReportKeys() {
    BaseModel model = new BaseModel();
    model.setMetadata(new ObjectMetaBuilder().withName("llama").withNamespace("team").build());
    BaseModelKey key = BaseModelKey.of(model);
    assertThat(key.clusterScoped()).isFalse();
    assertThat(key.reportKey()).isEqualTo("team.basemodel.llama");
    assertThat(key.labelKey()).isEqualTo("models.ome.io/team.basemodel.llama");
  }

  @Test
  void clusterModelUsesOmeLabelAndReportKeys() {
    ClusterBaseModel model = new ClusterBaseModel();
    model.setMetadata(new ObjectMetaBuilder().withName("llama").build());
    BaseModelKey key = BaseModelKey.of(model);
    assertThat(key.clusterScoped()).isTrue();
    assertThat(key.reportKey()).isEqualTo("clusterbasemodel.llama");
    assertThat(key.labelKey()).isEqualTo("models.ome.io/clusterbasemodel.llama");
  }

  @Test
  void reportKeysParseBack() {
    assertThat(BaseModelKey.fromReportKey("clusterbasemodel.a.b")).contains(new BaseModelKey(null, "a.b"));
    assertThat(BaseModelKey.fromReportKey("ns.basemodel.m")).contains(new BaseModelKey("ns", "m"));
    assertThat(BaseModelKey.fromReportKey("something-else")).isEmpty();
    assertThat(BaseModelKey.fromReportKey("clusterbasemodel.")).isEmpty();
    assertThat(BaseModelKey.fromReportKey(".basemodel.m")).isEmpty();
  }

  @Test
  void longKeysStayValidLabelNamesAndDistinct() {
    String longName = "a-very-long-model-name-that-goes-on-and-on-for-quite-a-while-really";
    BaseModelKey a = new BaseModelKey("some-namespace", longName + "-1");
    BaseModelKey b = new BaseModelKey("some-namespace", longName + "-2");
    String nameA = a.labelKey().substring(BaseModelKey.LABEL_PREFIX.length());
    assertThat(nameA).hasSizeLessThanOrEqualTo(63).matches("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    assertThat(a.labelKey()).isNotEqualTo(b.labelKey());
    assertThat(a.labelKey()).isEqualTo(new BaseModelKey("some-namespace", longName + "-1").labelKey());
  }

  @Test
  void fineTunedWeightsHaveTheirOwnKeys() {
    BaseModelKey key = BaseModelKey.fineTunedWeight("support");
    assertThat(key.reportKey()).isEqualTo("finetunedweight.support");
    assertThat(key.labelKey()).isEqualTo("models.ome.io/finetunedweight.support");
    assertThat(key).hasToString("finetunedweight/support");
    assertThat(BaseModelKey.fromReportKey("finetunedweight.support")).contains(key);
    assertThat(key).isNotEqualTo(new BaseModelKey(null, "support"));
  }
}
