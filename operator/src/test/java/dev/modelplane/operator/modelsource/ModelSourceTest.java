package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.operator.TestObjects;
import org.junit.jupiter.api.Test;

class ModelSourceTest {

  @Test
  void everySourceForm() {
    assertThat(ModelSource.parse("https://h/x/model.gguf")).isEqualTo(new ModelSource.Http("https://h/x/model.gguf"));
    assertThat(ModelSource.parse("http://127.0.0.1:8000/m.gguf")).isInstanceOf(ModelSource.Http.class);
    assertThat(ModelSource.parse("hf://org/repo")).isEqualTo(new ModelSource.HuggingFace("org/repo", null, false));
    assertThat(ModelSource.parse("hf://org/repo@v2")).isEqualTo(new ModelSource.HuggingFace("org/repo", "v2", false));
    assertThat(ModelSource.parse("org/repo")).isEqualTo(new ModelSource.HuggingFace("org/repo", null, true));
    assertThat(ModelSource.parse("s3://bucket/a/b.gguf")).isEqualTo(new ModelSource.S3("bucket", "a/b.gguf"));
    assertThat(ModelSource.parse("pvc://claim/dir/m.gguf")).isEqualTo(new ModelSource.Pvc("claim", "dir/m.gguf"));
    assertThat(ModelSource.parse("file:///data/m.gguf")).isEqualTo(new ModelSource.LocalPath("/data/m.gguf"));
    assertThat(ModelSource.parse("/data//m.gguf")).isEqualTo(new ModelSource.LocalPath("/data/m.gguf"));
    assertThat(ModelSource.parse("hf://org/repo@v2").kind()).isEqualTo("hf");
    assertThat(ModelSource.parse("org/repo").kind()).isEqualTo("hf-id");
  }

  @Test
  void malformedSourcesSayWhy() {
    assertThatThrownBy(() -> ModelSource.parse("s3://bucket")).hasMessageContaining("s3://bucket/key");
    assertThatThrownBy(() -> ModelSource.parse("pvc://claim")).hasMessageContaining("pvc://claim/path");
    assertThatThrownBy(() -> ModelSource.parse("file://relative/x")).hasMessageContaining("absolute");
    assertThatThrownBy(() -> ModelSource.parse("/data/../etc/passwd")).hasMessageContaining("..");
    assertThatThrownBy(() -> ModelSource.parse("ftp://h/x")).hasMessageContaining("unsupported scheme");
    assertThatThrownBy(() -> ModelSource.parse("org/repo/extra")).hasMessageContaining("org/name");
    assertThatThrownBy(() -> ModelSource.parse("hf://org/repo@")).hasMessageContaining("revision");
    assertThatThrownBy(() -> ModelSource.parse("https://host")).hasMessageContaining("no file");
  }

  @Test
  void cacheKeyIsTheFirst16HexOfTheSourcesSha256() {
    // sha256("abc") = ba7816bf8f01cfea414140de… (sha256sum)
    assertThat(CacheKey.of("abc")).isEqualTo("ba7816bf8f01cfea");
    assertThat(CacheKey.of("hf://org/repo")).hasSize(16).matches("[0-9a-f]{16}");
  }

  @Test
  void layouts() {
    ModelLayout https = ModelLayout.of(TestObjects.model("source: https://h/x/m.gguf?download=1\nmmproj: p.gguf\n"),
        "https://hub");
    String key = CacheKey.of("https://h/x/m.gguf?download=1");
    assertThat(https.staging()).isEqualTo(ModelLayout.Staging.DOWNLOAD);
    assertThat(https.modelPath()).isEqualTo("/models/" + key + "/m.gguf");
    assertThat(https.mmprojPath()).isEqualTo("/models/" + key + "/p.gguf");
    assertThat(https.downloads()).containsExactly(new ModelLayout.Download("https://h/x/m.gguf?download=1", "m.gguf"),
        new ModelLayout.Download("https://h/x/p.gguf", "p.gguf"));

    ModelLayout s3 = ModelLayout.of(TestObjects.model("source: s3://b/models/\nfiles: [a.gguf, b.gguf]\n"), "x");
    assertThat(s3.downloads()).extracting(ModelLayout.Download::url).containsExactly("s3://b/models/a.gguf",
        "s3://b/models/b.gguf");
    assertThat(s3.stagedFiles()).containsExactly("a.gguf", "b.gguf");

    ModelLayout safetensors = ModelLayout.of(TestObjects.model(
        "source: hf://org/repo\nformat: safetensors\nfiles: [config.json, model.safetensors]\n"), "https://hub");
    assertThat(safetensors.directoryFormat()).isTrue();
    assertThat(safetensors.modelPath()).isEqualTo(safetensors.modelDir());

    ModelLayout hfId = ModelLayout.of(TestObjects.model("source: hf://org/repo@rev\n"), "https://hub");
    assertThat(hfId.staging()).isEqualTo(ModelLayout.Staging.RUNTIME);
    assertThat(hfId.cacheKey()).isEmpty();
    assertThat(hfId.modelPath()).isEqualTo("org/repo@rev");

    ModelLayout pvc = ModelLayout.of(TestObjects.model("source: pvc://store/a/b.gguf\nmmproj: p.gguf\n"), "x");
    assertThat(pvc.modelPath()).isEqualTo("/model-source/a/b.gguf");
    assertThat(pvc.mmprojPath()).isEqualTo("/model-source/a/p.gguf");
    assertThat(pvc.sourceClaim()).isEqualTo("store");
  }

  @Test
  void filesOnlyWithHubOrS3() {
    assertThatThrownBy(() -> ModelLayout.of(TestObjects.model("source: https://h/x/m.gguf\nfiles: [a]\n"), "x"))
        .hasMessageStartingWith("spec.files:");
    assertThatThrownBy(() -> ModelLayout.of(TestObjects.model("source: hf://o/r\nfiles: [../a]\n"), "x"))
        .hasMessageStartingWith("spec.files:");
  }
}
