package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading safetensors headers: exact counts, only the header's bytes, and a clear refusal of hostile input. */
class SafetensorsHeaderTest {
  @TempDir
  Path dir;

  @Test
  void readsTensorsAndCountsEveryElement() throws IOException {
    Path file = new SafetensorsTestWriter()
        .metadata("format", "pt")
        .tensor("model.embed_tokens.weight", "BF16", 32000, 64)
        .tensor("model.norm.weight", "F32", 64)
        .tensor("lm_head.weight", "BF16", 32000, 64)
        .write(dir.resolve("model.safetensors"));

    SafetensorsHeader header = SafetensorsHeader.read(file);

    assertThat(header.metadata()).isEqualTo(Map.of("format", "pt"));
    assertThat(header.tensors()).extracting(SafetensorsTensor::name)
        .containsExactly("model.embed_tokens.weight", "model.norm.weight", "lm_head.weight");
    SafetensorsTensor norm = header.tensors().get(1);
    assertThat(norm.dtype()).isEqualTo("F32");
    assertThat(norm.shape()).containsExactly(64L);
    assertThat(norm.dataStart()).isEqualTo(32000L * 64 * 2);
    assertThat(norm.dataEnd()).isEqualTo(32000L * 64 * 2 + 64 * 4);
    assertThat(header.parameterCount()).isEqualTo(2L * 32000 * 64 + 64);
    assertThat(header.headerLength() % 8).isZero();
  }

  @Test
  void aHeaderThatLooksLikeUtf32IsAFormatError() throws IOException {
    // Leading zero bytes make the JSON parser guess UTF-32 and fail with a CharConversionException of its own.
    byte[] header = {0, 0, 0, '{', 'x', 'x', 'x', 'x'};
    byte[] bytes = SafetensorsTestWriter.raw(8, header, 0, 0);
    assertThatThrownBy(() -> SafetensorsHeader.read(new ByteArrayInputStream(bytes), "mem"))
        .isInstanceOf(SafetensorsFormatException.class).hasMessageStartingWith("mem: header is not UTF-8 JSON");
    Path file = Files.write(dir.resolve("utf32.safetensors"), bytes);
    assertThatThrownBy(() -> SafetensorsHeader.read(file))
        .isInstanceOf(SafetensorsFormatException.class).hasMessageContaining("header is not UTF-8 JSON");
    Path index = Files.write(dir.resolve(SafetensorsIndex.FILE_NAME), header);
    assertThatThrownBy(() -> SafetensorsIndex.read(index))
        .isInstanceOf(SafetensorsFormatException.class).hasMessageContaining("is not UTF-8 JSON");
  }

  @Test
  void aScalarCountsOneAndAZeroDimensionNone() throws IOException {
    byte[] bytes = new SafetensorsTestWriter().tensor("step", "I64").tensor("empty", "F32", 0, 16)
        .tensor("w", "F16", 3, 5).bytes();
    SafetensorsHeader header = SafetensorsHeader.read(new ByteArrayInputStream(bytes), "mem");
    assertThat(header.tensors()).extracting(SafetensorsTensor::elementCount).containsExactly(1L, 0L, 15L);
    assertThat(header.parameterCount()).isEqualTo(16);
  }

  @Test
  void aStreamIsReadUpToTheEndOfTheHeaderOnly() throws IOException {
    SafetensorsTestWriter writer = new SafetensorsTestWriter().tensor("w", "F32", 10, 10);
    InputStream in = new ByteArrayInputStream(writer.bytes());
    SafetensorsHeader header = SafetensorsHeader.read(in, "mem");
    assertThat(header.parameterCount()).isEqualTo(100);
    assertThat(in.readAllBytes()).hasSize(400);
  }

