package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GgufReaderTest {
  private static final GgufMetadata LLAMA = new GgufMetadata("llama", "Test Llama 8B", "Q4_K_M", "llama3.1", 3, 291L,
      131072L, 4096L, 32L, 32L);

  @Test
  void readsTheArchitectureKeys() throws IOException {
    assertThat(GgufReader.read(new ByteArrayInputStream(GgufWriter.llama(0)))).isEqualTo(LLAMA);
  }

  @Test
  void uint64ValuesAndMissingKeys() throws IOException {
    byte[] file = new GgufWriter().string("general.architecture", "qwen3moe")
        .uint64("qwen3moe.context_length", 262144).uint32("qwen3moe.block_count", 48).build(16);
    GgufMetadata m = GgufReader.read(new ByteArrayInputStream(file));
    assertThat(m.architecture()).isEqualTo("qwen3moe");
    assertThat(m.contextLength()).isEqualTo(262144L);
    assertThat(m.layerCount()).isEqualTo(48L);
    assertThat(m.quantization()).isNull();
  }

  @Test
  void rejectsWhatIsNotGguf() {
    assertThatThrownBy(() -> GgufReader.read(new ByteArrayInputStream("<html>".getBytes())))
        .isInstanceOf(IOException.class);
    byte[] truncated = Arrays.copyOf(GgufWriter.llama(0), 40);
    assertThatThrownBy(() -> GgufReader.read(new ByteArrayInputStream(truncated))).hasMessageContaining("truncated");
  }

  @Test
  void deeplyNestedArraysAreRefusedNotAStackOverflow() {
    java.io.ByteArrayOutputStream kv = new java.io.ByteArrayOutputStream();
    kv.writeBytes(GgufReaderFuzzTest.string("general.nested"));
    kv.writeBytes(GgufReaderFuzzTest.u32(9));
    for (int i = 0; i < 100_000; i++) {
      kv.writeBytes(GgufReaderFuzzTest.u32(9));
      kv.writeBytes(GgufReaderFuzzTest.u64(1));
    }
    byte[] file = GgufReaderFuzzTest.file(1, kv.toByteArray());
    assertThatThrownBy(() -> GgufReader.read(new ByteArrayInputStream(file))).isInstanceOf(IOException.class)
        .hasMessageContaining("nested more than 8 levels deep");
  }

  @Test
  void anArrayWhoseByteSizeOverflowsIsRefusedAsCorrupt() {
    byte[] kv = concat(GgufReaderFuzzTest.string("general.floats"), GgufReaderFuzzTest.u32(9),
        GgufReaderFuzzTest.u32(10), GgufReaderFuzzTest.u64(Long.MAX_VALUE / 4));
    byte[] file = GgufReaderFuzzTest.file(1, kv);
    assertThatThrownBy(() -> GgufReader.read(new ByteArrayInputStream(file))).isInstanceOf(IOException.class)
        .hasMessageContaining("corrupt GGUF array of 2305843009213693951 elements");
  }

  @Test
  void aSkippedStringLongerThanTheLimitIsRefusedAsCorrupt() {
    byte[] kv = concat(GgufReaderFuzzTest.string("some.key"), GgufReaderFuzzTest.u32(8),
        GgufReaderFuzzTest.u64(1L << 40));
    byte[] file = GgufReaderFuzzTest.file(1, kv);
    assertThatThrownBy(() -> GgufReader.read(new ByteArrayInputStream(file))).isInstanceOf(IOException.class)
        .hasMessageContaining("corrupt GGUF string length 1099511627776");
  }

  @Test
  void aGeneralIntegerKeyShorterThanTheArchitectureNameIsIgnored() throws IOException {
    byte[] file = new GgufWriter().string("general.architecture", "a-long-architecture-name")
        .uint32("general.a", 1).uint32("general.quantization_version", 2)
        .uint32("a-long-architecture-name.block_count", 12).build(0);
    GgufMetadata m = GgufReader.read(new ByteArrayInputStream(file));
    assertThat(m.architecture()).isEqualTo("a-long-architecture-name");
    assertThat(m.layerCount()).isEqualTo(12L);
    assertThat(m.contextLength()).isNull();
  }

  private static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  @Test
  void remoteHeaderByRangeFetchesOnlyTheStart() throws IOException {
    byte[] file = GgufWriter.llama(32 * 1024 * 1024);
    try (FileServer server = new FileServer(true)) {
      String url = server.put("/org/repo/resolve/main/llama.gguf", file);
      ModelInspector.Inspection seen = new ModelInspector(Duration.ofSeconds(10), FileServer.LOOPBACK)
          .remote(url, true);
      assertThat(seen.error()).isNull();
      assertThat(seen.gguf()).isEqualTo(LLAMA);
      assertThat(seen.length()).isEqualTo(file.length);
      assertThat(seen.etag()).isEqualTo(FileServer.etag(file));
      assertThat(server.bytesSent.get()).isLessThan(2L * 1024 * 1024);
    }
  }

  @Test
  void remoteHeaderFromAServerWithoutRanges() throws IOException {
    byte[] file = GgufWriter.llama(4 * 1024 * 1024);
    try (FileServer server = new FileServer(false)) {
      String url = server.put("/llama.gguf", file);
      ModelInspector.Inspection seen = new ModelInspector(Duration.ofSeconds(10), FileServer.LOOPBACK)
          .remote(url, true);
      assertThat(seen.gguf()).isEqualTo(LLAMA);
      assertThat(seen.length()).isEqualTo(file.length);
    }
  }

  @Test
  void remoteErrorsAreReportedNotThrown() throws IOException {
    try (FileServer server = new FileServer(true)) {
      String missing = server.put("/x", new byte[0]).replace("/x", "/missing.gguf");
      ModelInspector inspector = new ModelInspector(Duration.ofSeconds(5), FileServer.LOOPBACK);
      assertThat(inspector.remote(missing, true).error()).contains("404");
      String notGguf = server.put("/page.gguf", "<html>not a model</html>".getBytes());
      assertThat(inspector.remote(notGguf, true).error()).contains("GGUF");
    }
  }

  @Test
  void localFiles(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("llama.gguf");
    Files.write(file, GgufWriter.llama(1000));
    ModelInspector.Inspection seen = new ModelInspector(Duration.ofSeconds(5)).local(file.toString(), true);
    assertThat(seen.gguf()).isEqualTo(LLAMA);
    assertThat(seen.length()).isEqualTo(Files.size(file));
    assertThat(new ModelInspector(Duration.ofSeconds(5)).local(dir.resolve("none").toString(), true)).isNull();
  }
}
