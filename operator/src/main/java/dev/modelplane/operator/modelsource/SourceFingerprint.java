package dev.modelplane.operator.modelsource;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.api.llmkube.v1alpha1.RefreshPolicy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What identifies the bytes of a remote model file without reading them: its HTTP ETag (Hugging Face serves the
 * blob's hash) and its length. Recorded in {@code status.sourceETag}/{@code status.sourceContentLength} when the
 * file is first inspected, compared on each revalidation.
 *
 * @param etag the ETag, or null when the server sends none
 * @param length the length in bytes, or null when unknown
 */
public record SourceFingerprint(String etag, Long length) {

  /** The fingerprint a status records, or null when it records none. */
  public static SourceFingerprint of(ModelStatus status) {
    if (status == null || (status.sourceETag() == null && status.sourceContentLength() == null)) {
      return null;
    }
    return new SourceFingerprint(status.sourceETag(), status.sourceContentLength());
  }

  /**
   * The fingerprint serving pods of an {@code OnChange} Model compare with the one stored beside the cached file, so
   * a changed source is downloaded again; null for {@code IfNotPresent} (a cached file is always kept) and when the
   * Model's status records none.
   */
  public static String refreshToken(Model model) {
    if (model == null || model.getSpec() == null) {
      return null;
    }
    ModelStatus status = model.getStatus();
    return refreshToken(model.getSpec().refreshPolicy(), status == null ? null : status.sourceETag(),
        status == null ? null : status.sourceContentLength());
  }

  /** {@link #refreshToken(Model)} for a fingerprint not yet written to the status. */
  public static String refreshToken(RefreshPolicy policy, String etag, Long length) {
    return policy != RefreshPolicy.ON_CHANGE || (etag == null && length == null) ? null
        : new SourceFingerprint(etag, length).id();
  }

  /**
   * Whether {@code now} describes different bytes: the ETags differ when both are known, else the lengths differ
   * when both are known. With nothing to compare, nothing has changed.
   */
  public boolean changedTo(SourceFingerprint now) {
    if (etag != null && now.etag() != null) {
      return !etag.equals(now.etag());
    }
    return length != null && now.length() != null && !Objects.equals(length, now.length());
  }

  /** Sixteen hex digits of the SHA-256 of ETag and length: short enough for an annotation, stable across runs. */
  public String id() {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest((etag + "|" + length).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /** {@code ETag "abc"} or {@code 1234 bytes}, for messages. */
  public String describe() {
    return etag != null ? "ETag " + etag : length + " bytes";
  }
}
