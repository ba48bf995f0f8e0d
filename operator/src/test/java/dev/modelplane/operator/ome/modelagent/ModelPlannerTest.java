package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.ome.basemodel.BaseModelKey;
import java.nio.file.Path;
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
    assertThat(plan(model("hf://org/model", "/mnt/models/llama"))).isEqualTo(new AgentAction.Download(
        new StorageUri.HuggingFace("org/model", "main"),
        new ModelRoots.Resolved(Path.of("/mnt/models/llama"), Path.of("/mnt/models/llama"))));
    assertThat(plan(model("s3://bucket@eu-west-1/models/llama", "/raid/models/./llama/"))).isEqualTo(
        new AgentAction.Download(StorageUri.parse("s3://bucket@eu-west-1/models/llama", "f"),
            new ModelRoots.Resolved(Path.of("/raid/models/llama"), Path.of("/host/raid/llama"))));
  }

  @Test
  void localAndPvcNeedNoCopy() {
    assertThat(plan(model("local:///mnt/models/ready", null))).isEqualTo(new AgentAction.UseLocal(
        new ModelRoots.Resolved(Path.of("/mnt/models/ready"), Path.of("/mnt/models/ready"))));
    assertThat(plan(model("pvc://claim/sub/dir", null))).isEqualTo(new AgentAction.UsePvc("team", "claim",
        "sub/dir"));
    assertThat(plan(model("pvc://other:claim/sub", null))).isEqualTo(new AgentAction.UsePvc("other", "claim",
        "sub"));
    assertThat(plan(model(CLUSTER_KEY, "pvc://claim/sub", null, null))).isEqualTo(new AgentAction.Fail(
        "InvalidStorageUri", "spec.storage.storageUri: a ClusterBaseModel's pvc:// URI must name the claim's "
            + "namespace, as pvc://<namespace>:<claim>/<path>"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "oci://n/ns/b/bucket/o/model | oci",
      "az://account/container/blob | az",
      "gs://bucket/object | gs",
      "github://owner/repo | github",
      "vendor://nvidia/nim/llama | vendor"})
  void otherSchemesFailAsUnsupported(String uri, String scheme) {
    assertThat(plan(model(uri, "/mnt/models/x"))).isEqualTo(new AgentAction.Fail("UnsupportedStorage",
        "spec.storage.storageUri: the model agent cannot fetch " + scheme + ":// sources; supported: hf:// and s3:// "
            + "(downloaded), local:// and pvc:// (used in place)"));
  }

  @Test
  void malformedUriFailsNamingTheField() {
    AgentAction action = plan(model("ftp://somewhere/model", "/mnt/models/x"));
    assertThat(action).isInstanceOf(AgentAction.Fail.class);
    AgentAction.Fail fail = (AgentAction.Fail) action;
    assertThat(fail.reason()).isEqualTo("InvalidStorageUri");
    assertThat(fail.message()).startsWith("spec.storage.storageUri").contains("ftp");
  }

  @Test
  void downloadsNeedAStoragePath() {
    AgentAction.Fail expected = new AgentAction.Fail("MissingStoragePath", "spec.storage.path: a hf:// model is "
        + "downloaded onto each selected node and needs the directory to put it in");
    assertThat(plan(model("hf://org/model", null))).isEqualTo(expected);
    assertThat(plan(model("hf://org/model", "  "))).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "/mnt/models/../etc | spec.storage.path '/mnt/models/../etc' contains '..'; refused",
      "/mnt/models/a/../../etc | spec.storage.path '/mnt/models/a/../../etc' contains '..'; refused",
      "/etc/models | spec.storage.path '/etc/models' is not inside an allowed models root (/mnt/models, /raid/models)",
      "/mnt/modelsx/a | spec.storage.path '/mnt/modelsx/a' is not inside an allowed models root (/mnt/models, /raid/models)",
      "/mnt/models | spec.storage.path '/mnt/models' is the models root /mnt/models itself; a model needs a directory of its own inside it",
      "/mnt/models/ | spec.storage.path '/mnt/models/' is the models root /mnt/models itself; a model needs a directory of its own inside it"})
  void pathsOutsideTheRootsAreRefused(String path, String message) {
    assertThat(plan(model("hf://org/model", path))).isEqualTo(new AgentAction.Fail("PathNotAllowed", message));
  }

  @Test
  void aRelativePathIsInvalidOnEveryNode() {
    assertThat(plan(model("hf://org/model", "relative/dir"))).isEqualTo(new AgentAction.Fail("InvalidStoragePath",
        "spec.storage.path: \"relative/dir\" is not an absolute path on the node"));
  }

  @Test
  void controlCharactersAndLocalEscapesAreRefused() {
    assertThat(plan(model("hf://org/model", "/mnt/models/a\nb"))).isEqualTo(new AgentAction.Fail(
        "PathNotAllowed", "spec.storage.path contains a control character"));
    assertThat(plan(model("local:///var/lib/secret", null))).isEqualTo(new AgentAction.Fail("PathNotAllowed",
        "spec.storage.storageUri (local://) '/var/lib/secret' is not inside an allowed models root (/mnt/models, "
            + "/raid/models)"));
    assertThat(plan(model("local://./models", null))).isEqualTo(new AgentAction.Fail("PathNotAllowed",
        "spec.storage.storageUri (local://) must be an absolute directory, got './models'"));
  }

  @Test
  void removedWhenGoneDeletedOrNotForThisNode() {
    assertThat(plan(null)).isEqualTo(new AgentAction.Remove("the model no longer exists"));
    AgentModel m = model("hf://org/model", "/mnt/models/x");
    assertThat(plan(new AgentModel(KEY, m.storage(), true, false)))
        .isEqualTo(new AgentAction.Remove("the model is being deleted"));
    assertThat(plan(model(KEY, "hf://org/model", "/mnt/models/x", Map.of("gpu", "false"))))
        .isInstanceOf(AgentAction.Remove.class);
    assertThat(plan(model(KEY, "hf://org/model", "/mnt/models/x", Map.of("gpu", "true"))))
        .isInstanceOf(AgentAction.Download.class);
  }

  @Test
  void downloadDirOnlyForDownloadedSources() {
    assertThat(ModelPlanner.downloadDir(model("hf://org/model", "/mnt/models/x"), ROOTS)).isPresent();
    assertThat(ModelPlanner.downloadDir(model("local:///mnt/models/x", "/mnt/models/x"), ROOTS)).isEmpty();
    assertThat(ModelPlanner.downloadDir(model("pvc://c/x", "/mnt/models/x"), ROOTS)).isEmpty();
    assertThat(ModelPlanner.downloadDir(model("hf://org/model", "/etc"), ROOTS)).isEmpty();
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
