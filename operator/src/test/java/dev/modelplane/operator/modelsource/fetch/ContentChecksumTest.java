package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ContentChecksumTest {
  private static final byte[] HELLO = "hello world".getBytes(StandardCharsets.US_ASCII);

  private static String hash(ContentChecksum.Algorithm algorithm, byte[] data) {
    ContentChecksum.Hasher hasher = algorithm.newHasher();
    hasher.update(data, 0, 5);
    hasher.update(data, 5, data.length - 5);
    return hasher.hex();
  }

  @Test
  void computesEachAlgorithmIncrementally() {
    assertThat(hash(ContentChecksum.Algorithm.MD5, HELLO)).isEqualTo("5eb63bbbe01eeed093cb22bb8f5acdc3");
    assertThat(hash(ContentChecksum.Algorithm.SHA256, HELLO))
        .isEqualTo("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9");
    // CRC32C check value of RFC 3720 (iSCSI): "123456789" -> e3069283
    assertThat(hash(ContentChecksum.Algorithm.CRC32C, "123456789".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo("e3069283");
  }

  @Test
  void readsTheBase64FormsStoresSend() {
    // GCS documents "hello world" as crc32c yZRlqg== and md5Hash XrY7u+Ae7tCTyyK7j1rNww==
    assertThat(ContentChecksum.ofBase64(ContentChecksum.Algorithm.CRC32C, "yZRlqg==").hex())
        .isEqualTo(hash(ContentChecksum.Algorithm.CRC32C, HELLO));
    ContentChecksum md5 = ContentChecksum.ofBase64(ContentChecksum.Algorithm.MD5, "XrY7u+Ae7tCTyyK7j1rNww==");
    assertThat(md5.hex()).isEqualTo("5eb63bbbe01eeed093cb22bb8f5acdc3");
    assertThat(md5.base64()).isEqualTo("XrY7u+Ae7tCTyyK7j1rNww==");
    assertThat(md5).hasToString("md5:5eb63bbbe01eeed093cb22bb8f5acdc3");
  }

  @Test
  void refusesValuesOfTheWrongShape() {
    assertThatThrownBy(() -> ContentChecksum.ofBase64(ContentChecksum.Algorithm.MD5, "yZRlqg=="))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a md5 has 16 bytes, 'yZRlqg==' has 4");
    assertThatThrownBy(() -> ContentChecksum.ofBase64(ContentChecksum.Algorithm.CRC32C, "not base64!"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("not a base64 crc32c");
    assertThatThrownBy(() -> new ContentChecksum(ContentChecksum.Algorithm.MD5, "xyz"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("not a md5 in hex: 'xyz'");
  }

  @Test
  void aRemoteFilePrefersItsSha256() {
    ContentChecksum md5 = new ContentChecksum(ContentChecksum.Algorithm.MD5, "5eb63bbbe01eeed093cb22bb8f5acdc3");
    assertThat(RemoteFile.withChecksum("a", 1, Optional.empty(), Optional.of(md5)).expected()).contains(md5);
    ContentChecksum sha = ContentChecksum.sha256("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9");
    RemoteFile file = RemoteFile.withChecksum("a", 1, Optional.empty(), Optional.of(sha));
    assertThat(file.sha256()).contains(sha.hex());
    assertThat(file.expected()).contains(sha);
    assertThat(RemoteFile.of("a", 1).expected()).isEmpty();
  }
}