  @Test
  void aFileIsReadWithoutItsWeights() throws IOException {
    // A sparse file with 8 GiB of weights: only the header is read, so this returns at once.
    Path file = dir.resolve("big.safetensors");
    String json = "{\"w\":{\"dtype\":\"U8\",\"shape\":[8589934592],\"data_offsets\":[0,8589934592]}}";
    Files.write(file, SafetensorsTestWriter.file(json, 0));
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(raf.length() + 8_589_934_592L);
    }
    assertThat(SafetensorsHeader.read(file).parameterCount()).isEqualTo(8_589_934_592L);
  }

  static Stream<Arguments> hostileHeaders() {
    return Stream.of(
        arguments(new byte[3], "x.safetensors: ends after 3 bytes, too short for the 8-byte header length"),
        arguments(SafetensorsTestWriter.raw(SafetensorsHeader.MAX_HEADER_BYTES + 1, new byte[0], 0, 0),
            "x.safetensors: declares a header of 104857601 bytes, more than the 104857600-byte limit"),
        arguments(SafetensorsTestWriter.raw(-1, new byte[0], 0, 0),
            "x.safetensors: declares a header of 18446744073709551615 bytes, more than the 104857600-byte limit"),
        arguments(SafetensorsTestWriter.raw(0, new byte[0], 0, 0),
            "x.safetensors: declares a header of 0 bytes, too short for a JSON object"),
        arguments(SafetensorsTestWriter.raw(SafetensorsHeader.MAX_HEADER_BYTES, utf8("{\"w\":"), 0, 0),
            "x.safetensors: ends after 5 of the header's 104857600 bytes"),
        arguments(SafetensorsTestWriter.file("[1, 2]", 0), "x.safetensors: header is not a JSON object"),
        arguments(SafetensorsTestWriter.file("{}{}", 0), "x.safetensors: header has content after its JSON object"),
        arguments(tensor("{\"dtype\":\"F32\",\"shape\":[2,-3],\"data_offsets\":[0,0]}"),
            "x.safetensors: tensor 'w' has a negative value -3 at index 1 of shape"),
        arguments(tensor("{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,0]}"),
            "x.safetensors: tensor 'w' has shape [4294967296, 4294967296] whose element count does not fit in a "
                + "signed 64-bit integer"),
        arguments(tensor("{\"dtype\":\"F32\",\"shape\":[99999999999999999999],\"data_offsets\":[0,0]}"),
            "x.safetensors: tensor 'w' has 99999999999999999999 in shape, which does not fit in a signed 64-bit "
                + "integer"),
        arguments(tensor("{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,0]}"),
            "x.safetensors: tensor 'w' has a non-integer 1.5 in shape"),
        arguments(tensor("{\"dtype\":\"F32\",\"shape\":" + "[" + String.join(",", java.util.Collections.nCopies(65, "1")) + "]"
            + ",\"data_offsets\":[0,4]}"), "x.safetensors: tensor 'w' has more than 64 entries in shape"),
        arguments(tensor("{\"dtype\":\"F32\",\"shape\":\"2x3\",\"data_offsets\":[0,0]}"),
            "x.safetensors: tensor 'w' has a shape that is not an array"),
        arguments(tensor("{\"shape\":[2],\"data_offsets\":[0,8]}"), "x.safetensors: tensor 'w' lacks dtype"),
        arguments(tensor("{\"dtype\":\"F32\",\"data_offsets\":[0,8]}"), "x.safetensors: tensor 'w' lacks shape"),
        arguments(tensor("{\"dtype\":\"F32\",\"shape\":[2]}"), "x.safetensors: tensor 'w' lacks data_offsets"),
        arguments(tensor("{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}"),
            "x.safetensors: tensor 'w' has data_offsets [8, 0]; expected [begin, end] with begin <= end"),
        arguments(tensor("{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8,16]}"),
            "x.safetensors: tensor 'w' has more than 2 entries in data_offsets"),
        arguments(tensor("{\"dtype\":7,\"shape\":[2],\"data_offsets\":[0,8]}"),
            "x.safetensors: tensor 'w' has a dtype that is not a string"),
        arguments(SafetensorsTestWriter.file("{\"w\":[1]}", 0), "x.safetensors: tensor 'w' is not a JSON object"),
        arguments(SafetensorsTestWriter.file("{\"__metadata__\":{\"k\":{\"a\":1}}}", 0),
            "x.safetensors: __metadata__ entry 'k' is not a string"),
        arguments(SafetensorsTestWriter.file("{\"__metadata__\":[]}", 0),
            "x.safetensors: __metadata__ is not a JSON object"));
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @MethodSource("hostileHeaders")
  void refusesHostileHeaders(byte[] bytes, String message) {
    assertThatThrownBy(() -> SafetensorsHeader.read(new ByteArrayInputStream(bytes), "x.safetensors"))
        .isInstanceOf(SafetensorsFormatException.class)
        .hasMessage(message);
  }

  @Test
  void refusesInvalidJsonAndDuplicateTensors() {
    byte[] broken = SafetensorsTestWriter.file("{\"w\": {\"dtype\": ", 0);
    assertThatThrownBy(() -> SafetensorsHeader.read(new ByteArrayInputStream(broken), "x.safetensors"))
        .isInstanceOf(SafetensorsFormatException.class)
        .hasMessageStartingWith("x.safetensors: header is not valid JSON: ");
    String twice = "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
        + "\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}";
    assertThatThrownBy(() -> SafetensorsHeader.read(new ByteArrayInputStream(SafetensorsTestWriter.file(twice, 8)),
        "x.safetensors"))
        .hasMessage("x.safetensors: header is not valid JSON: Duplicate field 'w'");
  }

  @Test
  void aFileMustHoldItsHeaderAndItsTensors() throws IOException {
    Path empty = Files.write(dir.resolve("empty.safetensors"), new byte[0]);
    assertThatThrownBy(() -> SafetensorsHeader.read(empty))
        .hasMessage(empty + ": is 0 bytes, too short for the 8-byte header length");

    Path shortFile = Files.write(dir.resolve("short.safetensors"),
        SafetensorsTestWriter.raw(1000, utf8("{\"w\":{}}"), 12, 0));
    assertThatThrownBy(() -> SafetensorsHeader.read(shortFile))
        .hasMessage(shortFile + ": declares a header of 1000 bytes but only 20 bytes follow the length");

    Path cut = Files.write(dir.resolve("cut.safetensors"), SafetensorsTestWriter.file(
        "{\"w\":{\"dtype\":\"F32\",\"shape\":[16],\"data_offsets\":[0,64]}}", 16));
    assertThatThrownBy(() -> SafetensorsHeader.read(cut))
        .isInstanceOf(SafetensorsFormatException.class)
        .hasMessage(cut + ": tensor 'w' ends at byte 64 of the data, but the file holds only 16 data bytes");
  }

  private static byte[] tensor(String entry) {
    return SafetensorsTestWriter.file("{\"w\":" + entry + "}", 0);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
