package dev.modelplane.operator.modelsource.fetch;

import java.util.Objects;
import java.util.Optional;

/**
 * One file of a model as its source lists it.
 *
 * @param path where the file goes, relative to the model directory, with {@code /} separators (checked against
 *     path traversal by the downloader, not here: the name comes from a remote server)
 * @param size the size in bytes
 * @param sha256 the SHA-256 of the content as lowercase hex, when the source knows it (Hugging Face LFS files)
 * @param etag the source's version tag for the file (a git blob id, an LFS oid or an S3 ETag), when known
 * @param checksum another checksum the source announces (MD5, CRC32C), verified when there is no SHA-256
 */
public record RemoteFile(String path, long size, Optional<String> sha256, Optional<String> etag,
    Optional<ContentChecksum> checksum) {
  public RemoteFile {
    Objects.requireNonNull(path, "path");
    if (size < 0) {
      throw new IllegalArgumentException("size of " + path + " is negative: " + size);
    }
    sha256 = Objects.requireNonNull(sha256, "sha256").map(RemoteFile::checkedSha256);
    etag = Objects.requireNonNull(etag, "etag");
    checksum = Objects.requireNonNull(checksum, "checksum");
  }

  /** A file with no checksum other than a possible SHA-256. */
  public RemoteFile(String path, long size, Optional<String> sha256, Optional<String> etag) {
    this(path, size, sha256, etag, Optional.empty());
  }

  /** A file whose source announces a checksum in its own algorithm. */
  public static RemoteFile withChecksum(String path, long size, Optional<String> etag,
      Optional<ContentChecksum> checksum) {
    Optional<String> sha = checksum.filter(c -> c.algorithm() == ContentChecksum.Algorithm.SHA256)
        .map(ContentChecksum::hex);
    return new RemoteFile(path, size, sha, etag, sha.isPresent() ? Optional.empty() : checksum);
  }

  /** The checksum the download is verified against: the SHA-256 when known, else the other checksum. */
  public Optional<ContentChecksum> expected() {
    return sha256.map(ContentChecksum::sha256).or(() -> checksum);
  }

  /** A file whose size alone is known. */
  public static RemoteFile of(String path, long size) {
    return new RemoteFile(path, size, Optional.empty(), Optional.empty());
  }

  private static String checkedSha256(String hex) {
    String lower = hex.toLowerCase(java.util.Locale.ROOT);
    if (!lower.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("not a SHA-256 in hex: '" + hex + "'");
    }
    return lower;
  }
}
