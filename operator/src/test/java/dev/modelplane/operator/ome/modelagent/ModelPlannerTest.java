package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelPlannerTest {
  private static final ModelRoots ROOTS = ModelRoots.parse(List.of("/mnt/models", "/raid/models=/host/raid"));
  private static final BaseModelKey KEY = new BaseModelKey("team", "llama");
  private static final BaseModelKey CLUSTER_KEY = new BaseModelKey(null, "llama");

  private static AgentModel model(String uri, String path) {
    return model(KEY, uri, path, null);
  }

  private static AgentModel model(BaseModelKey key, String uri, String path, Map<String, String> selector) {
    return new AgentModel(key, new StorageSpec(path, null, null, null, uri, selector, null, null), false, false);
  }

  private static AgentAction plan(AgentModel model) {
    return ModelPlanner.plan(model, "node-a", Map.of("gpu", "true"), ROOTS);
  }

  @Test
  void hfAndS3DownloadIntoTheStoragePath() {
    assertThat(plan(model("hf://org/model", "/mnt/models/team/llama"))).isEqualTo(new AgentAction.Download(
        new StorageUri.HuggingFace("org/model", "main"),
        new ModelRoots.Resolved(Path.of("/mnt/models/team/llama"), Path.of("/mnt/models/team/llama"))));
    assertThat(plan(model("s3://bucket@eu-west-1/models/llama", "/raid/models/./team/llama/"))).isEqualTo(
        new AgentAction.Download(StorageUri.parse("s3://bucket@eu-west-1/models/llama", "f"),
            new ModelRoots.Resolved(Path.of("/raid/models/team/llama"), Path.of("/host/raid/team/llama"))));
    assertThat(plan(model(CLUSTER_KEY, "hf://org/model", "/raid/models/shared/llama", null))).isEqualTo(
        new AgentAction.Download(new StorageUri.HuggingFace("org/model", "main"),
            new ModelRoots.Resolved(Path.of("/raid/models/shared/llama"), Path.of("/host/raid/shared/llama"))));
  }

  @Test
  void withoutAStoragePathTheDirectoryIsDerivedFromNamespaceAndName() {
    AgentAction.Download expected = new AgentAction.Download(new StorageUri.HuggingFace("org/model", "main"),
        new ModelRoots.Resolved(Path.of("/mnt/models/team/llama"), Path.of("/mnt/models/team/llama")));
    assertThat(plan(model("hf://org/model", null))).isEqualTo(expected);
    assertThat(plan(model("hf://org/model", "  "))).isEqualTo(expected);
    assertThat(plan(model(CLUSTER_KEY, "hf://org/model", null, null))).isEqualTo(new AgentAction.Download(
        new StorageUri.HuggingFace("org/model", "main"),
        new ModelRoots.Resolved(Path.of("/mnt/models/_cluster/llama"), Path.of("/mnt/models/_cluster/llama"))));
  }

  @Test
  void localAndPvcNeedNoCopy() {
    assertThat(plan(model("local:///mnt/models/team/ready", null))).isEqualTo(new AgentAction.UseLocal(
        new ModelRoots.Resolved(Path.of("/mnt/models/team/ready"), Path.of("/mnt/models/team/ready"))));
    assertThat(plan(model("pvc://claim/sub/dir", null))).isEqualTo(new AgentAction.UsePvc("team", "claim",
        "sub/dir"));
    assertThat(plan(model("pvc://other:claim/sub", null))).isEqualTo(new AgentAction.UsePvc("other", "claim",
        "sub"));
    assertThat(plan(model(CLUSTER_KEY, "pvc://claim/sub", null, null))).isEqualTo(new AgentAction.Fail(
        "InvalidStorageUri", "spec.storage.storageUri: a ClusterBaseModel's pvc:// URI must name the claim's "
            + "namespace, as pvc://<namespace>:<claim>/<path>"));
  }

  @Test
  void anotherTenantsDirectoryIsNeitherDownloadedIntoNorRead() {
    String outside = "is outside the directories BaseModels of namespace team may use (/mnt/models/team/…, "
        + "/raid/models/team/…); leave spec.storage.path empty to download into /mnt/models/team/llama";
    assertThat(plan(model("hf://org/model", "/mnt/models/other/llama"))).isEqualTo(new AgentAction.Fail(
        "PolicyRefused", "spec.storage.path: '/mnt/models/other/llama' " + outside));
    assertThat(plan(model("local:///raid/models/other/llama", null))).isEqualTo(new AgentAction.Fail(
        "PolicyRefused", "spec.storage.storageUri: '/raid/models/other/llama' " + outside));
    assertThat(plan(model("hf://org/model", "/mnt/models/team"))).isEqualTo(new AgentAction.Fail(
        "PolicyRefused", "spec.storage.path: '/mnt/models/team' " + outside));
  }

  @Test
  void aDirectoryOverlappingAnOlderModelsIsRefusedAndTheOlderKeepsIt() {
    AgentModel older = new AgentModel(new BaseModelKey(null, "shared"), new StorageSpec("/mnt/models/team",
        null, null, null, "hf://org/shared", null, null, null), false, false, Instant.parse("2026-01-01T00:00:00Z"));
    AgentModel younger = new AgentModel(KEY, new StorageSpec(null, null, null, null, "hf://org/model", null, null,
        null), false, false, Instant.parse("2026-02-01T00:00:00Z"));
    List<AgentModel> all = List.of(older, younger);
    assertThat(ModelPlanner.plan(younger, "node-a", Map.of(), ROOTS, all)).isEqualTo(new AgentAction.Fail(
        "PathConflict", "spec.storage.path: '/mnt/models/team/llama' is inside its directory /mnt/models/team of "
            + "clusterbasemodel/shared, which claimed it first; a model's directory may not overlap another's"));
    assertThat(ModelPlanner.plan(older, "node-a", Map.of(), ROOTS, all)).isInstanceOf(AgentAction.Download.class);
    // Nothing is removed in the name of the refused model: the directory is the older one's.
    assertThat(ModelPlanner.downloadDir(younger, ROOTS, all)).isEmpty();
    assertThat(ModelPlanner.downloadDir(older, ROOTS, all)).isPresent();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "oci://n/ns/b/bucket/o/model | oci",
      "az://account/container/blob | az",
      "vendor://nvidia/nim/llama | vendor"})
  void otherSchemesFailAsUnsupported(String uri, String scheme) {
    assertThat(plan(model(uri, "/mnt/models/x"))).isEqualTo(new AgentAction.Fail("UnsupportedStorage",
        "spec.storage.storageUri: the model agent cannot fetch " + scheme + ":// sources; supported: hf://, s3://, "
            + "gs:// and github:// (downloaded), local:// and pvc:// (used in place)"));
  }

  @Test
  void malformedUriFailsNamingTheField() {
    AgentAction action = plan(model("ftp://somewhere/model", "/mnt/models/x"));
    assertThat(action).isInstanceOf(AgentAction.Fail.class);
    AgentAction.Fail fail = (AgentAction.Fail) action;
    assertThat(fail.reason()).isEqualTo("InvalidStorageUri");
    assertThat(fail.message()).startsWith("spec.storage.storageUri").contains("ftp");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "/mnt/models/team/../etc | spec.storage.path: '/mnt/models/team/../etc' contains '..'",
      "/etc/models | spec.storage.path: '/etc/models' is outside the directories models may use (/mnt/models/…, /raid/models/…)",
      "/mnt/modelsx/a | spec.storage.path: '/mnt/modelsx/a' is outside the directories models may use (/mnt/models/…, /raid/models/…)",
      "/mnt/models | spec.storage.path: '/mnt/models' is outside the directories models may use (/mnt/models/…, /raid/models/…)",
      "relative/dir | spec.storage.path: 'relative/dir' is not an absolute directory"})
  void pathsOutsideTheRootsAreRefused(String path, String message) {
    assertThat(plan(model(CLUSTER_KEY, "hf://org/model", path, null))).isEqualTo(new AgentAction.Fail(
        "PolicyRefused", message));
  }

  @Test
  void controlCharactersAndLocalEscapesAreRefused() {
    assertThat(plan(model("hf://org/model", "/mnt/models/team/a\nb"))).isEqualTo(new AgentAction.Fail(
        "PolicyRefused", "spec.storage.path: the directory contains a control character"));
    assertThat(plan(model(CLUSTER_KEY, "local:///var/lib/secret", null, null))).isEqualTo(new AgentAction.Fail(
        "PolicyRefused", "spec.storage.storageUri: '/var/lib/secret' is outside the directories models may use "
            + "(/mnt/models/…, /raid/models/…)"));
    assertThat(plan(model("local://./models", null))).isEqualTo(new AgentAction.Fail("PolicyRefused",
        "spec.storage.storageUri: './models' is not an absolute directory"));
  }

  @Test
  void removedWhenGoneDeletedOrNotForThisNode() {
    assertThat(plan(null)).isEqualTo(new AgentAction.Remove("the model no longer exists"));
    AgentModel m = model("hf://org/model", "/mnt/models/team/x");
    assertThat(plan(new AgentModel(KEY, m.storage(), true, false)))
        .isEqualTo(new AgentAction.Remove("the model is being deleted"));
    assertThat(plan(model(KEY, "hf://org/model", "/mnt/models/x", Map.of("gpu", "false"))))
        .isInstanceOf(AgentAction.Remove.class);
    assertThat(plan(model(KEY, "hf://org/model", "/mnt/models/team/x", Map.of("gpu", "true"))))
        .isInstanceOf(AgentAction.Download.class);
  }

  @Test
  void downloadDirOnlyForDownloadedSources() {
    assertThat(ModelPlanner.downloadDir(model("hf://org/model", "/mnt/models/team/x"), ROOTS, List.of()))
        .isPresent();
    assertThat(ModelPlanner.downloadDir(model("local:///mnt/models/team/x", "/mnt/models/team/x"), ROOTS,
        List.of())).isEmpty();
    assertThat(ModelPlanner.downloadDir(model("pvc://c/x", "/mnt/models/team/x"), ROOTS, List.of())).isEmpty();
    assertThat(ModelPlanner.downloadDir(model("hf://org/model", "/etc"), ROOTS, List.of())).isEmpty();
    assertThat(ModelPlanner.downloadDir(model("hf://org/model", "/mnt/models/other/x"), ROOTS, List.of()))
        .isEmpty();
  }

  @Test
  void rootFlagsAreChecked() {
    assertThat(ModelRoots.parse(List.of("/mnt/models/", " /a=/b/c ")).roots()).containsExactly(
        new ModelRoots.Root(Path.of("/mnt/models"), Path.of("/mnt/models")),
        new ModelRoots.Root(Path.of("/a"), Path.of("/b/c")));
    assertThatThrownBy(() -> ModelRoots.parse(List.of("models"))).hasMessage(
        "--models-root 'models' must be an absolute directory without '..' (or SPEC_DIR=LOCAL_DIR)");
    assertThatThrownBy(() -> ModelRoots.parse(List.of("/a=/b/../c"))).hasMessage(
        "--models-root '/a=/b/../c' must be an absolute directory without '..' (or SPEC_DIR=LOCAL_DIR)");
    assertThatThrownBy(() -> ModelRoots.parse(List.of(""))).hasMessage(
        "--models-root needs at least one directory");
  }

  @Test
  void fingerprintFollowsTheStorageFieldsTheAgentReads() {
    AgentModel a = model("hf://org/model", "/mnt/models/x");
    assertThat(a.fingerprint()).isEqualTo(model("hf://org/model", "/mnt/models/x").fingerprint());
    assertThat(a.fingerprint()).isNotEqualTo(model("hf://org/model@v2", "/mnt/models/x").fingerprint());
    assertThat(a.fingerprint()).isNotEqualTo(model("hf://org/model", "/mnt/models/y").fingerprint());
    assertThat(a.fingerprint()).isNotEqualTo(new AgentModel(KEY, a.storage(), false, true).fingerprint());
  }
}
