package dev.modelplane.operator.modelsource;

import java.util.Locale;

/**
 * A Model's {@code spec.source}, parsed. The forms follow LLMKube: {@code https://…} (or {@code http://}),
 * {@code hf://org/repo[@revision]}, a bare {@code org/repo} Hugging Face id, {@code s3://bucket/key},
 * {@code pvc://claim/path}, and {@code file:///path} or an absolute path.
 */
public sealed interface ModelSource {

  /** A file served over HTTP(S), downloaded as is. */
  record Http(String url) implements ModelSource {
  }

  /**
   * A Hugging Face repository. With {@code spec.files} the named files are downloaded from the hub; without them the
   * repository id is handed to the runtime, which resolves it itself.
   *
   * @param repo {@code org/name}
   * @param revision branch, tag or commit; null for {@code main}
   * @param bare written without the {@code hf://} scheme
   */
  record HuggingFace(String repo, String revision, boolean bare) implements ModelSource {
    /** {@code org/name}, or {@code org/name@revision} when a revision is given. */
    public String id() {
      return revision == null ? repo : repo + "@" + revision;
    }
  }

  /** An object (or, with {@code spec.files}, a prefix) in an S3 bucket. */
  record S3(String bucket, String key) implements ModelSource {
  }

  /** A file on an existing PersistentVolumeClaim in the Model's namespace. */
  record Pvc(String claim, String path) implements ModelSource {
  }

  /** A file on the node's file system. */
  record LocalPath(String path) implements ModelSource {
  }

  /** The scheme-like kind, for labels, logs and messages. */
  default String kind() {
    return switch (this) {
      case Http h -> "http";
      case HuggingFace h -> h.bare() ? "hf-id" : "hf";
      case S3 s -> "s3";
      case Pvc p -> "pvc";
      case LocalPath l -> "file";
    };
  }

  /**
   * Parses a source string.
   *
   * @throws IllegalArgumentException with a message fit for a condition when the string is not a source
   */
  static ModelSource parse(String source) {
    if (source == null || source.isBlank()) {
      throw new IllegalArgumentException("must not be empty");
    }
    String s = source.trim();
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.startsWith("https://") || lower.startsWith("http://")) {
      if (s.indexOf('/', s.indexOf("://") + 3) < 0) {
        throw new IllegalArgumentException("URL " + RedactedUrl.of(s) + " names no file");
      }
      return new Http(s);
    }
    if (lower.startsWith("hf://")) {
      return huggingFace(s.substring(5), false);
    }
    if (lower.startsWith("s3://")) {
      String rest = s.substring(5);
      int slash = rest.indexOf('/');
      if (slash <= 0 || slash == rest.length() - 1) {
        throw new IllegalArgumentException("expected s3://bucket/key, got " + s);
      }
      return new S3(rest.substring(0, slash), rest.substring(slash + 1));
    }
    if (lower.startsWith("pvc://")) {
      String rest = s.substring(6);
      int slash = rest.indexOf('/');
      if (slash <= 0 || slash == rest.length() - 1) {
        throw new IllegalArgumentException("expected pvc://claim/path/to/file, got " + s);
      }
      return new Pvc(rest.substring(0, slash), rest.substring(slash + 1));
    }
    if (lower.startsWith("file://")) {
      String path = s.substring(7);
      if (!path.startsWith("/")) {
        throw new IllegalArgumentException("file:// sources need an absolute path, got " + s);
      }
      return new LocalPath(normalize(path));
    }
    if (s.startsWith("/")) {
      return new LocalPath(normalize(s));
    }
    if (s.contains("://")) {
      throw new IllegalArgumentException("unsupported scheme in " + s
          + " (use https://, hf://, s3://, pvc://, file://, an absolute path or org/repo)");
    }
    return huggingFace(s, true);
  }

  private static HuggingFace huggingFace(String text, boolean bare) {
    String repo = text;
    String revision = null;
    int at = text.lastIndexOf('@');
    if (at >= 0) {
      repo = text.substring(0, at);
      revision = text.substring(at + 1);
      if (revision.isEmpty()) {
        throw new IllegalArgumentException("empty revision after @ in " + text);
      }
    }
    String[] parts = repo.split("/", -1);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new IllegalArgumentException("expected a Hugging Face repository org/name, got " + text);
    }
    return new HuggingFace(repo, revision, bare);
  }

  private static String normalize(String path) {
    String p = path.replaceAll("/{2,}", "/");
    for (String segment : p.split("/")) {
      if (segment.equals("..")) {
        throw new IllegalArgumentException("path " + path + " must not contain ..");
      }
    }
    return p;
  }
}
