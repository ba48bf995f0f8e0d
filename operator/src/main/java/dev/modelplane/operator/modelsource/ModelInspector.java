package dev.modelplane.operator.modelsource;

import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Looks at a model file without downloading it: size, ETag and, for GGUF, the header metadata. Remote files are read
 * with HTTP range requests under an {@link InspectionPolicy} (by default https to public addresses only); local
 * files directly. Errors name the URL without its query.
 */
public class ModelInspector {
  /** Most bytes read from the start of a file while looking for the metadata. */
  static final long MAX_HEADER_BYTES = 64L * 1024 * 1024;

  private final InspectionHttp http;

  /** An inspector with the default policy: https to public addresses only. */
  public ModelInspector(Duration timeout) {
    this(timeout, InspectionPolicy.defaults());
  }

  public ModelInspector(Duration timeout, InspectionPolicy policy) {
    this(new InspectionHttp(policy, timeout));
  }

  public ModelInspector(InspectionHttp http) {
    this.http = http;
  }

  /**
   * What was learned about a file.
   *
   * @param gguf header metadata, or null when not GGUF or unreadable
   * @param length size in bytes, or null
   * @param etag ETag, or null
   * @param error why the header could not be read, or null
   */
  public record Inspection(GgufMetadata gguf, Long length, String etag, String error) {
  }

  /** Inspects an {@code http(s)://} file. */
  public Inspection remote(String url, boolean gguf) {
    URI uri;
    try {
      uri = new URI(url.strip());
    } catch (java.net.URISyntaxException e) {
      return new Inspection(null, null, null, RedactedUrl.of(url) + " is not a valid URL");
    }
    RangedHttpInputStream in = new RangedHttpInputStream(http, uri, MAX_HEADER_BYTES);
    try (in) {
      in.probe();
      GgufMetadata metadata = gguf ? GgufReader.read(in) : null;
      return new Inspection(metadata, in.totalLength() < 0 ? null : in.totalLength(), in.etag(), null);
    } catch (IOException | RuntimeException e) {
      return new Inspection(null, in.totalLength() < 0 ? null : in.totalLength(), in.etag(),
          e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }
  }

  /** Inspects a file on the operator's own file system, or returns null when it cannot see it. */
  public Inspection local(String path, boolean gguf) {
    Path file = Path.of(path);
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      return null;
    }
    try (InputStream in = Files.newInputStream(file)) {
      long size = Files.size(file);
      return new Inspection(gguf ? GgufReader.read(in) : null, size, null, null);
    } catch (IOException e) {
      return new Inspection(null, null, null, e.getMessage());
    }
  }

  /**
   * The SHA-256 of a file on the operator's own file system, as lowercase hex; null when the operator cannot read it
   * (the file lives on the nodes only) or reading fails. Reads the whole file.
   */
  public String sha256(String path) {
    Path file = Path.of(path);
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      return null;
    }
    try (InputStream in = Files.newInputStream(file)) {
      java.security.MessageDigest digest = java.security.MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[1 << 20];
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
      return java.util.HexFormat.of().formatHex(digest.digest());
    } catch (IOException e) {
      return null;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
