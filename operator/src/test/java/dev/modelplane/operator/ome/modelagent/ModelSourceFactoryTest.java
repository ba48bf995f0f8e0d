package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelSourceFactoryTest {
  @Test
  void aSecretTheAgentMayNotReadFailsTheModelNamingTheBindingItNeeds() {
    ModelAgentSettings settings = ModelAgentSettings.of("node-a", "modelplane-system",
        ModelRoots.parse(List.of("/raid/models")));
    ModelSourceFactory factory = new ModelSourceFactory((ns, name) -> {
      throw new KubernetesClientException("secrets \"" + name + "\" is forbidden", 403, null);
    }, settings);
    AgentModel model = new AgentModel(new BaseModelKey("team-a", "llama"), new StorageSpec(null, null, null,
        "hf-token", "hf://org/llama", null, null, null), false, false);
    assertThat(factory.create(model, StorageUri.parse("hf://org/llama", "f"))).isEqualTo(
        new ModelSourceFactory.Outcome.Refused("SecretNotReadable", "spec.storage.key: the model agent may not read "
            + "Secret team-a/hf-token: a RoleBinding in namespace team-a to the ClusterRole "
            + "modelplane-model-agent-secrets for the agents' service account is needed (docs/model-agent.md)"));
  }
}
