package dev.modelplane.operator.ome.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelPathsTest {
  private static final ModelPaths PATHS = new ModelPaths(List.of("/raid/models", "/mnt/extra/"));
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static ModelPaths.Claimant model(String namespace, String name, String uri, String path, Instant created) {
    return new ModelPaths.Claimant(new BaseModelKey(namespace, name), new StorageSpec(path, null, null, null, uri,
        null, null, null), created);
  }

  private static ModelPaths.Decision.OnNode on(String path, String field) {
    return new ModelPaths.Decision.OnNode(Path.of(path), field);
  }

  @Test
  void withoutAPathTheDirectoryComesFromNamespaceAndName() {
    assertThat(PATHS.own(model("team-a", "llama", "hf://org/llama", null, T0)))
        .isEqualTo(on("/raid/models/team-a/llama", "spec.storage.path"));
    assertThat(PATHS.own(model("team-a", "llama", "s3://bucket/llama", " ", T0)))
        .isEqualTo(on("/raid/models/team-a/llama", "spec.storage.path"));
    assertThat(PATHS.own(model(null, "llama", "hf://org/llama", null, T0)))
        .isEqualTo(on("/raid/models/_cluster/llama", "spec.storage.path"));
    assertThat(PATHS.own(new ModelPaths.Claimant(BaseModelKey.fineTunedWeight("lora"), new StorageSpec(null, null,
        null, null, "hf://org/lora", null, null, null), T0)))
        .isEqualTo(on("/raid/models/_finetunedweights/lora", "spec.storage.path"));
  }

  @Test
  void aBaseModelMayNameDirectoriesOnlyInsideItsNamespacesDirectory() {
    assertThat(PATHS.own(model("team-a", "llama", "hf://org/llama", "/mnt/extra/team-a/x/../y", T0)))
        .isInstanceOf(ModelPaths.Decision.Refused.class);
    assertThat(PATHS.own(model("team-a", "llama", "hf://org/llama", "/mnt/extra/team-a/./y/", T0)))
        .isEqualTo(on("/mnt/extra/team-a/y", "spec.storage.path"));
    assertThat(PATHS.own(model("team-a", "llama", "local:///raid/models/team-a/ready", null, T0)))
        .isEqualTo(on("/raid/models/team-a/ready", "spec.storage.storageUri"));
    ModelPaths.Decision.Refused other = (ModelPaths.Decision.Refused) PATHS.own(model("team-a", "llama",
        "local:///raid/models/team-b/llama", null, T0));
    assertThat(other.reason()).isEqualTo("PolicyRefused");
    assertThat(other.describe()).isEqualTo("spec.storage.storageUri: '/raid/models/team-b/llama' is outside the "
        + "directories BaseModels of namespace team-a may use (/raid/models/team-a/…, /mnt/extra/team-a/…); leave "
        + "spec.storage.path empty to download into /raid/models/team-a/llama");
    assertThat(PATHS.own(model("team-a", "llama", "hf://org/llama", "/raid/models/team-a", T0)))
        .isInstanceOf(ModelPaths.Decision.Refused.class);
    assertThat(PATHS.own(model("team-a", "llama", "hf://org/llama", "/raid/models/team-ab/x", T0)))
        .isInstanceOf(ModelPaths.Decision.Refused.class);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "/etc/kubernetes | '/etc/kubernetes' is outside the directories models may use (/raid/models/…, /mnt/extra/…)",
      "/raid/models | '/raid/models' is outside the directories models may use (/raid/models/…, /mnt/extra/…)",
      "/raid/modelsx/a | '/raid/modelsx/a' is outside the directories models may use (/raid/models/…, /mnt/extra/…)",
      "/raid/models/a/../../etc | '/raid/models/a/../../etc' contains '..'",
      "raid/models/a | 'raid/models/a' is not an absolute directory"})
  void clusterModelsMayUseAnyDirectoryInsideARoot(String path, String message) {
    assertThat(PATHS.own(model(null, "llama", "hf://org/llama", path, T0)))
        .isEqualTo(new ModelPaths.Decision.Refused("PolicyRefused", "spec.storage.path", message));
    assertThat(PATHS.own(model(null, "llama", "hf://org/llama", "/raid/models/shared/llama", T0)))
        .isEqualTo(on("/raid/models/shared/llama", "spec.storage.path"));
  }

  @Test
  void claimsVendorModelsAndUnparsableSourcesHaveNoNodeDirectory() {
    assertThat(PATHS.own(model("a", "m", "pvc://claim/x", "/etc", T0))).isEqualTo(new ModelPaths.Decision.NotOnNode());
    assertThat(PATHS.own(model("a", "m", "vendor://nvidia/nim/m", "/etc", T0)))
        .isEqualTo(new ModelPaths.Decision.NotOnNode());
    assertThat(PATHS.own(model("a", "m", "ftp://x", "/etc", T0))).isEqualTo(new ModelPaths.Decision.NotOnNode());
    assertThat(PATHS.own(new ModelPaths.Claimant(new BaseModelKey("a", "m"), null, T0)))
        .isEqualTo(new ModelPaths.Decision.NotOnNode());
  }

  @Test
  void everyStoreDownloadsIntoADirectoryTheRulesAllow() {
    for (String uri : java.util.List.of("oci://n/ns/b/bucket/o/m", "gs://bucket/m", "az://acct/c/m",
        "github://org/repo")) {
      assertThat(PATHS.own(model("a", "m", uri, "/etc", T0))).as(uri)
          .isInstanceOf(ModelPaths.Decision.Refused.class);
      assertThat(PATHS.own(model("a", "m", uri, null, T0))).as(uri)
          .isInstanceOf(ModelPaths.Decision.OnNode.class);
    }
  }

  @Test
  void overlappingDirectoriesGoToTheOlderModel() {
    ModelPaths.Claimant cluster = model(null, "shared", "hf://org/llama", "/raid/models/team-a", T0);
    ModelPaths.Claimant same = model("team-a", "same", "hf://org/x", "/raid/models/team-a/llama",
        T0.plusSeconds(60));
    ModelPaths.Claimant tenant = model("team-a", "llama", "hf://org/llama", null, T0.plusSeconds(120));
    List<ModelPaths.Claimant> all = List.of(tenant, same, cluster);
    // The ClusterBaseModel came first: both tenants' directories are inside its own.
    assertThat(PATHS.decide(cluster, all)).isEqualTo(on("/raid/models/team-a", "spec.storage.path"));
    ModelPaths.Decision.Refused refused = (ModelPaths.Decision.Refused) PATHS.decide(tenant, all);
    assertThat(refused.reason()).isEqualTo("PathConflict");
    assertThat(refused.describe()).isEqualTo("spec.storage.path: '/raid/models/team-a/llama' is inside its "
        + "directory /raid/models/team-a of clusterbasemodel/shared, which claimed it first; a model's directory "
        + "may not overlap another's");
    // Without the ClusterBaseModel, the earlier BaseModel keeps the same directory.
    assertThat(PATHS.decide(same, List.of(tenant, same))).isEqualTo(on("/raid/models/team-a/llama",
        "spec.storage.path"));
    assertThat(((ModelPaths.Decision.Refused) PATHS.decide(tenant, List.of(tenant, same))).message())
        .startsWith("'/raid/models/team-a/llama' is the same directory of basemodel/team-a/same");
    // A later model inside a directory does not take it from the one around it.
    ModelPaths.Claimant inner = model("team-a", "inner", "local:///raid/models/team-a/base/sub", null,
        T0.plusSeconds(10));
    ModelPaths.Claimant outer = model("team-a", "base", "hf://org/base", null, T0.plusSeconds(20));
    assertThat(((ModelPaths.Decision.Refused) PATHS.decide(outer, List.of(inner, outer))).message())
        .startsWith("'/raid/models/team-a/base' is around its directory /raid/models/team-a/base/sub of "
            + "basemodel/team-a/inner");
  }

  @Test
  void equalTimesAreOrderedByKeyAndUnknownTimesComeLast() {
    ModelPaths.Claimant b = model("t", "b", "hf://o/m", "/raid/models/t/d", T0);
    ModelPaths.Claimant a = model("t", "a", "hf://o/m", "/raid/models/t/d", T0);
    assertThat(PATHS.decide(a, List.of(a, b))).isInstanceOf(ModelPaths.Decision.OnNode.class);
    assertThat(PATHS.decide(b, List.of(a, b))).isInstanceOf(ModelPaths.Decision.Refused.class);
    ModelPaths.Claimant unknown = model("t", "0", "hf://o/m", "/raid/models/t/d", null);
    assertThat(PATHS.decide(unknown, List.of(unknown, b))).isInstanceOf(ModelPaths.Decision.Refused.class);
    assertThat(PATHS.decide(b, List.of(unknown, b))).isInstanceOf(ModelPaths.Decision.OnNode.class);
  }

  @Test
  void rootsMustBeAbsolute() {
    assertThatThrownBy(() -> new ModelPaths(List.of("models"))).hasMessageContaining("must be an absolute");
    assertThatThrownBy(() -> new ModelPaths(List.of("/a/../b"))).hasMessageContaining("must be an absolute");
    assertThatThrownBy(() -> new ModelStorageSettings(List.of("/raid"), java.time.Duration.ZERO))
        .hasMessageContaining("must be positive");
  }
}
