package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job container's environment, with the cluster's Secrets and ConfigMaps, always offline. */
class JobEnvTest {
  private final FakeClusterView cluster = new FakeClusterView().secret("ns/hf", "token", "hf_abc")
      .configMap("ns/settings", "UNIT", "s").configMap("ns/settings", "LEVEL", "info");

  @Test
  void plainSecretConfigMapAndFieldValuesThenTheOfflineSwitches() throws Exception {
    Container c = new ContainerBuilder().withName("c")
        .addNewEnvFrom().withPrefix("APP_").withNewConfigMapRef("settings", false).endEnvFrom()
        .addNewEnv().withName("ENABLE_UI").withValue("false").endEnv()
        .addNewEnv().withName("HUGGINGFACE_API_KEY").withNewValueFrom().withNewSecretKeyRef("token", "hf", false)
        .endValueFrom().endEnv()
        .addNewEnv().withName("UNIT").withNewValueFrom().withNewConfigMapKeyRef("UNIT", "settings", false)
        .endValueFrom().endEnv()
        .addNewEnv().withName("POD").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.name")
        .endFieldRef().endValueFrom().endEnv()
        .addNewEnv().withName("WHERE").withValue("$(POD)-$(UNIT)-$(NOPE)").endEnv()
        .addNewEnv().withName("HF_HUB_OFFLINE").withValue("0").endEnv().build();
    Map<String, String> env = JobEnv.of(JobPodsTest.pod(List.of(), List.of(c)), c, cluster);
    assertThat(env).containsEntry("APP_UNIT", "s").containsEntry("APP_LEVEL", "info")
        .containsEntry("ENABLE_UI", "false").containsEntry("HUGGINGFACE_API_KEY", "hf_abc")
        .containsEntry("UNIT", "s").containsEntry("POD", "p").containsEntry("WHERE", "p-s-$(NOPE)")
        .containsEntry("HF_HUB_OFFLINE", "1").containsEntry("TRANSFORMERS_OFFLINE", "1")
        .containsEntry("HF_DATASETS_OFFLINE", "1");
  }

  @Test
  void aMissingSecretOrKeyIsAConfigErrorUnlessOptional() throws Exception {
    Container missing = new ContainerBuilder().withName("c").addNewEnv().withName("K").withNewValueFrom()
        .withNewSecretKeyRef("token", "absent", false).endValueFrom().endEnv().build();
    assertThatThrownBy(() -> JobEnv.of(JobPodsTest.pod(List.of(), List.of(missing)), missing, cluster))
        .isInstanceOf(JobEnv.ConfigError.class).hasMessage("secret \"absent\" not found");
    Container noKey = new ContainerBuilder().withName("c").addNewEnv().withName("K").withNewValueFrom()
        .withNewConfigMapKeyRef("NOPE", "settings", false).endValueFrom().endEnv().build();
    assertThatThrownBy(() -> JobEnv.of(JobPodsTest.pod(List.of(), List.of(noKey)), noKey, cluster))
        .isInstanceOf(JobEnv.ConfigError.class).hasMessage("couldn't find key NOPE in configmap settings");
    Container optional = new ContainerBuilder().withName("c").addNewEnv().withName("K").withNewValueFrom()
        .withNewSecretKeyRef("token", "absent", true).endValueFrom().endEnv().build();
    assertThat(JobEnv.of(JobPodsTest.pod(List.of(), List.of(optional)), optional, cluster)).doesNotContainKey("K");
  }
}
