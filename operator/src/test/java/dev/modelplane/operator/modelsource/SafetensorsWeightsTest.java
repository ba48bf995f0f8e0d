package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A model directory's safetensors weights: single file, sharded with an index, partial downloads, other files. */
class SafetensorsWeightsTest {
  @TempDir
  Path dir;

  @Test
  void aSingleFileIsCounted() throws IOException {
    new SafetensorsTestWriter().tensor("a", "BF16", 4, 8).tensor("b", "BF16", 8).write(dir.resolve("model.safetensors"));
    assertThat(SafetensorsWeights.scan(dir)).isEqualTo(
        new SafetensorsWeights.Counted(java.util.List.of(dir.resolve("model.safetensors")), 40));
  }

  @Test
  void shardsNamedByTheIndexAreEachCountedOnce() throws IOException {
    writeShards();
    // A stray consolidated file (as some repositories ship next to the shards) is not part of the index.
    new SafetensorsTestWriter().tensor("x", "F32", 1000).write(dir.resolve("consolidated.safetensors"));

    var weights = (SafetensorsWeights.Counted) SafetensorsWeights.scan(dir);

    assertThat(weights.files()).extracting(p -> p.getFileName().toString()).containsExactly(
        "model-00001-of-00003.safetensors", "model-00002-of-00003.safetensors", "model-00003-of-00003.safetensors");
    assertThat(weights.parameterCount()).isEqualTo(10 * 4 + 4 * 4 + 4 + 10 * 4);
  }

  @Test
  void missingShardsAreNamed() throws IOException {
    writeShards();
    Files.delete(dir.resolve("model-00002-of-00003.safetensors"));

    var weights = (SafetensorsWeights.ShardsMissing) SafetensorsWeights.scan(dir);

    assertThat(weights.missing()).containsExactly("model-00002-of-00003.safetensors");
    assertThat(weights.contents().totalSize()).isEqualTo(OptionalLong.of(200));
    assertThat(weights.message()).isEqualTo(dir.resolve("model.safetensors.index.json")
        + ": names 3 shard files, 1 of them missing: model-00002-of-00003.safetensors");
  }

  @Test
  void otherSafetensorsFilesAreSummedWhenThereIsNoIndexOrModelFile() throws IOException {
    new SafetensorsTestWriter().tensor("a", "F16", 3, 3).write(dir.resolve("diffusion_pytorch_model.safetensors"));
    new SafetensorsTestWriter().tensor("b", "F16", 2).write(dir.resolve("extra.safetensors"));
    Files.writeString(dir.resolve("config.json"), "{}");
    assertThat(((SafetensorsWeights.Counted) SafetensorsWeights.scan(dir)).parameterCount()).isEqualTo(11);
  }

  @Test
  void aDirectoryWithoutWeightsHasNone() throws IOException {
    Files.writeString(dir.resolve("config.json"), "{}");
    assertThat(SafetensorsWeights.scan(dir)).isEqualTo(new SafetensorsWeights.Absent());
    assertThat(SafetensorsWeights.scan(dir.resolve("nowhere"))).isEqualTo(new SafetensorsWeights.Absent());
  }

  @Test
  void aBadIndexIsRefusedWithItsReason() throws IOException {
    Path index = dir.resolve("model.safetensors.index.json");
    Files.writeString(index, "{\"weight_map\": {\"a\": \"../outside.safetensors\"}}");
    assertThatThrownBy(() -> SafetensorsWeights.scan(dir)).isInstanceOf(SafetensorsFormatException.class)
        .hasMessage(index + ": weight_map entry 'a' names '../outside.safetensors', which is not a file in the "
            + "index's directory");
    Files.writeString(index, "{\"weight_map\": {}}");
    assertThatThrownBy(() -> SafetensorsWeights.scan(dir)).hasMessage(index + ": has no weight_map entries");
    Files.writeString(index, "{\"weight_map\": {\"a\": 3}}");
    assertThatThrownBy(() -> SafetensorsWeights.scan(dir))
        .hasMessage(index + ": weight_map entry 'a' does not name a shard file");
    Files.writeString(index, "{\"weight_map\": ");
    assertThatThrownBy(() -> SafetensorsWeights.scan(dir)).hasMessageStartingWith(index + ": is not valid JSON: ");
    Files.writeString(index, "[]");
    assertThatThrownBy(() -> SafetensorsWeights.scan(dir)).hasMessage(index + ": is not a JSON object");
  }

  @Test
  void aMalformedShardNamesTheShard() throws IOException {
    writeShards();
    Path shard = dir.resolve("model-00003-of-00003.safetensors");
    Files.write(shard, new byte[4]);
    assertThatThrownBy(() -> SafetensorsWeights.scan(dir))
        .hasMessage(shard + ": is 4 bytes, too short for the 8-byte header length");
  }

  private void writeShards() throws IOException {
    new SafetensorsTestWriter().tensor("embed", "F32", 10, 4).write(dir.resolve("model-00001-of-00003.safetensors"));
    new SafetensorsTestWriter().tensor("layer.0.w", "F32", 4, 4).tensor("layer.0.norm", "F32", 4)
        .write(dir.resolve("model-00002-of-00003.safetensors"));
    new SafetensorsTestWriter().tensor("lm_head", "F32", 10, 4).write(dir.resolve("model-00003-of-00003.safetensors"));
    Files.writeString(dir.resolve("model.safetensors.index.json"), """
        {"metadata": {"total_size": 200},
         "weight_map": {"embed": "model-00001-of-00003.safetensors",
                        "layer.0.w": "model-00002-of-00003.safetensors",
                        "layer.0.norm": "model-00002-of-00003.safetensors",
                        "lm_head": "model-00003-of-00003.safetensors"}}
        """);
  }
}
