package dev.modelplane.operator.modelsource.fetch;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * A checksum a model store announces for a file, in the store's own algorithm: SHA-256 (Hugging Face LFS files,
 * GitHub release assets), MD5 (OCI Object Storage {@code md5}, Azure {@code Content-MD5}, GCS {@code md5Hash}) or
 * CRC32C (GCS {@code crc32c}, which every GCS object has, composite ones included).
 *
 * @param algorithm how the checksum is computed
 * @param hex the value as lowercase hex; CRC32C as its four bytes in big-endian order, as GCS encodes it
 */
public record ContentChecksum(Algorithm algorithm, String hex) {
  /** The algorithms the downloader verifies. */
  public enum Algorithm {
    SHA256("sha256", 32),
    MD5("md5", 16),
    CRC32C("crc32c", 4);

    private final String label;
    private final int bytes;

    Algorithm(String label, int bytes) {
      this.label = label;
      this.bytes = bytes;
    }

    /** The name in messages and in the downloader's records, e.g. {@code md5}. */
    public String label() {
      return label;
    }

    /** A fresh incremental hasher. */
    public Hasher newHasher() {
      return switch (this) {
        case SHA256 -> new DigestHasher(digest("SHA-256"));
        case MD5 -> new DigestHasher(digest("MD5"));
        case CRC32C -> new Crc32cHasher();
      };
    }

    private static MessageDigest digest(String name) {
      try {
        return MessageDigest.getInstance(name);
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("the JDK has no " + name, e);
      }
    }
  }

  /** Computes a checksum over bytes fed in order. */
  public interface Hasher {
    void update(byte[] buffer, int offset, int length);

    /** Starts over, as if nothing had been fed. */
    void reset();

    /** The checksum of everything fed so far, as lowercase hex; the hasher starts over afterwards. */
    String hex();
  }

  public ContentChecksum {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(hex, "hex");
    hex = hex.toLowerCase(Locale.ROOT);
    if (!hex.matches("[0-9a-f]{" + (algorithm.bytes * 2) + "}")) {
      throw new IllegalArgumentException("not a " + algorithm.label + " in hex: '" + hex + "'");
    }
  }

  /** A SHA-256 given as hex. */
  public static ContentChecksum sha256(String hex) {
    return new ContentChecksum(Algorithm.SHA256, hex);
  }

  /**
   * A checksum given as base64 of its bytes, as OCI, Azure and GCS send them.
   *
   * @throws IllegalArgumentException when the text is not base64 or has the wrong length for the algorithm
   */
  public static ContentChecksum ofBase64(Algorithm algorithm, String base64) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(base64.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a base64 " + algorithm.label + ": '" + base64 + "'", e);
    }
    if (bytes.length != algorithm.bytes) {
      throw new IllegalArgumentException("a " + algorithm.label + " has " + algorithm.bytes + " bytes, '" + base64
          + "' has " + bytes.length);
    }
    return new ContentChecksum(algorithm, HexFormat.of().formatHex(bytes));
  }

  /** The value as base64 of its bytes. */
  public String base64() {
    return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
  }

  @Override
  public String toString() {
    return algorithm.label + ":" + hex;
  }

  private static final class DigestHasher implements Hasher {
    private final MessageDigest digest;

    DigestHasher(MessageDigest digest) {
      this.digest = digest;
    }

    @Override
    public void update(byte[] buffer, int offset, int length) {
      digest.update(buffer, offset, length);
    }

    @Override
    public void reset() {
      digest.reset();
    }

    @Override
    public String hex() {
      return HexFormat.of().formatHex(digest.digest());
    }
  }

  private static final class Crc32cHasher implements Hasher {
    private final CRC32C crc = new CRC32C();

    @Override
    public void update(byte[] buffer, int offset, int length) {
      crc.update(buffer, offset, length);
    }

    @Override
    public void reset() {
      crc.reset();
    }

    @Override
    public String hex() {
      String value = String.format(Locale.ROOT, "%08x", crc.getValue());
      crc.reset();
      return value;
    }
  }
}
