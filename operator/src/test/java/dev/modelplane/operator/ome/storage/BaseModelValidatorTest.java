package dev.modelplane.operator.ome.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.common.FieldProblem;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BaseModelValidatorTest {
  static BaseModelSpec spec(String uri, String path) {
    return new BaseModelSpec(null, null, null, null, null, null, null, null, null,
        new StorageSpec(path, null, null, null, uri, null, null, null), null, null, null, null, null, null, null,
        null, null);
  }

  @ParameterizedTest
  @CsvSource(nullValues = "null", value = {
      "hf://meta-llama/Llama-3.1-8B, /mnt/models/llama",
      "hf://meta-llama/Llama-3.1-8B, null",
      "s3://bucket@us-west-2/models/llama, /mnt/models/llama",
      "gs://bucket/models/llama, /mnt/models/llama",
      "github://org/repo@v1, null",
      "local:///mnt/models/llama, null",
      "pvc://models/llama, null",
      "pvc://team:models/llama, null"})
  void servableStorageHasNoProblem(String uri, String path) {
    assertThat(BaseModelValidator.validate(spec(uri, path), false)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', nullValues = "null", value = {
      "oci://n/ns/b/bucket/o/llama | /mnt/models/x | spec.storage.storageUri | UnsupportedStorage | oci://",
      "az://acct/container/llama | /mnt/models/x | spec.storage.storageUri | UnsupportedStorage | az://",
      "vendor://nvidia/models/llama | null | spec.storage.storageUri | UnsupportedStorage | vendor://",
      "ftp://host/llama | /mnt/models/x | spec.storage.storageUri | InvalidStorageUri | ftp",
      "hf:// | /mnt/models/x | spec.storage.storageUri | InvalidStorageUri | model id"})
  void problemsNameTheField(String uri, String path, String field, String reason, String fragment) {
    List<FieldProblem> problems = BaseModelValidator.validate(spec(uri, path), false);
    assertThat(problems).hasSize(1);
    FieldProblem p = problems.getFirst();
    assertThat(p.fatal()).isTrue();
    assertThat(p.field()).isEqualTo(field);
    assertThat(p.reason()).isEqualTo(reason);
    assertThat(p.describe()).startsWith(field + ": ").contains(fragment);
  }

  @org.junit.jupiter.api.Test
  void aClusterModelsClaimNeedsItsNamespace() {
    assertThat(BaseModelValidator.validate(spec("pvc://team:models/llama", null), true)).isEmpty();
    List<FieldProblem> problems = BaseModelValidator.validate(spec("pvc://models/llama", null), true);
    assertThat(problems).extracting(FieldProblem::describe).containsExactly("spec.storage.storageUri: a "
        + "ClusterBaseModel's pvc:// URI must name the claim's namespace, as pvc://<namespace>:<claim>/<path>");
    assertThat(BaseModelValidator.validate(spec("pvc://models/llama", null), false)).isEmpty();
  }
}
