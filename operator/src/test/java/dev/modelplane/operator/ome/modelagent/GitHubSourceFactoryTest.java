package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.GitHubReleaseClient;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GitHubSourceFactoryTest {
  private static final ModelAgentSettings SETTINGS = ModelAgentSettings.of("node-a", "modelplane-system",
      ModelRoots.parse(List.of("/raid/models")));

  @Test
  void noSecretReadsAnonymouslyFromGitHubOrTheGivenApi() {
    GitHubReleaseClient client = ready(create("github://org/repo", null, null, Map.of()));
    assertThat(client.settings().token()).isEmpty();
    assertThat(client.settings().api()).hasToString("https://api.github.com");
    assertThat(client.settings().tag()).isEqualTo("latest");
    assertThat(ready(create("github://org/repo@v1.2", null, null, Map.of("endpoint", "https://ghe.example/api/v3/")))
        .settings()).satisfies(s -> {
          assertThat(s.api()).hasToString("https://ghe.example/api/v3");
          assertThat(s.tag()).isEqualTo("v1.2");
        });
  }

  @Test
  void theTokenUnderAnyOfItsNames() {
    for (String key : List.of("GITHUB_TOKEN", "github_token", "token")) {
      assertThat(ready(create("github://org/repo", "gh", Map.of(key, "ghp_x"), Map.of())).settings().token())
          .contains("ghp_x");
    }
    assertThat(ready(create("github://org/repo", "gh", Map.of("pat", "ghp_mine", "GITHUB_TOKEN", "ghp_other"),
        Map.of("secretKey", "pat"))).settings().token()).contains("ghp_mine");
    assertThat(ready(create("github://org/repo", "gh", Map.of("GITHUB_TOKEN", "ghp_x"), Map.of())).settings()
        .toString()).doesNotContain("ghp_x");
  }

  @Test
  void aMissingSecretOrKeyIsNamedWithoutValues() {
    assertThat(create("github://org/repo", "gh", null, Map.of())).isEqualTo(new ModelSourceFactory.Outcome.Refused(
        "MissingCredentials", "Secret 'gh' (spec.storage.key) not found in namespace 'team'"));
    assertThat(create("github://org/repo", "gh", Map.of("x", "y"), Map.of("secretKey", "pat"))).isEqualTo(
        new ModelSourceFactory.Outcome.Refused("MissingCredentials", "Secret 'gh' in namespace 'team' has none of "
            + "the keys pat, GITHUB_TOKEN, github_token, token"));
    assertThat(create("github://org/repo", "gh", Map.of("token", "two words"), Map.of())).isEqualTo(
        new ModelSourceFactory.Outcome.Refused("InvalidCredentials", "Secret 'gh' in namespace 'team': the GitHub "
            + "token must be printable ASCII without spaces"));
  }

  private static GitHubReleaseClient ready(ModelSourceFactory.Outcome outcome) {
    assertThat(outcome).isInstanceOf(ModelSourceFactory.Outcome.Ready.class);
    return (GitHubReleaseClient) ((ModelSourceFactory.Outcome.Ready) outcome).source();
  }

  private static ModelSourceFactory.Outcome create(String uri, String secret, Map<String, String> data,
      Map<String, String> params) {
    AgentModel model = new AgentModel(new BaseModelKey("team", "llama"), new StorageSpec(null, null, params, secret,
        uri, null, null, null), false, false);
    return new ModelSourceFactory((ns, name) -> data, SETTINGS).create(model, StorageUri.parse(uri, "f"));
  }
}
